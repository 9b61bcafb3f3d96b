"""Normalize imported JSON Schemas into standard draft 2020-12, recording every change.

Imported tool sets use loose schemas: ``"float"`` for numbers, ``"required": true`` on a
property (Swagger 2 style), required names that are not properties, missing types. A
loader calls :func:`normalize_schema` and keeps the returned records on the ``ToolSpec``
so ``toolenv specs check`` can show exactly what was changed and why.
"""

from __future__ import annotations

import copy
from typing import Any

from env_server.catalog.models import NormalizationRecord

TYPE_ALIASES: dict[str, str] = {
    "float": "number",
    "double": "number",
    "decimal": "number",
    "int": "integer",
    "long": "integer",
    "str": "string",
    "text": "string",
    "date": "string",
    "datetime": "string",
    "bool": "boolean",
    "list": "array",
    "dict": "object",
    "map": "object",
    "json": "object",
}
STANDARD_TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object", "null"})


def normalize_schema(
    schema: Any, *, root_path: str = "input", drop_unknown_required: bool = True
) -> tuple[dict[str, Any], list[NormalizationRecord]]:
    """Return a normalized deep copy of ``schema`` and the list of changes made."""
    records: list[NormalizationRecord] = []
    if not isinstance(schema, dict):
        records.append(NormalizationRecord(path=root_path, change="schema was not an object; replaced"))
        return {"type": "object", "properties": {}}, records
    out = copy.deepcopy(schema)
    if "type" not in out:
        out["type"] = "object"
        records.append(NormalizationRecord(path=root_path, change="missing root type set to object"))
    if out.get("type") == "object" and "properties" not in out:
        out["properties"] = {}
    _walk(out, root_path, records, drop_unknown_required)
    return out, records


def _walk(node: dict[str, Any], path: str, records: list[NormalizationRecord], drop_req: bool) -> None:
    _fix_type(node, path, records)
    props = node.get("properties")
    if isinstance(props, dict):
        _fix_properties(node, props, path, records, drop_req)
    _fix_required(node, props, path, records, drop_req)
    _fix_items(node, path, records, drop_req)
    if node.get("type") == "object" and "properties" not in node and path.count(".") == 0:
        node["properties"] = {}


def _fix_properties(
    node: dict[str, Any], props: dict[str, Any], path: str, records: list[NormalizationRecord], drop_req: bool
) -> None:
    """Normalize each property schema; boolean ``required`` flags join the parent's list."""
    promoted: list[str] = []
    for name, sub in props.items():
        if not isinstance(sub, dict):
            props[name] = {"type": "string"}
            records.append(NormalizationRecord(path=f"{path}.{name}", change="non-object schema replaced by string"))
            continue
        flag = sub.get("required")
        if isinstance(flag, bool):
            del sub["required"]
            if flag:
                promoted.append(name)
            records.append(
                NormalizationRecord(path=f"{path}.{name}", change="boolean 'required' moved to parent list")
            )
        _walk(sub, f"{path}.{name}", records, drop_req)
    if promoted:
        listed = list(node.get("required") or [])
        node["required"] = listed + [n for n in promoted if n not in listed]


def _fix_required(
    node: dict[str, Any], props: Any, path: str, records: list[NormalizationRecord], drop_req: bool
) -> None:
    """Remove a non-list ``required``; drop required names that are not properties (when asked)."""
    req = node.get("required")
    if req is not None and not isinstance(req, list):
        del node["required"]
        records.append(NormalizationRecord(path=path, change="non-list 'required' removed"))
    elif isinstance(req, list) and isinstance(props, dict) and drop_req:
        unknown = [r for r in req if r not in props]
        if unknown:
            node["required"] = [r for r in req if r in props]
            records.append(
                NormalizationRecord(path=path, change=f"required names that are not properties dropped: {unknown}")
            )


def _fix_items(node: dict[str, Any], path: str, records: list[NormalizationRecord], drop_req: bool) -> None:
    """Give an array an item schema when it lacks one; normalize the one it has."""
    if node.get("type") != "array":
        return
    items = node.get("items")
    if not isinstance(items, dict):
        node["items"] = {"type": "string"} if items is None else {}
        records.append(NormalizationRecord(path=path, change="array without item schema given string items"))
    else:
        _walk(items, f"{path}[]", records, drop_req)


def _fix_type(node: dict[str, Any], path: str, records: list[NormalizationRecord]) -> None:
    _drop_non_string_text(node, path, records)
    t = node.get("type")
    if isinstance(t, dict):
        inner = t.get("type")
        node["type"] = t = inner if isinstance(inner, str) else "string"
        records.append(NormalizationRecord(path=path, change=f"schema used as 'type' replaced by '{t}'"))
    if isinstance(t, str):
        _fix_type_name(node, t, path, records)
    elif isinstance(t, list):
        _fix_type_list(node, t, path, records)
    elif t is None:
        _infer_missing_type(node, path, records)
    _fix_enum(node, path, records)


def _drop_non_string_text(node: dict[str, Any], path: str, records: list[NormalizationRecord]) -> None:
    for key in ("description", "title"):
        if key in node and not isinstance(node[key], str):
            del node[key]
            records.append(NormalizationRecord(path=path, change=f"non-string '{key}' removed"))


def _fix_type_name(node: dict[str, Any], t: str, path: str, records: list[NormalizationRecord]) -> None:
    low = t.lower()
    if low in STANDARD_TYPES and low != t:
        node["type"] = low
        records.append(NormalizationRecord(path=path, change=f"type '{t}' lowercased"))
    elif low not in STANDARD_TYPES:
        new = TYPE_ALIASES.get(low, "string")
        node["type"] = new
        records.append(NormalizationRecord(path=path, change=f"type '{t}' -> '{new}'"))


def _fix_type_list(node: dict[str, Any], t: list[Any], path: str, records: list[NormalizationRecord]) -> None:
    fixed = [TYPE_ALIASES.get(str(x).lower(), str(x).lower()) for x in t]
    fixed = [x if x in STANDARD_TYPES else "string" for x in fixed]
    if fixed != t:
        node["type"] = fixed
        records.append(NormalizationRecord(path=path, change=f"type {t} -> {fixed}"))


def _infer_missing_type(node: dict[str, Any], path: str, records: list[NormalizationRecord]) -> None:
    if "properties" in node:
        node["type"] = "object"
        records.append(NormalizationRecord(path=path, change="missing type set to object"))
    elif "items" in node:
        node["type"] = "array"
        records.append(NormalizationRecord(path=path, change="missing type set to array"))


def _fix_enum(node: dict[str, Any], path: str, records: list[NormalizationRecord]) -> None:
    enum = node.get("enum")
    if enum is not None and (not isinstance(enum, list) or not enum):
        del node["enum"]
        records.append(NormalizationRecord(path=path, change="invalid enum removed"))
    elif isinstance(enum, list) and node.get("type") in ("number", "integer"):
        if any(isinstance(v, str) for v in enum):
            node["type"] = "string"
            node["enum"] = [str(v) for v in enum]
            records.append(NormalizationRecord(path=path, change="numeric type with string enum -> string"))
