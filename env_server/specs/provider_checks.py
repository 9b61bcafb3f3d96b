"""The audit's provider checks: facts a person who uses the API daily checks first.

``provider_hits(spec, args, result)`` reports:

* a CVSS v3 record whose base score disagrees with its vector, or whose severity
  disagrees with its score (7.0–8.9 is HIGH);
* a scanned service on a port the protocol does not use (SSH on 443), for the protocols
  of ``tool_specs/vocab/network_service.json``;
* a UV forecast out of time order, or a day's maximum below one of its readings;
* a place search whose rows are not the place asked for ("Berlin" answered with Lagos), or
  a search for a name no place has that answers anyway.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators.naming import PLACE_ENTITIES, snake
from env_server.simulators.place_query import SEARCH_TEXT_ARGS, places_named, proper_name
from env_server.simulators.records import default_facts
from env_server.simulators.reference import fold
from env_server.simulators.security_kinds import SEVERITY_BANDS, parse_vector, severity_of
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]

_SCORE_FIELDS = ("baseScore", "base_score", "cvss_score", "cvss3_score", "score")
_SEVERITY_FIELDS = ("baseSeverity", "base_severity", "severity", "cvss_severity")
_VECTOR_FIELDS = ("vectorString", "vector_string", "cvss_vector", "vector")
_LABELS = frozenset(label for _, label in SEVERITY_BANDS)


def provider_hits(spec: ToolSpec, args: Mapping[str, Any], result: Any) -> list[Hit]:
    """Provider findings in ``result`` for a call of ``spec`` with ``args``."""
    found: list[Hit] = []
    for path, record in walk_records(result):
        found += cvss_hits(path, record)
        found += service_hits(path, record)
        found += uv_hits(path, record)
    found += place_search_hits(spec, args, result)
    return found


def _first(record: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    return next((n for n in names if n in record), None)


def cvss_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    score_key, label_key = _first(record, _SCORE_FIELDS), _first(record, _SEVERITY_FIELDS)
    vector_key = _first(record, _VECTOR_FIELDS)
    score = record.get(score_key) if score_key else None
    if not isinstance(score, (int, float)) or isinstance(score, bool) or not 0 <= score <= 10:
        return []
    hits: list[Hit] = []
    vector = parse_vector(str(record[vector_key])) if vector_key else None
    if vector is not None and abs(vector.base_score - float(score)) > 0.05:
        hits.append((f"{path}.{score_key}", f"CVSS score {score} but the vector {vector.vector} scores "
                                            f"{vector.base_score}"))
    label = record.get(label_key) if label_key else None
    if isinstance(label, str) and label.upper() in _LABELS and label.upper() != severity_of(float(score)):
        hits.append((f"{path}.{label_key}", f"severity {label} does not fit the CVSS score {score} "
                                            f"(that is {severity_of(float(score))})"))
    return hits


@functools.lru_cache(maxsize=1)
def service_ports() -> dict[str, frozenset[int]]:
    """The ports each protocol is found on (from the network_service vocabulary)."""
    ports: dict[str, set[int]] = {}
    for row in default_facts().vocab.get("network_service").records:
        ports.setdefault(str(row["service_name"]).upper(), set()).add(int(row["port"]))
    return {name: frozenset(found) for name, found in ports.items()}


def service_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    name, port = record.get("service_name"), record.get("port")
    if not isinstance(name, str) or not isinstance(port, int) or isinstance(port, bool):
        return []
    known = service_ports().get(name.upper())
    if known is None or port in known:
        return []
    return [(f"{path}.port", f"{name} on port {port}; it is found on {sorted(known)}")]


def uv_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    hits: list[Hit] = []
    top = record.get("uv_max")
    if isinstance(top, (int, float)) and isinstance(record.get("uv"), (int, float)) and record["uv"] > top + 0.01:
        hits.append((f"{path}.uv", f"UV {record['uv']} above the day's maximum {top}"))
    for key, rows in record.items():
        if not isinstance(rows, list) or not all(isinstance(r, dict) and "uv_time" in r for r in rows) or not rows:
            continue
        times = [str(r["uv_time"]) for r in rows]
        if times != sorted(times):
            hits.append((f"{path}.{key}", "UV forecast out of time order"))
    return hits


def _search_text(args: Mapping[str, Any]) -> str | None:
    for key, value in args.items():
        if snake(key) in SEARCH_TEXT_ARGS and isinstance(value, str) and value.strip() and len(value) <= 80:
            return value.strip()
    return None


def place_search_hits(spec: ToolSpec, args: Mapping[str, Any], result: Any) -> list[Hit]:
    """A search for places answers the places its text names (or none when it names none)."""
    words = set(snake(spec.profile.entity or "").split("_"))
    coll = spec.profile.collection
    text = _search_text(args)
    if not words & PLACE_ENTITIES or not coll or text is None or not isinstance(result, dict):
        return []
    rows = result.get(coll)
    if not isinstance(rows, list):
        return []
    named = places_named(default_facts().reference, text)
    if not named and not proper_name(text):
        return []
    if not named:
        return [(f"$.{coll}", f"{len(rows)} rows for {text!r}, which names no known place")] if rows else []
    names = {fold(p.name) for p in named}
    hits: list[Hit] = []
    for i, row in enumerate(rows):
        shown = fold(" ".join(str(v) for v in row.values() if isinstance(v, str))) if isinstance(row, dict) else ""
        if not any(n in shown for n in names):
            hits.append((f"$.{coll}[{i}]", f"a row of a search for {text!r} that does not name it"))
    return hits
