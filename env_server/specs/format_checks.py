"""Audit check ``format``: values whose shape the real API fixes, in that shape.

A field drawn as a format kind of ``simulators/domain_kinds.py`` (by its profile hint, or
by its name: every phone number) must look like the API writes it: an E.164 number, a
Slack ``ts``, a Discord snowflake, an ``at://`` URI. A value the caller sent is exempt (it
is theirs). This holds the line against ids minted elsewhere overwriting the API's own
format, and against phone numbers in a national or extension style.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators.domain_kinds import FORMATS
from env_server.simulators.naming import resolve_kind
from env_server.simulators.plans import singular

Hit = tuple[str, str]


def format_hits(spec: ToolSpec, result: Any, sent: frozenset[str]) -> list[Hit]:
    """Every string leaf of a format kind that does not have that kind's shape."""
    hits: list[Hit] = []
    for path, kind, text in _kinded_strings(spec.output_schema, result, spec.profile.entity, spec.profile.hints):
        shape = FORMATS.get(kind)
        if shape is not None and text not in sent and not shape.match(text):
            hits.append((path, f"{kind} value {text!r} is not in the API's format ({shape.pattern})"))
    return hits


def _kinded_strings(schema: Any, value: Any, entity: str, hints: Any, name: str = "", parent: str = "",
                    path: str = "$") -> Iterator[tuple[str, str, str]]:
    """``(path, kind, text)`` for each string leaf, its kind resolved as the generator does."""
    if not isinstance(schema, dict):
        return
    if isinstance(value, dict):
        props = schema.get("properties") or {}
        for key, sub in value.items():
            yield from _kinded_strings(props.get(key), sub, entity, hints, key, name, f"{path}.{key}")
    elif isinstance(value, list):
        items = schema.get("items")
        item_name = name if isinstance(items, dict) and items.get("type") != "object" and name in hints else singular(name)
        for i, sub in enumerate(value):
            yield from _kinded_strings(items, sub, entity, hints, item_name, name, f"{path}[{i}]")
    elif isinstance(value, str) and name and "enum" not in schema:
        kind = resolve_kind(name, entity, parent, hints)
        if kind is not None:
            yield path, kind, value
