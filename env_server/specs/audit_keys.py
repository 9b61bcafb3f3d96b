"""Audit: ids chain by type, and a read answers for the key it was asked.

* ``emitted_id_hits``: the ids a search or list emits are of a type its family's reader
  takes (RAWG's searches emit integer ids; a reader typed ``string`` refuses them as an
  agent passes them).
* ``keyed_read_hits``: a read keyed by more than its id answers for that key: a player's
  averages asked for the 2025 season say 2025, the chemistry prize says chemistry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from env_server.catalog.models import Operation, ToolSpec
from env_server.simulators.answers import normal
from env_server.simulators.echoes import fits_schema
from env_server.simulators.naming import snake
from env_server.simulators.rows import CONTROL_PARAMS, properties_of
from env_server.specs.audit_checks import Hit


def _types(schema: Any) -> set[str]:
    typ = schema.get("type") if isinstance(schema, dict) else None
    return set(typ) if isinstance(typ, list) else {typ} if isinstance(typ, str) else set()


def emitted_id_hits(path: str, eid: Any, reader: ToolSpec) -> list[Hit]:
    """An id as a search emitted it, of a JSON type its reader's id parameter does not take
    (an agent passes the integer it was shown)."""
    id_param = snake(reader.profile.id_param or "")
    field = snake(path.rsplit(".", 1)[-1])
    if id_param != field and not ("id" in id_param.split("_") and field == "id"):
        return []  # the reader is asked by another key (a name, a symbol): not this id
    taken = _types(properties_of(reader.input_schema).get(reader.profile.id_param or ""))
    emitted = "boolean" if isinstance(eid, bool) else "integer" if isinstance(eid, int) else (
        "number" if isinstance(eid, float) else "string" if isinstance(eid, str) else None)
    if emitted is None or not taken or emitted in taken or emitted == "integer" and "number" in taken:
        return []
    return [(path, f"the row's id {eid!r} is a {emitted}, but {reader.name} takes "
                   f"{reader.profile.id_param} as {'/'.join(sorted(taken))}")]


def keyed_read_hits(spec: ToolSpec, args: Mapping[str, Any], result: Any) -> list[Hit]:
    """A read's required key arguments that its answer shows differently."""
    if spec.profile.operation is not Operation.READ or not isinstance(result, dict):
        return []
    hits: list[Hit] = []
    for key in spec.input_schema.get("required") or []:
        want = args.get(key)
        if key == spec.profile.id_param or key in CONTROL_PARAMS or key not in result:
            continue
        have, schema = result[key], properties_of(spec.output_schema).get(key)
        if not isinstance(schema, dict) or not fits_schema(want, schema):
            continue  # a value the field cannot hold (a genre outside its enum): not judged here
        if isinstance(want, (str, int)) and isinstance(have, (str, int)) and not isinstance(want, bool) and (
                normal(want) != normal(have)):
            hits.append((f"$.{key}", f"{key}={have!r} answers a call for {key}={want!r}"))
    return hits
