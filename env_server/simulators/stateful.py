"""The entity-aware simulator: tools read and write one consistent world per session.

Given a spec's profile (operation, entity, id parameter, filters, collection) and the
session's ``World``:

* search/list: a new query generates rows deterministically and remembers their ids, so the
  same query returns the same ids and every id resolves in the family's detail tools. For
  entities the family itself creates (bookings, orders, playlists), a list returns the
  session's own rows instead.
* read by id: the stored row; an unknown id is a 404-like tool error, or, under the
  ``accept`` policy (natural keys such as a city), a new row that later reads repeat.
* create: a fresh deterministic id and a stored row. update: changed fields stay changed.
* delete/cancel: cancelled rows read back as cancelled; deleted rows read as 404; doing it
  twice is an error.

Values a row does not hold are generated from a seed of (session seed, namespace, entity,
id), so re-reading a row never changes it and nothing is written on a read.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator

from env_server.catalog.infer import is_id_param
from env_server.catalog.models import Operation, ToolSpec, UnknownIdPolicy
from env_server.errors import EntityNotFoundError, ToolCallError
from env_server.simulators import invariants
from env_server.simulators.base import SimContext, session_now
from env_server.simulators.generate import Generation, call_seed, fits_schema
from env_server.simulators.ids import conform_id
from env_server.simulators.naming import snake
from env_server.simulators.generic import reports_current, simulate_generic
from state.world import RowState, World, canonical

CONTROL_PARAMS = frozenset(
    {"format", "page", "limit", "offset", "sort", "sort_by", "order_by", "sortby", "lang", "language",
     "per_page", "page_size", "count", "max_results", "fields", "api_key", "apikey", "cursor", "size"}
)
_CANCEL_WORDS = ("cancel", "void", "revoke", "decline", "close", "archive", "reject", "refund")
_STATUS_CREATED = ("confirmed", "active", "created", "pending", "open", "scheduled", "success", "booked", "placed")
_STATE_KEY = "_state"
_QUERY_KEY = "_query"  # the search arguments a remembered row answered


@dataclass
class CatalogRules:
    """Which entities each family searches, creates and looks up, derived from profiles."""

    ops: dict[tuple[str, str], set[Operation]] = field(default_factory=dict)
    # (family, entity) -> the input schema of the id parameter its readers take: ids a search
    # emits are made to fit it, so every reader accepts them.
    id_schemas: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def from_specs(cls, specs: list[ToolSpec]) -> CatalogRules:
        rules = cls()
        for spec in specs:
            key = (spec.family, spec.profile.entity)
            rules.ops.setdefault(key, set()).add(spec.profile.operation)
            id_param = spec.profile.id_param
            param = (spec.input_schema.get("properties") or {}).get(id_param or "")
            if spec.profile.operation is Operation.READ and isinstance(param, dict):
                rules.id_schemas.setdefault(key, param)
        return rules

    def owned(self, family: str, entity: str) -> bool:
        return Operation.CREATE in self.ops.get((family, entity), set())

    def known(self, family: str, entity: str) -> bool:
        return (family, entity) in self.ops

    def unknown_id_policy(self, spec: ToolSpec) -> UnknownIdPolicy:
        p = spec.profile
        if p.unknown_ids is not None:
            return p.unknown_ids
        producers = self.ops.get((spec.family, p.entity), set()) & {Operation.SEARCH, Operation.LIST, Operation.CREATE}
        if p.id_param and is_id_param(p.id_param) and producers:
            return UnknownIdPolicy.ERROR
        return UnknownIdPolicy.ACCEPT


@dataclass
class StateHandle:
    world: World
    rules: CatalogRules
    # Whether user-owned collections start with a few rows (``base_world: seeded``).
    seeded: bool = True


def simulate_stateful(spec: ToolSpec, args: dict[str, Any], ctx: SimContext) -> dict[str, Any]:
    handle = ctx.state
    if not isinstance(handle, StateHandle):
        return simulate_generic(spec, args, ctx)
    world = handle.world
    pinned = world.pinned.get((spec.name, canonical(args))) if world.pinned else None
    if pinned is not None:
        _materialize(spec, world, pinned)
        return pinned
    op = spec.profile.operation
    if op in (Operation.SEARCH, Operation.LIST):
        return _search(spec, args, ctx, handle)
    if op is Operation.CREATE:
        return _create(spec, args, ctx, handle)
    if op in (Operation.READ, Operation.UPDATE, Operation.DELETE) and spec.profile.id_param in args:
        return _by_id(spec, args, ctx, handle)
    return simulate_generic(spec, args, ctx)


# -- helpers ------------------------------------------------------------------------------


def _props(schema: dict[str, Any]) -> dict[str, Any]:
    props = schema.get("properties")
    return props if isinstance(props, dict) else {}


def _id_field(schema: dict[str, Any], spec: ToolSpec) -> str:
    props = _props(schema)
    p = spec.profile
    for cand in (p.id_field, p.id_param, f"{p.entity}_id", "id"):
        if cand and cand in props:
            return cand
    for name in props:
        if is_id_param(name):
            return name
    return p.id_field or "id"


def _row_seed(ctx: SimContext, ns: str, entity: str, eid: str) -> int:
    return call_seed(f"{ns}/{entity}", {"id": eid}, ctx.seed)


def _project(spec: ToolSpec, schema: dict[str, Any], row: RowState, eid: str, ctx: SimContext, args: dict[str, Any]) -> Any:
    """Render a stored row through a schema: row values where they fit, stable fillers elsewhere."""
    # The row's own values (and the query that found it) are the context its missing fields
    # are drawn in: a show in Las Vegas gets a Las Vegas address, its URL follows its title.
    known = {k: v for k, v in row.data.items() if not k.startswith("_") and not isinstance(v, (dict, list))}
    context = {**(row.data.get(_QUERY_KEY) or {}), **known, **args}
    gen = Generation(seed=_row_seed(ctx, spec.family, spec.profile.entity, eid), today=ctx.today, args=context,
                     entity=spec.profile.entity, hints=spec.profile.hints, session_seed=ctx.seed, now=ctx.now,
                     current=reports_current(spec))
    base = gen.fill(schema)
    if not isinstance(base, dict):
        return base
    return _overlay(base, schema, row.data)


def _overlay(base: dict[str, Any], schema: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    props = _props(schema)
    out = dict(base)
    for key, sub in props.items():
        if key in data and _fits(data[key], sub):
            out[key] = data[key]
        elif isinstance(sub, dict) and sub.get("type") == "object" and isinstance(out.get(key), dict):
            # One nested level: detail APIs often wrap the entity ({"show": {...}}).
            if any(k in data for k in _props(sub)):
                out[key] = _overlay(out[key], sub, data)
    return out


_CONTAINER_VALIDATORS: dict[int, tuple[dict[str, Any], Draft202012Validator]] = {}


def _fits(value: Any, schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    if not isinstance(value, (list, dict)):
        return fits_schema(value, schema)
    # Catalog schemas live as long as the process, so validators are cached by identity.
    hit = _CONTAINER_VALIDATORS.get(id(schema))
    if hit is None or hit[0] is not schema:
        hit = (schema, Draft202012Validator(schema))
        _CONTAINER_VALIDATORS[id(schema)] = hit
    return hit[1].is_valid(value)


def _scalars(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if not isinstance(v, (dict, list)) or k in ("tags", "items")}


def _matches(row: RowState, args: dict[str, Any], filters: list[str]) -> bool:
    for key in filters:
        if key not in args or key not in row.data:
            continue
        want, have = args[key], row.data[key]
        if isinstance(want, str) and isinstance(have, str):
            if want.strip().lower() != have.strip().lower():
                return False
        elif want != have:
            return False
    return True


# -- operations ---------------------------------------------------------------------------


def _search(spec: ToolSpec, args: dict[str, Any], ctx: SimContext, handle: StateHandle) -> dict[str, Any]:
    world, p, ns = handle.world, spec.profile, spec.family
    out = simulate_generic(spec, args, ctx)
    coll = p.collection
    coll_schema = _props(spec.output_schema).get(coll or "")
    if not coll or not isinstance(coll_schema, dict) or not isinstance(out.get(coll), list):
        return out
    item_schema = coll_schema.get("items") if isinstance(coll_schema.get("items"), dict) else {}
    if _props(item_schema) == {}:
        if is_id_list(coll):
            _remember_id_list(spec, args, out, coll, handle)
        return out
    idf = _id_field(item_schema, spec)
    # A filter named like the rows' own id field names their parent (an account's statuses).
    filters = [k for k in (p.filter_params or [k for k in args if k not in CONTROL_PARAMS]) if k != idf]
    if handle.rules.owned(ns, p.entity):
        if handle.seeded:
            _seed_base_rows(spec, item_schema, idf, ctx, handle, {})
        rows = [(eid, r) for eid, r in world.rows_of(ns, p.entity)
                if r.data.get(_STATE_KEY) != "deleted" and _matches(r, args, filters)]
        wanted = {k: args[k] for k in filters if k in args}
        if not rows and handle.seeded and wanted:
            # The base world also held rows this filter finds (a past order with this status).
            _seed_base_rows(spec, item_schema, idf, ctx, handle, wanted)
            rows = [(eid, r) for eid, r in world.rows_of(ns, p.entity)
                    if r.data.get(_STATE_KEY) != "deleted" and _matches(r, args, filters)]
        limit = next((v for k in ("limit", "max_results", "per_page", "page_size", "count", "size")
                      if isinstance(v := args.get(k), int) and not isinstance(v, bool) and v > 0), None)
        rows = rows[:limit] if limit else rows
        out[coll] = [_project(spec, item_schema, r, eid, ctx, {}) for eid, r in rows]
        _fix_totals(out, spec.output_schema, len(out[coll]))
        return out
    query = {k: args[k] for k in sorted(args) if k not in CONTROL_PARAMS}
    query_key = canonical(query)
    ids = world.queries.get((ns, p.entity, query_key))
    if ids is None:
        ids = []
        kept = []
        for item in out[coll]:
            if not isinstance(item, dict):
                continue
            if item.get(idf) is not None and str(item[idf]) in ids:
                continue  # an id drawn twice (from a short enum): one row, as a repeat would show
            eid = item.get(idf)
            if eid is None or isinstance(eid, bool):
                if idf in _props(item_schema):
                    eid = world.next_id(ns, p.entity, _prefix(p.entity))
                    item[idf] = eid if _props(item_schema)[idf].get("type") != "integer" else _int_id(eid)
                else:
                    # Items without an id field are still remembered, under a content-derived key.
                    eid = "h_" + call_seed(p.entity, item, 0).to_bytes(8, "big").hex()[:12]
            reader_schema = handle.rules.id_schemas.get((ns, p.entity))
            if reader_schema is not None and not fits_schema(eid, reader_schema) and idf in _props(item_schema):
                eid = conform_id(eid, reader_schema, _props(item_schema)[idf], item, idf)
            key = str(eid)
            if world.get(ns, p.entity, key) is None:
                # Whole (a repeat must answer the same), with the query it answered (a booking
                # of this row inherits its route and dates).
                world.put(ns, p.entity, key, {**item, _QUERY_KEY: query})
            ids.append(key)
            kept.append(item)
        out[coll] = kept
        world.remember_query(ns, p.entity, query_key, ids)
        return out
    items = []
    for eid in ids:
        row = world.get(ns, p.entity, eid)
        if row is not None and row.data.get(_STATE_KEY) != "deleted":
            items.append(_project(spec, item_schema, row, eid, ctx, args))
    out[coll] = items
    return out


BASE_ROWS = (3, 5)  # how many rows a seeded user-owned collection starts with
_BASE_QUERY = "(base world)"


def _seed_base_rows(spec: ToolSpec, item_schema: dict[str, Any], idf: str, ctx: SimContext,
                    handle: StateHandle, wanted: dict[str, Any]) -> None:
    """The first look at a user-owned collection finds a few rows that were there before
    the session began (and a filtered look, a few that match the filter): with ids of their
    own, the same for the same seed."""
    world, p, ns = handle.world, spec.profile, spec.family
    query = _BASE_QUERY + (" " + canonical(wanted) if wanted else "")
    if (ns, p.entity, query) in world.queries:
        return
    seed = _row_seed(ctx, ns, p.entity, query)
    gen = Generation(seed=seed, today=ctx.today, args=wanted, entity=p.entity, hints=p.hints, session_seed=ctx.seed,
                     now=session_now(ctx.today, 0))
    count = gen.rng.randint(*BASE_ROWS) if not wanted else gen.rng.randint(1, 2)
    id_schema = _props(item_schema).get(idf, {"type": "string"})
    ids = []
    for i in range(count):
        item = gen.fill(item_schema, index=i)
        if not isinstance(item, dict):
            continue
        eid = f"{_prefix(p.entity)}_{call_seed(ns, {'base': query, 'i': i, 'entity': p.entity}, ctx.seed):016x}"[
            : len(_prefix(p.entity)) + 11]
        item.update(wanted)  # rows found by a filter hold the filtered values
        item[idf] = _int_id(eid) if isinstance(id_schema, dict) and id_schema.get("type") == "integer" else eid
        reader = handle.rules.id_schemas.get((ns, p.entity))
        if reader is not None and not fits_schema(item[idf], reader):  # readers must accept it
            conform_id(item[idf], reader, id_schema if isinstance(id_schema, dict) else {}, item, idf)
        item.pop(_STATE_KEY, None)
        world.put(ns, p.entity, str(item[idf]), dict(item))
        ids.append(str(item[idf]))
    world.remember_query(ns, p.entity, query, ids)


def is_id_list(name: str) -> bool:
    """A collection of bare ids (``objectIDs``, ``ids``, ``story_ids``)."""
    return snake(name).endswith("ids")


def _remember_id_list(spec: ToolSpec, args: dict[str, Any], out: dict[str, Any], coll: str,
                      handle: StateHandle) -> None:
    """A search that answers with bare ids: each becomes a row its readers can open, and a
    repeat of the search answers with the same ids."""
    world, p, ns = handle.world, spec.profile, spec.family
    query_key = canonical({k: args[k] for k in sorted(args) if k not in CONTROL_PARAMS})
    known = world.queries.get((ns, p.entity, query_key))
    if known is not None:
        id_type = int if all(isinstance(v, int) for v in out[coll]) else str
        out[coll] = [id_type(v) if id_type is str or v.isdigit() else v for v in known]
        return
    reader = handle.rules.id_schemas.get((ns, p.entity))
    ids: list[str] = []
    values = []
    for value in dict.fromkeys(v for v in out[coll] if isinstance(v, (str, int)) and not isinstance(v, bool)):
        if reader is not None and not fits_schema(value, reader):
            holder = {"id": value}
            value = conform_id(value, reader, {"type": reader.get("type")}, holder, "id")
        if world.get(ns, p.entity, str(value)) is None:
            world.put(ns, p.entity, str(value), {})
        ids.append(str(value))
        values.append(value)
    out[coll] = values
    world.remember_query(ns, p.entity, query_key, ids)


def _fix_totals(out: dict[str, Any], schema: dict[str, Any], n: int) -> None:
    for key in ("total", "count", "total_count", "total_results", "totalResults", "totalCount", "found"):
        if key in out and isinstance(_props(schema).get(key), dict) and _props(schema)[key].get("type") == "integer":
            out[key] = n


def _int_id(eid: str) -> int:
    return int(eid.rsplit("_", 1)[1][:7], 16)


def _prefix(entity: str) -> str:
    return re.sub(r"[^a-z0-9]", "", entity.lower())[:4] or "item"


def _create(spec: ToolSpec, args: dict[str, Any], ctx: SimContext, handle: StateHandle) -> dict[str, Any]:
    world, p, ns = handle.world, spec.profile, spec.family
    referenced: list[RowState] = []
    for key, value in args.items():
        ref = _referenced_entity(key)
        if ref and isinstance(value, (str, int)) and ref != p.entity and handle.rules.known(ns, ref):
            producers = handle.rules.ops.get((ns, ref), set()) & {Operation.SEARCH, Operation.LIST, Operation.CREATE}
            row = world.get(ns, ref, str(value))
            if producers and row is None:
                raise EntityNotFoundError(f"No {ref} with id '{value}' exists (404). Use an id returned by a previous call.")
            if row is not None and row.data.get(_STATE_KEY):
                raise ToolCallError(f"{ref} '{value}' is {row.data[_STATE_KEY]} and cannot be used.")
            if row is not None:
                referenced.append(row)
    # A booking is made in the context of what it books: the offer's search (its route, its
    # dates) is the booking's too.
    context = {k: v for row in referenced for k, v in (row.data.get(_QUERY_KEY) or {}).items()}
    out = simulate_generic(spec, {**context, **args}, ctx) if context else simulate_generic(spec, args, ctx)
    _inherit(out, spec.output_schema, referenced, args)
    idf = _id_field(spec.output_schema, spec)
    id_schema = _props(spec.output_schema).get(idf, {"type": "string"})
    chosen = args.get(idf)
    if isinstance(chosen, (str, int)) and not isinstance(chosen, bool) and _fits(chosen, id_schema):
        # The caller names the entity (an alias, a custom slug): keep it, unless it is taken.
        existing = world.get(ns, p.entity, str(chosen))
        if existing is not None and existing.data.get(_STATE_KEY) != "deleted":
            raise ToolCallError(f"{p.entity.replace('_', ' ')} '{chosen}' already exists (409).")
        out[idf] = chosen
    else:
        eid = world.next_id(ns, p.entity, _prefix(p.entity))
        out[idf] = _int_id(eid) if isinstance(id_schema, dict) and id_schema.get("type") == "integer" else eid
        reader = handle.rules.id_schemas.get((ns, p.entity))
        if reader is not None and not fits_schema(out[idf], reader):  # the reader must accept it
            conform_id(out[idf], reader, id_schema if isinstance(id_schema, dict) else {}, out, idf)
    _set_status(out, spec.output_schema, _STATUS_CREATED)
    _stamp(out, spec.output_schema, ctx)
    invariants.enforce(out, args)  # a stamped start may now follow its generated end
    data = {**{k: v for k, v in args.items() if k not in CONTROL_PARAMS}, **out}  # reads show what was made
    world.put(ns, p.entity, str(out[idf]), data)
    return out


_NOT_INHERITED = frozenset({"status", "created_at", "updated_at", "id"})


def _inherit(out: dict[str, Any], schema: dict[str, Any], referenced: list[RowState], args: dict[str, Any]) -> None:
    """A booking of a show carries the show's title, venue, currency …, and a total that adds up."""
    props = _props(schema)
    by_snake = {snake(k): k for k in props}
    for row in referenced:
        for name, value in row.data.items():
            key = name if name in props else by_snake.get(snake(name), "")  # carrierCode -> carrier_code
            if key and key not in args and key not in _NOT_INHERITED and _fits(value, props[key]):
                out[key] = value
        qty, price = args.get("quantity"), row.data.get("price")
        if isinstance(qty, int) and isinstance(price, (int, float)) and not isinstance(price, bool):
            for key in ("total_price", "total", "amount", "total_amount"):
                if key in props and _fits(round(qty * price, 2), props[key]):
                    out[key] = round(qty * price, 2)
                    break


# Fields that record when a write happened: stamped with the session's "now".
_STAMPED = re.compile(r"^(created|creation|date_created|submitted|sent|booked|ordered|placed|added|uploaded|posted|"
                      r"published|updated|modified|last_modified|timestamp)(_at|_on|_date_?time|_time|_date)?$")


_UPDATE_STAMPED = re.compile(r"^(updated|modified|last_modified|edited)(_at|_on|_date_?time|_time|_date)?$")
_DELETE_STAMPED = re.compile(r"^(cancel+ed|deleted|removed|archived|closed|revoked|refunded|voided)"
                             r"(_at|_on|_date_?time|_time|_date)?$")


def _stamp(out: dict[str, Any], schema: dict[str, Any], ctx: SimContext, fields: re.Pattern[str] = _STAMPED) -> None:
    """A write happens at the session's "now"."""
    now = session_now(ctx.today, 0) if ctx.now is None else ctx.now
    for key, sub in _props(schema).items():
        if not fields.match(snake(key)) or not isinstance(sub, dict) or "enum" in sub:
            continue
        typ, fmt = sub.get("type"), sub.get("format")
        if typ == "integer":
            value: Any = int(now.replace(tzinfo=dt.timezone.utc).timestamp())
        elif typ == "string" and fmt == "date":
            value = now.date().isoformat()
        elif typ == "string":
            value = now.strftime("%Y-%m-%dT%H:%M:%SZ")
        else:
            continue
        if fits_schema(value, sub):
            out[key] = value


def _referenced_entity(param: str) -> str | None:
    low = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", param).lower()
    if low.endswith("_id") and len(low) > 3:
        return low[:-3]
    return None


def _set_status(out: dict[str, Any], schema: dict[str, Any], preferred: tuple[str, ...]) -> None:
    status = _props(schema).get("status")
    if not isinstance(status, dict):
        return
    enum = status.get("enum")
    if isinstance(enum, list):
        for want in preferred:
            for value in enum:
                if isinstance(value, str) and value.lower().startswith(want[:6]):
                    out["status"] = value
                    return
    elif status.get("type") == "string":
        out["status"] = preferred[0]


def _by_id(spec: ToolSpec, args: dict[str, Any], ctx: SimContext, handle: StateHandle) -> dict[str, Any]:
    world, p, ns = handle.world, spec.profile, spec.family
    eid = str(args[p.id_param])  # type: ignore[index]
    row = world.get(ns, p.entity, eid)
    label = p.entity.replace("_", " ")
    if row is not None and row.data.get(_STATE_KEY) == "deleted":
        raise EntityNotFoundError(f"{label} '{eid}' was deleted (404).")
    if row is None:
        if handle.rules.unknown_id_policy(spec) is UnknownIdPolicy.ERROR:
            raise EntityNotFoundError(
                f"No {label} with {p.id_param} '{eid}' (404). Use an id returned by a search, list or create call."
            )
        seeded = simulate_generic(spec, args, ctx)
        row = world.put(ns, p.entity, eid, {**_scalars(seeded), p.id_param: args[p.id_param]})  # type: ignore[dict-item]
    state = row.data.get(_STATE_KEY)
    if p.operation is Operation.UPDATE:
        if state:
            raise ToolCallError(f"{label} '{eid}' is {state}; it can no longer be changed.")
        changes = {k: v for k, v in args.items() if k != p.id_param and k not in CONTROL_PARAMS}
        row = world.put(ns, p.entity, eid, {**row.data, **changes})
    elif p.operation is Operation.DELETE:
        if state:
            raise ToolCallError(f"{label} '{eid}' is already {state}.")
        cancel = any(w in spec.name.lower() for w in _CANCEL_WORDS)
        new_state = "cancelled" if cancel else "deleted"
        data = {**row.data, _STATE_KEY: new_state}
        if cancel and "status" in data:
            data["status"] = "cancelled"
        row = world.put(ns, p.entity, eid, data, deleted=True)
    out = _project(spec, spec.output_schema, row, eid, ctx, args)
    idf = _id_field(spec.output_schema, spec)
    id_schema = _props(spec.output_schema).get(idf)
    if isinstance(id_schema, dict) and _fits(args[p.id_param], id_schema):  # type: ignore[index]
        out[idf] = args[p.id_param]  # type: ignore[index]
    if row.data.get(_STATE_KEY):
        _set_status(out, spec.output_schema, ("cancelled", "canceled", "deleted", "removed", "revoked", "closed", "archived", "inactive"))
    if p.operation is Operation.UPDATE:
        _stamp(out, spec.output_schema, ctx, _UPDATE_STAMPED)
    elif p.operation is Operation.DELETE:
        _stamp(out, spec.output_schema, ctx, _DELETE_STAMPED)
    return out


def _materialize(spec: ToolSpec, world: World, observation: Any) -> None:
    """Rows inside a pinned observation become part of the world, so detail tools agree."""
    if not isinstance(observation, dict):
        return
    p, ns = spec.profile, spec.family
    coll = observation.get(p.collection or "")
    if isinstance(coll, list):
        item_schema = (_props(spec.output_schema).get(p.collection or "") or {}).get("items") or {}
        idf = _id_field(item_schema if isinstance(item_schema, dict) else {}, spec)
        for item in coll:
            if isinstance(item, dict) and item.get(idf) is not None and world.get(ns, p.entity, str(item[idf])) is None:
                world.put(ns, p.entity, str(item[idf]), _scalars(item))
        return
    idf = _id_field(spec.output_schema, spec)
    if observation.get(idf) is not None and world.get(ns, p.entity, str(observation[idf])) is None:
        world.put(ns, p.entity, str(observation[idf]), _scalars(observation))
