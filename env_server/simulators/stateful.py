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

from dataclasses import dataclass
from typing import Any

from env_server.catalog.models import Operation, ToolSpec
from env_server.simulators import timeline
from env_server.simulators.answers import (
    QUERY_ARGS,
    answer_rows,
    answer_search,
    enum_match,
    filter_misses,
    fits_question,
    question_args,
    searches_titles,
)
from env_server.simulators.base import SimContext, session_now
from env_server.simulators.domain_kinds import DOMAIN_KINDS
from env_server.simulators.echoes import fits_schema, short_values
from env_server.simulators.generate import Generation, call_seed
from env_server.simulators.generic import simulate_generic
from env_server.simulators.ids import conform_id, matches_pattern
from env_server.simulators.lineage import adopt_rows, inherit_parent, register_nested
from env_server.simulators.naming import snake
from env_server.simulators.paging import answer_pages, order_rows, page_of, sort_rows
from env_server.simulators.rank_order import rank_listed
from env_server.simulators.rows import (
    CONTROL_PARAMS,
    QUERY_KEY,
    STATE_KEY,
    CatalogRules,
    StateHandle,
    entity_prefix,
    id_field_of,
    int_id,
    matches,
    project,
    properties_of,
    row_seed,
)
from env_server.simulators.tracker_facts import relink
from env_server.simulators.writes import create_row, materialize, serve_by_id
from state.world import RowState, canonical

__all__ = ["CatalogRules", "StateHandle", "simulate_stateful"]


def simulate_stateful(spec: ToolSpec, args: dict[str, Any], ctx: SimContext) -> dict[str, Any]:
    handle = ctx.state
    if not isinstance(handle, StateHandle):
        return simulate_generic(spec, args, ctx)
    world = handle.world
    pinned = world.pinned.get((spec.name, canonical(args))) if world.pinned else None
    if pinned is not None:
        materialize(spec, world, pinned)
        return pinned
    op = spec.profile.operation
    if handle.seeded:
        seed_referenced(spec, args, ctx, handle)
    if op in (Operation.SEARCH, Operation.LIST):
        out = rank_listed(_search(spec, args, ctx, handle), spec.output_schema, spec.profile.collection, args,
                          ctx.plans)
    elif op is Operation.CREATE:
        return create_row(spec, args, ctx, handle)
    elif op in (Operation.READ, Operation.UPDATE, Operation.DELETE) and spec.profile.id_param in args:
        out = serve_by_id(spec, args, ctx, handle)
    else:
        return simulate_generic(spec, args, ctx)
    register_nested(spec, out, handle)  # the laureates of a prize open in the laureate reader
    return out


# -- search and list ------------------------------------------------------------------


@dataclass(frozen=True)
class _Listing:
    """What one search or list call works on: its collection and the rows' schema."""

    spec: ToolSpec
    args: dict[str, Any]
    ctx: SimContext
    handle: StateHandle
    coll: str
    item_schema: dict[str, Any]
    idf: str


def _search(spec: ToolSpec, args: dict[str, Any], ctx: SimContext, handle: StateHandle) -> dict[str, Any]:
    # Rows are answered to the call (``answers``) only where they are kept: a repeated query
    # answers with its remembered rows, a user-owned list with the session's own.
    out = simulate_generic(spec, args, ctx, answer=False)
    coll = spec.profile.collection
    coll_schema = properties_of(spec.output_schema).get(coll or "")
    if not coll or not isinstance(coll_schema, dict) or not isinstance(out.get(coll), list):
        answer_search(out, spec, args)
        return out
    items = coll_schema.get("items")
    item_schema: dict[str, Any] = items if isinstance(items, dict) else {}
    if properties_of(item_schema) == {}:
        answer_search(out, spec, args)
        if is_id_list(coll):
            _remember_id_list(spec, args, out, coll, handle)
        return out
    listing = _Listing(spec, args, ctx, handle, coll, item_schema, id_field_of(item_schema, spec))
    if handle.rules.owned(spec.family, spec.profile.entity):
        return _list_owned(listing, out)
    return _search_world(listing, out)


def _list_owned(listing: _Listing, out: dict[str, Any]) -> dict[str, Any]:
    """A user-owned collection lists the session's rows (and the base world's)."""
    spec, args = listing.spec, listing.args
    when = timeline.when_key(properties_of(listing.item_schema))
    listed = [project(spec, listing.item_schema, r, eid, listing.ctx, {}) for eid, r in _owned_rows(listing, when)]
    inherit_parent(listed, spec, args, listing.handle, listing.item_schema)
    if when is not None:  # a ledger, a feed, a calendar: in time order (unless the call sorts)
        now = listing.ctx.now or session_now(listing.ctx.today, 0)
        listed = timeline.sort_by_time(listed, when, now)
    # The page asked for out of every row found; the total counts them all.
    out[listing.coll] = page_of(sort_rows(listed, args), args)
    _fix_totals(out, spec.output_schema, len(listed))
    answer_pages(out, spec.output_schema, args, len(out[listing.coll]))
    return out


def _owned_rows(listing: _Listing, when: str | None) -> list[tuple[str, RowState]]:
    """The session's rows the call's filters, term and window find; the first look (and a
    filtered look that finds none) seeds the rows the base world held."""
    spec, args, handle = listing.spec, listing.args, listing.handle
    world, p = handle.world, spec.profile
    item_props = properties_of(listing.item_schema)
    filters, scope = _owned_filters(listing, item_props)
    judged = {k: v for k, v in args.items() if k != listing.idf}

    def found() -> list[tuple[str, Any]]:
        return [(eid, r) for eid, r in world.rows_of(spec.family, p.entity)
                if r.data.get(STATE_KEY) != "deleted" and matches(r, args, filters)
                and fits_question(r.data, args, when) and next(filter_misses(r.data, judged, item_props), None) is None]

    if handle.seeded:
        _seed_base_rows(spec, listing.item_schema, listing.idf, listing.ctx, handle, {})
    rows = found()
    wanted = {**{k: args[k] for k in filters if k in args}, **question_args(args)}
    if not rows and handle.seeded and wanted:
        # The base world also held rows this filter finds (a past order with this status).
        _seed_base_rows(spec, listing.item_schema, listing.idf, listing.ctx, handle, wanted, scope)
        rows = found()
    return adopt_rows(world, spec, rows, scope)  # the base rows found in a scope are that scope's


def _owned_filters(listing: _Listing, item_props: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """The arguments a user-owned list filters its rows by, and the scope it is listed in.

    A filter named like the rows' own id field names their parent (an account's statuses).
    The required arguments a list is scoped by that its rows do not show (a project's
    pipelines) are its scope: its rows are that scope's (``lineage.adopt_rows``).
    """
    spec, args = listing.spec, listing.args
    p = spec.profile
    filters = [k for k in (p.filter_params or [k for k in args if k not in CONTROL_PARAMS]) if k != listing.idf]
    scope = {k: args[k] for k in spec.input_schema.get("required") or [] if k in args and k not in item_props
             and k not in CONTROL_PARAMS and isinstance(args[k], (str, int)) and not isinstance(args[k], bool)}
    filters += [k for k in scope if k not in filters]
    # A value the rows' field cannot hold (a station outside its enum) filters nothing, as the audit judges it.
    filters = [k for k in filters if k not in args or not isinstance(item_props.get(k), dict) or isinstance(
        args[k], (list, dict)) or enum_match(args[k], item_props[k]) is not None]
    return filters, scope


def _search_world(listing: _Listing, out: dict[str, Any]) -> dict[str, Any]:
    """A search of the world: new queries remember their rows, repeats answer with them."""
    spec, world = listing.spec, listing.handle.world
    entity = spec.profile.entity
    query = {k: listing.args[k] for k in sorted(listing.args) if k not in CONTROL_PARAMS}
    query_key = canonical(query)
    ids = world.queries.get((spec.family, entity, query_key))
    if ids is not None:
        rows = ((eid, world.get(spec.family, entity, eid)) for eid in ids)
        found = [project(spec, listing.item_schema, row, eid, listing.ctx, listing.args)
                 for eid, row in rows if row is not None and row.data.get(STATE_KEY) != "deleted"]
        # The same query with another sort or limit: the remembered rows, ordered and cut anew.
        out[listing.coll] = order_rows(found, listing.args)
        answer_pages(out, spec.output_schema, listing.args, len(out[listing.coll]))
        return out
    answer_search(out, spec, listing.args)  # a new query: the term shows, filters hold, sorted and cut
    inherit_parent(out[listing.coll], spec, listing.args, listing.handle, listing.item_schema)
    ids, kept = [], []
    for item in out[listing.coll]:
        if not isinstance(item, dict):
            continue
        if item.get(listing.idf) is not None and str(item[listing.idf]) in ids:
            continue  # an id drawn twice (from a short enum): one row, as a repeat would show
        key = str(_row_key(listing, item))
        if world.get(spec.family, entity, key) is None:
            # Whole (a repeat must answer the same), with the query it answered (a booking of
            # this row inherits its route and dates).
            world.put(spec.family, entity, key, {**item, QUERY_KEY: short_values(query)})
        ids.append(key)
        kept.append(item)
    if len(kept) != len(out[listing.coll]):  # rows merged under one id: the pages count what is shown
        answer_pages(out, spec.output_schema, listing.args, len(kept))
    out[listing.coll] = kept
    world.remember_query(spec.family, entity, query_key, ids)
    return out


def _row_key(listing: _Listing, item: dict[str, Any]) -> Any:
    """The id a found row is kept under: its own (shaped for the readers), a minted one, or
    one derived from its content when the rows have no id field."""
    spec, world, idf = listing.spec, listing.handle.world, listing.idf
    fields = properties_of(listing.item_schema)
    eid = item.get(idf)
    if eid is None or isinstance(eid, bool):
        if idf not in fields:
            return "h_" + call_seed(spec.profile.entity, item, 0).to_bytes(8, "big").hex()[:12]
        eid = world.next_id(spec.family, spec.profile.entity, entity_prefix(spec.profile.entity))
        item[idf] = eid if fields[idf].get("type") != "integer" else int_id(eid)
        relink(item, idf)
    reader = listing.handle.rules.id_schemas.get((spec.family, spec.profile.entity))
    if reader is not None and not fits_schema(eid, reader) and idf in fields:
        eid = conform_id(eid, reader, fields[idf], item, idf)
    return eid


BASE_ROWS = (3, 5)  # how many rows a seeded user-owned collection starts with
_BASE_QUERY = "(base world)"


def _seed_base_rows(spec: ToolSpec, item_schema: dict[str, Any], idf: str, ctx: SimContext,
                    handle: StateHandle, wanted: dict[str, Any], scope: dict[str, Any] | None = None) -> None:
    """The first look at a user-owned collection finds a few rows that were there before
    the session began (and a filtered look, a few that match the filter): with ids of their
    own, the same for the same seed."""
    world, p, ns = handle.world, spec.profile, spec.family
    query = _BASE_QUERY + (" " + canonical(wanted) if wanted else "")
    if (ns, p.entity, query) in world.queries:
        return
    seed = row_seed(ctx, ns, p.entity, query)
    gen = Generation(seed=seed, today=ctx.today, args=wanted, entity=p.entity, hints=p.hints, session_seed=ctx.seed,
                     now=session_now(ctx.today, 0), plans=ctx.plans, provider=spec.provider, link=spec.link,
                     home=p.place, category=spec.category, about=spec.description)
    count = gen.rng.randint(*BASE_ROWS) if not wanted else gen.rng.randint(1, 2)
    id_schema = properties_of(item_schema).get(idf, {"type": "string"})
    ids = []
    for i in range(count):
        item = gen.fill(item_schema, index=i)
        if not isinstance(item, dict):
            continue
        eid = f"{entity_prefix(p.entity)}_{call_seed(ns, {'base': query, 'i': i, 'entity': p.entity}, ctx.seed):016x}"[
            : len(entity_prefix(p.entity)) + 11]
        if p.hints.get(idf) in DOMAIN_KINDS and isinstance(item.get(idf), str):
            eid = item[idf]  # an id in the API's own format (a Slack ts), drawn by its hinted kind
        answer_rows([item], wanted, item_schema, p.entity, by_title=searches_titles(spec))  # the term shows, in the window
        props = properties_of(item_schema)
        # rows found by a filter hold the filtered values (as the field writes them: "shows" -> "show")
        item.update({k: v for k, v in wanted.items() if isinstance(props.get(k), dict) and (
            fits_schema(v, props[k]) or isinstance(v, list) and props[k].get("type") == "array")})
        reader = handle.rules.id_schemas.get((ns, p.entity))
        if not matches_pattern(item.get(idf), reader):  # else: drawn in the shape the reader requires
            item[idf] = int_id(eid) if isinstance(id_schema, dict) and id_schema.get("type") == "integer" else eid
            if reader is not None and not fits_schema(item[idf], reader):  # readers must accept it
                conform_id(item[idf], reader, id_schema if isinstance(id_schema, dict) else {}, item, idf)
            relink(item, idf, scope)  # an issue's page names its number and repository
        item.pop(STATE_KEY, None)
        world.put(ns, p.entity, str(item[idf]), {**(scope or {}), **item})  # kept in its scope, shown or not
        ids.append(str(item[idf]))
    world.remember_query(ns, p.entity, query, ids)


def seed_referenced(spec: ToolSpec, args: dict[str, Any], ctx: SimContext, handle: StateHandle) -> None:
    """A call that names a row of a user-owned collection (a message posted to a channel)
    finds the base world's rows there even before any list looked: the channels a fresh
    session lists are channels from the start."""
    for key, value in args.items():
        name = snake(key)
        if not name.endswith("_id") or not isinstance(value, (str, int)) or isinstance(value, bool):
            continue
        entity = name[:-3]
        lister = handle.rules.listers.get((spec.family, entity))
        if lister is None or not handle.rules.owned(spec.family, entity) or handle.world.get(
                spec.family, entity, str(value)) is not None:
            continue
        coll = properties_of(lister.output_schema).get(lister.profile.collection or "")
        items = coll.get("items") if isinstance(coll, dict) else None
        if isinstance(items, dict) and properties_of(items):
            _seed_base_rows(lister, items, id_field_of(items, lister), ctx, handle, {})


def is_id_list(name: str) -> bool:
    """A collection of bare ids (``objectIDs``, ``ids``, ``story_ids``)."""
    return snake(name).endswith("ids")


def _remember_id_list(spec: ToolSpec, args: dict[str, Any], out: dict[str, Any], coll: str,
                      handle: StateHandle) -> None:
    """A search that answers with bare ids: each becomes a row its readers can open. A
    repeat draws the same ids from the same call seed, so it answers the same."""
    world, p, ns = handle.world, spec.profile, spec.family
    reader = handle.rules.id_schemas.get((ns, p.entity))
    values = []
    # Each row remembers the term that found it: its reader shows a record about it (a museum
    # object found by "sunflowers" is titled after them).
    asked = {k: args[k] for k in QUERY_ARGS if isinstance(args.get(k), str)}
    for value in dict.fromkeys(v for v in out[coll] if isinstance(v, (str, int)) and not isinstance(v, bool)):
        if reader is not None and not fits_schema(value, reader):
            value = conform_id(value, reader, {"type": reader.get("type")}, {"id": value}, "id")
        if world.get(ns, p.entity, str(value)) is None:
            world.put(ns, p.entity, str(value), {QUERY_KEY: short_values(asked)} if asked else {})
        values.append(value)
    out[coll] = values
    query_key = canonical({k: args[k] for k in sorted(args) if k not in CONTROL_PARAMS})
    if (ns, p.entity, query_key) not in world.queries:
        world.remember_query(ns, p.entity, query_key, [str(v) for v in values])


def _fix_totals(out: dict[str, Any], schema: dict[str, Any], n: int) -> None:
    for key in ("total", "count", "total_count", "total_results", "totalResults", "totalCount", "found"):
        if key in out and isinstance(properties_of(schema).get(key), dict) and properties_of(schema)[key].get("type") == "integer":
            out[key] = n



