"""A record's reference to another entity keeps that entity's id: one make, one ``Make_ID``.

A row names a related entity by id and name (``Make_ID``/``Make_Name``, ``brewery_id``/
``brewery_name``, ``artist_id``/``artist_name``). Drawn field by field, three Honda models
named three Honda make ids. Here the id follows the name: the same name gives the same id in
every row and every call (a stable hash, in the id field's own type and shape). The record's
own id (its entity's) and ids the call sent are left alone, and so is a record without an id
of its own (whose ``track_id`` may be its own).

``foreign_id_step(entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_PREFIXED = re.compile(r"^([A-Za-z]+_)[0-9a-f]+$")


def foreign_id_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes each related entity's id follow its name, or None."""
    own = set(snake(entity).split("_"))
    keys = {snake(k): k for k in props}
    if "id" not in keys and f"{snake(entity)}_id" not in keys:
        return None  # without an id of its own, a record's ``track_id`` may be its own (a song's)
    pairs = []
    for low, key in keys.items():
        stem = low[:-3] if low.endswith("_id") else None
        if not stem or set(stem.split("_")) <= own or f"{stem}_name" not in keys:
            continue
        schema = props[key]
        if isinstance(schema, dict) and schema.get("type") in ("integer", "string") and "enum" not in schema:
            pairs.append((key, keys[f"{stem}_name"], schema))
    if not pairs:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        sent = gen.snaked_args
        for id_key, name_key, schema in pairs:
            name = record.get(name_key)
            if isinstance(name, str) and name and id_key in record and snake(id_key) not in sent:
                record[id_key] = id_for(name, record[id_key], schema)

    return step


def id_for(name: str, drawn: Any, schema: Mapping[str, Any]) -> Any:
    """The id ``name`` always has, in the shape of ``drawn`` (an integer within the schema's
    bounds, a prefixed hex id, or digits)."""
    crc = zlib.crc32(name.strip().lower().encode("utf-8"))
    if schema.get("type") == "integer":
        lo = int(schema.get("minimum", 1))
        hi = int(schema.get("maximum", max(lo + 1, 999_999)))
        return lo + crc % (hi - lo + 1)
    if isinstance(drawn, str):
        prefixed = _PREFIXED.match(drawn)
        if prefixed:
            return f"{prefixed.group(1)}{crc:08x}{crc % 256:02x}"[: len(drawn)]
        if drawn.isdigit():
            return str(crc % (10 ** len(drawn))).zfill(len(drawn))
    return drawn
