"""Ids chain by type: the id field of a family's search rows takes the type its reader's id
parameter takes. An imported catalog infers the rows' ``location_id`` as a string while its
``getLocationDetails(locationId: integer)`` wants an integer; the agent passes what it was
shown, so the rows carry integers. Run once per catalog, at load time."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from env_server.catalog.models import Operation, ToolSpec
from env_server.catalog.words import snake


def align_id_types(specs: Iterable[ToolSpec]) -> None:
    """Retype (in place) a string row id as integer where every reader of it takes integers."""
    specs = list(specs)
    readers: dict[tuple[str, str], list[str]] = {}
    for spec in specs:
        param = (spec.input_schema.get("properties") or {}).get(spec.profile.id_param or "")
        if spec.profile.operation is Operation.READ and isinstance(param, dict):
            readers.setdefault((spec.family, spec.profile.entity), []).append(str(param.get("type")))
    for spec in specs:
        taken = readers.get((spec.family, spec.profile.entity))
        if spec.profile.operation in (Operation.SEARCH, Operation.LIST) and taken and set(taken) == {"integer"}:
            _retype_rows(spec)


def _retype_rows(spec: ToolSpec) -> None:
    coll = (spec.output_schema.get("properties") or {}).get(spec.profile.collection or "")
    items = coll.get("items") if isinstance(coll, dict) else None
    props: dict[str, Any] = (items.get("properties") or {}) if isinstance(items, dict) else {}
    idf = spec.profile.id_field or f"{spec.profile.entity}_id"
    for name in (idf, f"{snake(spec.profile.entity)}_id", "id"):
        field = props.get(name)
        if isinstance(field, dict) and field.get("type") == "string" and not (
                {"format", "pattern", "enum"} & field.keys()):
            field["type"] = "integer"
            field.pop("minLength", None)
            field.pop("maxLength", None)
            return
