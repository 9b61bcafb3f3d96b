"""Audit checks for imported tools (WildToolBench, ToolAlpaca, OpenAI lists): their output
schemas are inferred, so the audit watches what inference tends to get wrong.

* **generic share**: the share of an answer's leaves the engine filled with no kind of
  their own (a string drawn as a generic tag, an unbounded number drawn at random). A
  tool whose answer is mostly such filler matched no template and no field names.
* **unsent echo**: a field that only repeats an argument (``x-echo``) present although the
  call did not send that argument: the answer made up a filter.
* **borrowed id**: the record's own id repeats another entity's id argument
  (``syncTransactions(user_id)`` answering ``transaction_id`` = the user id).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from env_server.catalog.infer import ECHO_KEY, is_id_param
from env_server.catalog.models import ToolSpec
from env_server.simulators import invariants
from env_server.simulators.naming import resolve_kind, snake
from env_server.simulators.plans import singular

Hit = tuple[str, str]  # (path, detail), as in audit_checks

# Above this share of generic leaves (and at least MIN_GENERIC of them) an answer is filler.
MAX_GENERIC_SHARE = 0.3
MIN_GENERIC = 2
_GENERIC_KINDS = frozenset({None, "tag", "word"})
_TAG_NAMES = frozenset({"tag", "tags", "label", "labels", "keyword", "keywords", "topic", "topics", "hashtag",
                        "hashtags", "interest", "interests", "skill", "skills"})


def imported_hits(spec: ToolSpec, args: dict[str, Any], result: Any) -> list[Hit]:
    """Every imported-tool finding of one answer (none for native specs)."""
    if not spec.profile.inferred:
        return []
    record = _first_record(spec, result)
    if record is None:
        return []
    hits = list(_unsent_echoes(spec, args, record))
    hits += _borrowed_ids(spec, args, record)
    generic, counted = generic_leaves(spec, args, record)
    if len(generic) >= MIN_GENERIC and len(generic) > MAX_GENERIC_SHARE * counted:
        hits.append(("$", f"{len(generic)} of {counted} fields are generic filler: {', '.join(generic[:6])}"))
    return hits


def _first_record(spec: ToolSpec, result: Any) -> dict[str, Any] | None:
    coll = spec.profile.collection
    if coll and isinstance(result, dict) and isinstance(result.get(coll), list):
        rows = [r for r in result[coll] if isinstance(r, dict)]
        return rows[0] if rows else None
    return result if isinstance(result, dict) else None


def _record_schema(spec: ToolSpec) -> dict[str, Any]:
    schema = spec.output_schema
    coll = spec.profile.collection
    items = ((schema.get("properties") or {}).get(coll) or {}).get("items") if coll else None
    return items if isinstance(items, dict) else schema


def _unsent_echoes(spec: ToolSpec, args: dict[str, Any], record: dict[str, Any]) -> Iterator[Hit]:
    for key, sub in (_record_schema(spec).get("properties") or {}).items():
        if isinstance(sub, dict) and sub.get(ECHO_KEY) is True and key in record and key not in args:
            yield f"$.{key}", f"'{key}' repeats an argument the call did not send ({record[key]!r})"


def _borrowed_ids(spec: ToolSpec, args: dict[str, Any], record: dict[str, Any]) -> Iterator[Hit]:
    own = spec.profile.id_field
    if not own or own not in record or spec.profile.id_param:
        return
    for name, value in args.items():
        if is_id_param(name) and snake(name) != snake(own) and record[own] == value:
            yield f"$.{own}", f"the record's id repeats argument '{name}', another entity's id"


def generic_leaves(spec: ToolSpec, args: dict[str, Any], record: dict[str, Any]) -> tuple[list[str], int]:
    """``(paths of generic leaves, leaves counted)`` of one record; echoed arguments, ids,
    enums and formatted strings are not counted."""
    profile = spec.profile
    generic: list[str] = []
    counted = 0
    sent = {snake(k) for k in args}

    def walk(schema: Any, value: Any, name: str, parent: str, path: str) -> None:
        nonlocal counted
        if not isinstance(schema, dict):
            return
        typ = schema.get("type")
        if typ == "object" and isinstance(value, dict):
            props = schema.get("properties") or {}
            derived = {t for rule in invariants.rules_for(props) if isinstance(rule, invariants.Derived)
                       for t in rule.target}
            for key, sub in props.items():
                if key in value and key not in derived:  # a derived field follows its sources
                    walk(sub, value[key], key, name, f"{path}.{key}")
            return
        if typ == "array" and isinstance(value, list):
            items = schema.get("items") or {}
            item = name if name in profile.hints and singular(name) not in profile.hints else singular(name)
            if value:
                walk(items, value[0], item if items.get("type") != "object" else name, name, f"{path}[0]")
            return
        if snake(name) in sent or "enum" in schema or "const" in schema or schema.get("format") or typ == "boolean":
            return
        kind = resolve_kind(name, profile.entity, parent, profile.hints)
        if kind in ("id", "uuid"):
            return
        counted += 1
        if typ == "string" and kind in _GENERIC_KINDS and snake(name) not in _TAG_NAMES and snake(parent) not in _TAG_NAMES:
            generic.append(path)
        elif typ in ("integer", "number") and kind is None and "minimum" not in schema and "maximum" not in schema:
            generic.append(path)

    walk(_record_schema(spec), record, "", "", "$")
    return generic, counted
