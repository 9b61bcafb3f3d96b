"""The audit's agreement checks: a record of a known shape whose fields contradict each other.

``agreement_hits(spec, result)`` reads every record of a result and reports:

* an issue or a pull/merge request that is open yet has a closing or merge date, or a reason
  it was closed ("not_planned"), or that was closed or merged before it was opened;
* a shelter animal whose breed is one of another species' (a Rabbit that is an affenpinscher), or
  whose size is not its breed's (an "Extra Large" Bedlington Terrier);
* a museum object in the public domain that was made within the last century, or whose
  department holds none of its medium (a watercolor in The Costume Institute).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterator, Mapping
from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators.artwork_facts import PUBLIC_DOMAIN_BEFORE
from env_server.simulators.naming import snake
from env_server.simulators.records import default_facts
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]

_TRACKED = frozenset({"issue", "bug", "pull", "merge"})
_OPEN = frozenset({"open", "opened"})
_CLOSINGS = ("closed_at", "merged_at", "closed_on", "merged_on")
_CREATED = ("created_at", "created_on", "created")
_YEAR_RE = re.compile(r"(\d{1,4})(\s*B\.C\.)?")


def agreement_hits(spec: ToolSpec, result: Any) -> list[Hit]:
    words = set(snake(spec.profile.entity or "").split("_"))
    found: list[Hit] = []
    for path, record in walk_records(result):
        if words & _TRACKED:
            found += tracker_hits(path, record)
        if words & {"animal", "pet"}:
            found += breed_hits(path, record)
        if words & {"object", "artwork"}:
            found += museum_hits(path, record)
    return found


def _moment(value: Any) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(value.replace("Z", "+00:00")) if isinstance(value, str) else None
    except ValueError:
        return None


def tracker_hits(path: str, record: Mapping[str, Any]) -> Iterator[Hit]:
    state = record.get("state")
    if not isinstance(state, str):
        return
    if state.lower() in _OPEN:
        for key in _CLOSINGS:
            if record.get(key):
                yield f"{path}.{key}", f"an {state} record has {key}={record[key]!r}"
        if record.get("state_reason") in ("completed", "not_planned"):
            yield f"{path}.state_reason", f"an {state} record says why it was closed: {record['state_reason']!r}"
        return
    created = next((m for k in _CREATED if (m := _moment(record.get(k))) is not None), None)
    for key in _CLOSINGS:
        closed = _moment(record.get(key))
        if created is not None and closed is not None and closed < created:
            yield f"{path}.{key}", f"{key}={record[key]!r} is before it was opened"


@functools.lru_cache(maxsize=1)
def _species_by_breed() -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for entry in default_facts().vocab.get("pet_breed").records:
        found.setdefault(entry["breed"].lower(), set()).add(entry["species"])
    return {breed: frozenset(species) for breed, species in found.items()}


def breed_hits(path: str, record: Mapping[str, Any]) -> Iterator[Hit]:
    species = record.get("type") or record.get("species")
    breed = next((v for k in ("breed_primary", "breedPrimary", "breed") if isinstance(v := record.get(k), str)), None)
    if not isinstance(species, str) or breed is None:
        return
    known = _species_by_breed().get(breed.lower())
    if known is not None and species not in known:
        yield f"{path}.breed", f"a {species} of the {breed!r} breed, which is a {'/'.join(sorted(known))} breed"
    size = next((v for k in ("size", "sizeGroup") if isinstance(v := record.get(k), str)), None)
    grown = _size_by_breed().get((breed.lower(), species))
    if size is not None and grown is not None and _folded(size) != _folded(grown):
        yield f"{path}.size", f"a {size} {breed}, a breed whose grown animals are {grown}"


@functools.lru_cache(maxsize=1)
def _size_by_breed() -> dict[tuple[str, str], str]:
    return {(r["breed"].lower(), r["species"]): r["size"] for r in default_facts().vocab.get("pet_breed").records}


def _folded(size: str) -> str:
    return re.sub(r"[^a-z]", "", size.lower()).replace("extra", "x")


@functools.lru_cache(maxsize=1)
def _holdings() -> dict[str, frozenset[str]]:
    return {r["department"]: frozenset(r["media"]) for r in default_facts().vocab.get("museum_collection").records}


def museum_hits(path: str, record: Mapping[str, Any]) -> Iterator[Hit]:
    date = record.get("objectDate")
    found = _YEAR_RE.search(date) if isinstance(date, str) else None
    year = (-int(found[1]) if found[2] else int(found[1])) if found else None
    if record.get("isPublicDomain") is True and year is not None and year >= PUBLIC_DOMAIN_BEFORE:
        yield f"{path}.isPublicDomain", f"a work dated {date!r} is in the public domain"
    media = _holdings().get(str(record.get("department")))
    medium = record.get("medium")
    if media is not None and isinstance(medium, str) and medium not in media:
        yield f"{path}.medium", f"{medium!r} is not held by {record['department']!r}"
