"""The audit's check of a ticketing site's performers (``simulators/performer_facts``).

``performer_hits(spec, result)`` reports a performer filed under a type no ticketing taxonomy
has (a film or book genre: "Cozy mystery", "Drum and bass"), and a performer that is no band
but carries music genres.
"""

from __future__ import annotations

from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators.naming import snake
from env_server.simulators.records import default_facts
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]
_PERFORMERS = frozenset({"performer", "performers", "attraction", "attractions"})


def performer_hits(spec: ToolSpec, result: Any) -> list[Hit]:
    if not set(snake(spec.profile.entity or "").split("_")) & _PERFORMERS:
        return []
    types = {r["type"]: r for r in default_facts().vocab.get("performer_type").records}
    found: list[Hit] = []
    for path, record in walk_records(result):
        kind = record.get("type")
        if not isinstance(kind, str) or "name" not in record:
            continue
        if kind not in types:
            found.append((f"{path}.type", f"performer type {kind!r} is no ticketing taxonomy's"))
        elif record.get("genres") and not types[kind]["genre_kind"]:
            found.append((f"{path}.genres", f"a {kind} performer has music genres {record['genres']!r}"))
    return found
