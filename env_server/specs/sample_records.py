"""Sample filters a caller would send to a search: values its records can hold.

A search's free-text filter often stands for a field of the rows it finds whose values are
a closed list (``getTrainTickets(destination_station)`` filters rows whose
``destination_station`` is one of the service's stations). Drawn from the schema alone, the
filter is a random phrase ("summer") that names no station, and the search rightly finds
nothing. A caller asks about a station the service has: ``record_value`` draws the filter
from the field's own list (or, for the other end of a route, ``starting_station``, from the
list of the field of the same role).
"""

from __future__ import annotations

from typing import Any

from env_server.catalog.models import Operation, ToolSpec
from env_server.simulators.generate import Generation
from env_server.simulators.naming import snake

_SEARCHES = frozenset({Operation.SEARCH, Operation.LIST})


def record_value(spec: ToolSpec, name: str, schema: dict[str, Any], gen: Generation) -> Any | None:
    """One of the values the found rows' ``name`` field takes, or None when the parameter
    stands for no such closed field (or has a list of its own)."""
    if spec.profile.operation not in _SEARCHES or "enum" in schema or schema.get("type", "string") != "string":
        return None
    props = _record_properties(spec)
    choices = _closed_list(props.get(name)) or _closed_list(props.get(_sibling(name, props) or ""))
    return gen.rng.choice(sorted(choices)) if choices else None


def _closed_list(field: Any) -> list[str]:
    choices = field.get("enum") if isinstance(field, dict) else None
    ok = isinstance(choices, list) and choices and all(isinstance(c, str) for c in choices)
    return list(choices) if ok else []  # type: ignore[arg-type]


def _sibling(name: str, props: dict[str, Any]) -> str | None:
    """A closed field of the same role (``starting_station`` beside ``destination_station``):
    the two ends of a route name places of one list."""
    role = snake(name).rsplit("_", 1)[-1]
    if role == snake(name):
        return None
    return next((f for f in sorted(props) if f != name and snake(f).endswith("_" + role) and _closed_list(props[f])),
                None)


def _record_properties(spec: ToolSpec) -> dict[str, Any]:
    coll = spec.profile.collection
    listed = (spec.output_schema.get("properties") or {}).get(coll or "")
    items = listed.get("items") if isinstance(listed, dict) else None
    props = items.get("properties") if isinstance(items, dict) else None
    return props if isinstance(props, dict) else {}
