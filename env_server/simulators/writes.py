"""Writes: create, update and delete (or cancel) by id, and reads by id.

A create mints a deterministic id (or keeps a caller-chosen one), checks and inherits what
it refers to (a booking of an offer carries the offer's route and the search it answered),
and is stamped with the session's "now". Update changes the row; delete marks it, and a
cancelled row reads back as cancelled, a deleted one as 404.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from env_server.catalog.models import Operation, ToolSpec, UnknownIdPolicy
from env_server.errors import EntityNotFoundError, ToolCallError
from env_server.simulators import invariants, timeline
from env_server.simulators.arg_fields import echo_keys
from env_server.simulators.base import SimContext, session_now
from env_server.simulators.comment_threads import Thread, append_comment, open_thread, thread_of, unclose_open
from env_server.simulators.create_defaults import apply_defaults, defaults_plan
from env_server.simulators.domain_kinds import DOMAIN_KINDS
from env_server.simulators.echoes import fits_schema
from env_server.simulators.generic import simulate_generic
from env_server.simulators.geo_kinds import same_country
from env_server.simulators.ids import conform_id, matches_pattern
from env_server.simulators.lineage import alias_id, read_key
from env_server.simulators.naming import snake
from env_server.simulators.rows import (
    CANCEL_WORDS,
    CONTEXT_KEY,
    CONTROL_PARAMS,
    QUERY_KEY,
    STATE_KEY,
    STATUS_CREATED,
    StateHandle,
    ValidatorCache,
    entity_prefix,
    fits,
    id_field_of,
    int_id,
    known_values,
    project,
    properties_of,
    scalars,
)
from env_server.simulators.sites import page_names_id
from env_server.simulators.tracker_facts import relink
from env_server.simulators.write_stamps import stamp_pattern
from state.world import RowState, World


def create_row(spec: ToolSpec, args: dict[str, Any], ctx: SimContext, handle: StateHandle) -> dict[str, Any]:
    referenced = _referenced_rows(spec, args, handle)
    # A booking is made in the context of what it books: the offer's search (its route, its
    # dates) is the booking's too.
    context = {k: v for row in referenced for k, v in (row.data.get(QUERY_KEY) or {}).items()}
    out = simulate_generic(spec, {**context, **args}, ctx) if context else simulate_generic(spec, args, ctx)
    idf = id_field_of(spec.output_schema, spec)
    # Optional fields not sent: the API's defaults (or nothing), not drawn text.
    apply_defaults(out, args, defaults_plan(spec.input_schema, spec.output_schema, idf, ctx.plans))
    _inherit(out, spec.output_schema, referenced, args, ctx.validators)
    _assign_id(spec, args, out, idf, handle, ctx.validators)
    _set_status(out, spec.output_schema, STATUS_CREATED)
    _stamp(out, spec, ctx)
    thread = thread_of(spec, ctx.plans)
    if thread is not None:  # a new note's thread is the caller's opening comment, not its text in each
        open_thread(out, thread, args, ctx.now or session_now(ctx.today, 0), ctx.seed,
                    frozenset(spec.output_schema.get("required") or ()))
    invariants.enforce(out, args)  # a stamped start may now follow its generated end
    timeline.order_times(out, timeline.pairs(out), ctx.now or session_now(ctx.today, 0))
    data = {**{k: v for k, v in args.items() if k not in CONTROL_PARAMS}, **out}  # reads show what was made
    handle.world.put(spec.family, spec.profile.entity, str(out[idf]), data)
    return out


def _referenced_rows(spec: ToolSpec, args: dict[str, Any], handle: StateHandle) -> list[RowState]:
    """The rows a create refers to (``show_id`` -> the show); a 404 when one does not exist."""
    world, p, ns = handle.world, spec.profile, spec.family
    referenced: list[RowState] = []
    for key, value in args.items():
        ref = _referenced_entity(key)
        if not ref or not isinstance(value, (str, int)) or ref == p.entity or not handle.rules.known(ns, ref):
            continue
        producers = handle.rules.ops.get((ns, ref), set()) & {Operation.SEARCH, Operation.LIST, Operation.CREATE}
        row = world.get(ns, ref, str(value))
        if producers and row is None:
            raise EntityNotFoundError(f"No {ref} with id '{value}' exists (404). Use an id returned by a previous call.")
        if row is not None and row.data.get(STATE_KEY):
            raise ToolCallError(f"{ref} '{value}' is {row.data[STATE_KEY]} and cannot be used.")
        if row is not None:
            referenced.append(row)
    return referenced


def _assign_id(spec: ToolSpec, args: dict[str, Any], out: dict[str, Any], idf: str, handle: StateHandle,
               validators: ValidatorCache) -> None:
    """The caller's own id (an alias; 409 if taken), or a fresh one its readers accept."""
    world, entity, ns = handle.world, spec.profile.entity, spec.family
    id_schema = properties_of(spec.output_schema).get(idf, {"type": "string"})
    # The caller names the record it makes: its own id, or the content it pins (``hash_to_pin``).
    chosen = args.get(idf, args.get(spec.profile.id_param or "") if spec.profile.id_param else None)
    if isinstance(chosen, (str, int)) and not isinstance(chosen, bool) and fits(chosen, id_schema, validators):
        existing = world.get(ns, entity, str(chosen))
        if existing is not None and existing.data.get(STATE_KEY) != "deleted":
            raise ToolCallError(f"{entity.replace('_', ' ')} '{chosen}' already exists (409).")
        out[idf] = chosen
        return
    reader = handle.rules.id_schemas.get((ns, entity))
    drawn = out.get(idf)
    if matches_pattern(drawn, reader) and world.get(ns, entity, str(drawn)) is None:
        return  # an id of the shape the reader requires (an AT URI), drawn from its kind
    if spec.profile.hints.get(idf) in DOMAIN_KINDS and isinstance(drawn, str) and world.get(ns, entity, drawn) is None:
        return  # an id in the API's own format (a bitlink, a Slack ts), drawn by its hinted kind
    eid = world.next_id(ns, entity, entity_prefix(entity))
    out[idf] = int_id(eid) if isinstance(id_schema, dict) and id_schema.get("type") == "integer" else eid
    if reader is not None and not fits_schema(out[idf], reader):  # the reader must accept it
        conform_id(out[idf], reader, id_schema if isinstance(id_schema, dict) else {}, out, idf)
    relink(out, idf)  # an issue's page names its number
    page_names_id(out, spec.profile.entity, idf)  # a page of a record with no title names its id


_NOT_INHERITED = frozenset({"status", "created_at", "updated_at", "id"})


def _inherit(out: dict[str, Any], schema: dict[str, Any], referenced: list[RowState], args: dict[str, Any],
             validators: ValidatorCache) -> None:
    """A booking of a show carries the show's title, venue, currency …, and a total that adds up."""
    props = properties_of(schema)
    by_snake = {snake(k): k for k in props}
    for row in referenced:
        for name, value in row.data.items():
            key = name if name in props else by_snake.get(snake(name), "")  # carrierCode -> carrier_code
            if key and key not in args and key not in _NOT_INHERITED and fits(value, props[key], validators):
                out[key] = value
        qty, price = args.get("quantity"), row.data.get("price")
        if isinstance(qty, int) and isinstance(price, (int, float)) and not isinstance(price, bool):
            for key in ("total_price", "total", "amount", "total_amount"):
                if key in props and fits(round(qty * price, 2), props[key], validators):
                    out[key] = round(qty * price, 2)
                    break


def _stamp(out: dict[str, Any], spec: ToolSpec, ctx: SimContext) -> None:
    """A write happens at the session's "now" (``write_stamps`` says which fields record it)."""
    fields = stamp_pattern(spec.name, spec.profile.operation)
    if fields is None:
        return
    schema = spec.output_schema
    now = session_now(ctx.today, 0) if ctx.now is None else ctx.now
    for key, sub in properties_of(schema).items():
        if not fields.match(snake(key)) or not isinstance(sub, dict) or "enum" in sub:
            continue
        typ, fmt = sub.get("type"), sub.get("format")
        if typ == "integer":
            value: Any = int(now.replace(tzinfo=dt.UTC).timestamp())
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
    """``status`` (and an enum-valued ``state``/``*_status``) says what the write did."""
    for key, sub in properties_of(schema).items():
        name = snake(key)
        if isinstance(sub, dict) and (name == "status" or isinstance(sub.get("enum"), list) and (
                name == "state" or name.endswith(("_status", "_state")))):
            _set_one_status(out, key, sub, preferred)
        elif isinstance(sub, dict) and name.endswith("status") and isinstance(out.get(key), dict):
            # A status object ({"code": ..., "description": "In transit"}): its words say it.
            for field, inner in properties_of(sub).items():
                if snake(field) in ("description", "status", "text", "name") and isinstance(inner, dict):
                    _set_one_status(out[key], field, inner, (preferred[0].capitalize(), *preferred[1:]))


def _set_one_status(out: dict[str, Any], key: str, status: dict[str, Any], preferred: tuple[str, ...]) -> None:
    enum = status.get("enum")
    if isinstance(enum, list):
        for want in preferred:
            for value in enum:
                if isinstance(value, str) and value.lower().startswith(want[:6]):
                    out[key] = value
                    return
    elif status.get("type") == "string":
        out[key] = preferred[0]


_CLOSED = ("cancelled", "canceled", "deleted", "removed", "revoked", "closed", "archived", "inactive")


def serve_by_id(spec: ToolSpec, args: dict[str, Any], ctx: SimContext, handle: StateHandle) -> dict[str, Any]:
    p = spec.profile
    id_param: str = p.id_param  # type: ignore[assignment]  # set: the caller found it in args
    eid = str(args[id_param])
    if p.operation is Operation.READ:  # by id or slug; a season's averages are that season's row
        eid, args = _read_key(spec, args, eid, handle)
    row = _row_by_id(spec, args, eid, ctx, handle)
    thread = thread_of(spec, ctx.plans) if p.operation is Operation.UPDATE else None
    if p.operation is Operation.UPDATE:
        row = _update(spec, args, eid, row, handle, thread.arg if thread is not None else None)
    elif p.operation is Operation.DELETE:
        row = _delete(spec, eid, row, handle)
    # The earlier comments of a thread keep their own texts: the comment sent is appended after.
    shown = {k: v for k, v in args.items() if k != thread.arg} if thread is not None else args
    out = project(spec, spec.output_schema, row, eid, ctx, shown)
    if thread is not None:
        _comment(spec, args, eid, row, out, ctx, handle, thread)
    idf = id_field_of(spec.output_schema, spec)
    id_schema = properties_of(spec.output_schema).get(idf)
    if isinstance(id_schema, dict) and fits(args[id_param], id_schema, ctx.validators) and not same_country(
            args[id_param], out.get(idf), p.entity):  # "CH" opens Switzerland, whose cca3 stays "CHE"
        out[idf] = args[id_param]
    page_names_id(out, p.entity, idf)
    if p.operation is Operation.READ and handle.rules.unknown_id_policy(spec) is UnknownIdPolicy.ACCEPT:
        echo_keys(out, args, spec.input_schema, spec.output_schema, id_param)  # a stored row keeps its own
    if row.data.get(STATE_KEY):
        _set_status(out, spec.output_schema, _CLOSED)
        _set_closed_flags(out, spec.output_schema)
    if p.operation in (Operation.UPDATE, Operation.DELETE):
        _stamp(out, spec, ctx)
    unclose_open(out, frozenset(spec.output_schema.get("required") or ()))
    return out


def _read_key(spec: ToolSpec, args: dict[str, Any], eid: str, handle: StateHandle) -> tuple[str, dict[str, Any]]:
    """The row key a read opens, and the arguments it is drawn with: 42, "42" and its slug
    open the same row, drawn the same."""
    p = spec.profile
    id_param: str = p.id_param  # type: ignore[assignment]  # set: the caller found it in args
    if handle.rules.unknown_id_policy(spec) is UnknownIdPolicy.ACCEPT:
        return read_key(spec, args, eid), args
    eid = alias_id(handle.world, spec, eid)
    found = handle.world.get(spec.family, p.entity, eid)
    stored = found.data.get(id_field_of(spec.output_schema, spec)) if found is not None else None
    if stored is not None and str(stored) == eid and stored != args[id_param]:
        args = {**args, id_param: stored}
    return eid, args


_CLOSED_FLAGS = re.compile(r"^(is_)?(cancel+ed|archived|closed|revoked|deleted|voided|disabled)$")
_OPEN_FLAGS = re.compile(r"^(is_)?(enabled|active|live|open)$")


def _set_closed_flags(out: dict[str, Any], schema: dict[str, Any]) -> None:
    """A cancelled, archived or revoked row says so in its flags: ``is_archived`` true, ``enabled`` false."""
    for key, sub in properties_of(schema).items():
        if isinstance(sub, dict) and sub.get("type") == "boolean":
            name = snake(key)
            if _CLOSED_FLAGS.match(name):
                out[key] = True
            elif _OPEN_FLAGS.match(name):
                out[key] = False


def _row_by_id(spec: ToolSpec, args: dict[str, Any], eid: str, ctx: SimContext, handle: StateHandle) -> RowState:
    """The stored row; a 404 for ids never produced, or a new row for natural keys."""
    world, p = handle.world, spec.profile
    row = world.get(spec.family, p.entity, eid)
    label = p.entity.replace("_", " ")
    if row is not None and row.data.get(STATE_KEY) == "deleted":
        raise EntityNotFoundError(f"{label} '{eid}' was deleted (404).")
    if row is not None:
        return row
    if handle.rules.unknown_id_policy(spec) is UnknownIdPolicy.ERROR:
        raise EntityNotFoundError(
            f"No {label} with {p.id_param} '{eid}' (404). Use an id returned by a search, list or create call."
        )
    seeded = simulate_generic(spec, args, ctx)
    id_param: str = p.id_param  # type: ignore[assignment]  # set: serve_by_id's caller found it in args
    return world.put(spec.family, p.entity, eid, {**scalars(seeded), id_param: args[id_param]})


def _comment(spec: ToolSpec, args: dict[str, Any], eid: str, row: RowState, out: dict[str, Any], ctx: SimContext,
             handle: StateHandle, thread: Thread) -> None:
    """One comment, the caller's, after the thread's earlier ones; the record is open, and
    the thread is kept with the row, so a read shows it."""
    required = frozenset(spec.output_schema.get("required") or ())
    append_comment(out, thread, args, ctx.now or session_now(ctx.today, 0), ctx.seed, required)
    _set_status(out, spec.output_schema, ("open", "active"))
    kept = {k: v for k, v in row.data.items() if k in out or k.startswith("_") or k not in properties_of(spec.output_schema)}
    status = {"status": out["status"]} if "status" in out else {}
    handle.world.put(spec.family, spec.profile.entity, eid, {**kept, **status, thread.key: out[thread.key]})


def _update(spec: ToolSpec, args: dict[str, Any], eid: str, row: RowState, handle: StateHandle,
            skip: str | None = None) -> RowState:
    p = spec.profile
    state = row.data.get(STATE_KEY)
    if state:
        raise ToolCallError(f"{p.entity.replace('_', ' ')} '{eid}' is {state}; it can no longer be changed.")
    changes = {k: v for k, v in args.items() if k not in (p.id_param, skip) and k not in CONTROL_PARAMS}
    context = row.data.get(CONTEXT_KEY) or known_values(row.data)
    return handle.world.put(spec.family, p.entity, eid, {**row.data, **changes, CONTEXT_KEY: context})


def _delete(spec: ToolSpec, eid: str, row: RowState, handle: StateHandle) -> RowState:
    """Cancel-like tools (cancel, void, refund, …) cancel; others delete."""
    state = row.data.get(STATE_KEY)
    if state:
        raise ToolCallError(f"{spec.profile.entity.replace('_', ' ')} '{eid}' is already {state}.")
    cancel = any(w in spec.name.lower() for w in CANCEL_WORDS)
    data = {**row.data, STATE_KEY: "cancelled" if cancel else "deleted"}
    if cancel and "status" in data:
        data["status"] = "cancelled"
    return handle.world.put(spec.family, spec.profile.entity, eid, data, deleted=True)


def materialize(spec: ToolSpec, world: World, observation: Any) -> None:
    """Rows inside a pinned observation become part of the world, so detail tools agree."""
    if not isinstance(observation, dict):
        return
    p, ns = spec.profile, spec.family
    coll = observation.get(p.collection or "")
    if isinstance(coll, list):
        item_schema = (properties_of(spec.output_schema).get(p.collection or "") or {}).get("items") or {}
        idf = id_field_of(item_schema if isinstance(item_schema, dict) else {}, spec)
        for item in coll:
            if isinstance(item, dict) and item.get(idf) is not None and world.get(ns, p.entity, str(item[idf])) is None:
                world.put(ns, p.entity, str(item[idf]), scalars(item))
        return
    idf = id_field_of(spec.output_schema, spec)
    if observation.get(idf) is not None and world.get(ns, p.entity, str(observation[idf])) is None:
        world.put(ns, p.entity, str(observation[idf]), scalars(observation))
