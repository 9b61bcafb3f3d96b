"""Rows that belong together: what a read is keyed by, what a child inherits from its parent,
and the ids an answer mentions that other tools of the family open.

* ``read_key``: a read keyed by more than its id (a player's averages *for a season*, the
  prize *in a category* of a year) keeps one row per key: different seasons, different
  numbers; the same season, the same numbers.
* ``alias_id``: a reader that takes an id or a slug (RAWG's ``/games/{id|slug}``) opens the
  row a search found by either.
* ``inherit_parent``: rows listed under a parent (``pipeline_id``) show the parent's own
  fields (its ``number`` as their ``pipeline_number``, its ``project_slug``), and any row
  shows the values of the query that found it (a pipeline listed for a project names it).
* ``register_nested``: records nested in an answer that are entities of the family (the
  laureates of a prize) are kept, so their reader opens them by the ids shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from env_server.catalog.models import Operation, ToolSpec
from env_server.simulators.echoes import fits_schema
from env_server.simulators.naming import snake
from env_server.simulators.plans import singular
from env_server.simulators.rows import CONTROL_PARAMS, QUERY_KEY, STATE_KEY, StateHandle, properties_of, scalars
from env_server.simulators.tracker_facts import relink
from state.world import RowState, World

# Row fields a reader may be asked by instead of the id.
ALIAS_FIELDS = ("slug", "handle", "username", "login")


def read_key(spec: ToolSpec, args: Mapping[str, Any], eid: str) -> str:
    """The row a read answers from: its id, qualified by the other required arguments the
    answer shows (``season`` of a player's season averages)."""
    props = properties_of(spec.output_schema)
    required = spec.input_schema.get("required") or []
    parts = [f"{k}={args[k]}" for k in sorted(required) if k != spec.profile.id_param and k in props
             and k not in CONTROL_PARAMS and isinstance(args.get(k), (str, int, float)) and not isinstance(args[k], bool)]
    return eid if not parts else eid + "|" + "&".join(parts)


def alias_id(world: World, spec: ToolSpec, eid: str) -> str:
    """``eid``, or the id of the row whose slug (handle, login …) it is."""
    ns, entity = spec.family, spec.profile.entity
    if world.get(ns, entity, eid) is not None:
        return eid
    for key, row in world.rows_of(ns, entity):
        if any(row.data.get(name) == eid for name in ALIAS_FIELDS):
            return key
    return eid


def inherit_parent(rows: list[Any], spec: ToolSpec, args: Mapping[str, Any], handle: StateHandle,
                   item_schema: Mapping[str, Any]) -> None:
    """Rows listed under a parent id show the parent's values (in place)."""
    props = properties_of(dict(item_schema))
    for key, value in args.items():
        parent = _parent_entity(key)
        if parent is None or not isinstance(value, (str, int)) or parent == spec.profile.entity:
            continue
        row = handle.world.get(spec.family, parent, str(value))
        if row is None:
            continue
        inherited = _inherited_values(parent, row.data, props, snake(spec.profile.id_field or ""))
        for item in rows:
            if isinstance(item, dict):
                item.update(inherited)


def _inherited_values(parent: str, data: Mapping[str, Any], props: Mapping[str, Any],
                      own_id: str = "") -> dict[str, Any]:
    """A child's fields that repeat the parent's: ``<parent>_<field>`` is the parent's
    ``<field>``; a field the parent was found by (its project) is the parent's too. The child's
    own id field (an author's work's ``key``) is its own, never the parent's."""
    own = {k: v for k, v in data.items() if not k.startswith("_") and not isinstance(v, (dict, list))}
    context = {**(data.get(QUERY_KEY) or {}), **own}
    values: dict[str, Any] = {}
    for field, schema in props.items():
        name = snake(field)
        if name.startswith(parent + "_") and name[len(parent) + 1:] in own:
            value = own[name[len(parent) + 1:]]
        elif name in context and name not in ("id", own_id, "created_at", "updated_at", "name", "status", "state"):
            value = context[name]
        else:
            continue
        if isinstance(schema, dict) and fits_schema(value, schema):
            values[field] = value
    return values


def _parent_entity(arg: str) -> str | None:
    name = snake(arg)
    return name[:-3] if name.endswith("_id") and len(name) > 3 else None


def register_nested(spec: ToolSpec, out: Any, handle: StateHandle) -> None:
    """Entities nested in an answer (``laureates`` of a prize) become rows of the world, so
    the family's reader of that entity opens them by the ids shown."""
    if not isinstance(out, dict):
        return
    rows = out.get(spec.profile.collection or "")
    records = [out, *(r for r in rows if isinstance(r, dict))] if isinstance(rows, list) else [out]
    for record in records:
        for key, value in record.items():
            entity = singular(snake(key))
            if isinstance(value, list) and entity != spec.profile.entity and Operation.READ in handle.rules.ops.get(
                    (spec.family, entity), set()):
                _keep_rows(spec.family, entity, value, handle)


def _keep_rows(ns: str, entity: str, items: list[Any], handle: StateHandle) -> None:
    reader = handle.rules.id_schemas.get((ns, entity))
    for item in items:
        if not isinstance(item, dict):
            continue
        eid = item.get("id", item.get(f"{entity}_id"))
        if not isinstance(eid, (str, int)) or isinstance(eid, bool) or reader is not None and not fits_schema(eid, reader):
            continue
        found = handle.world.get(ns, entity, str(eid))
        if found is None or STATE_KEY not in found.data and not found.data:
            handle.world.put(ns, entity, str(eid), scalars(item))


def adopt_rows(world: World, spec: ToolSpec, rows: list[tuple[str, RowState]],
               scope: Mapping[str, Any]) -> list[tuple[str, RowState]]:
    """Rows a scoped list finds (a project's pipelines) that name no scope yet become that
    scope's: a reader shows their project, and another project's list does not find them."""
    if not scope:
        return rows
    adopted = []
    for eid, row in rows:
        missing = {k: v for k, v in scope.items() if k not in row.data}
        if missing:
            data = {**row.data, **missing}
            relink(data, spec.profile.id_field or "id", scope)  # an issue's page is in its repository
            row = world.put(spec.family, spec.profile.entity, eid, data)
        adopted.append((eid, row))
    return adopted
