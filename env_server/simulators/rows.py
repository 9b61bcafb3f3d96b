"""Rows of a session's world as tools see them: the catalog rules, and how a stored row
is rendered through a tool's output schema (row values where they fit, stable fillers drawn
in the row's context elsewhere)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator

from env_server.catalog.infer import is_id_param
from env_server.catalog.models import Operation, ToolSpec, UnknownIdPolicy
from env_server.simulators import invariants
from env_server.simulators.base import SimContext
from env_server.simulators.content_rules import enforce_content
from env_server.simulators.echoes import fits_schema, short_values
from env_server.simulators.generate import Generation, call_seed
from env_server.simulators.generic import reports_current
from env_server.simulators.naming import snake
from env_server.simulators.own_title import own_arg_names
from state.world import RowState, World

CONTROL_PARAMS = frozenset(
    {"format", "page", "limit", "offset", "sort", "sort_by", "order_by", "sortby", "lang", "language",
     "per_page", "page_size", "count", "max_results", "fields", "api_key", "apikey", "cursor", "size"}
)
CANCEL_WORDS = ("cancel", "void", "revoke", "decline", "close", "archive", "reject", "refund")
STATUS_CREATED = ("confirmed", "active", "created", "pending", "open", "scheduled", "success", "booked", "placed")
STATE_KEY = "_state"
QUERY_KEY = "_query"  # the search arguments a remembered row answered
CONTEXT_KEY = "_context"  # a row's values before its first update (``project`` draws fillers in it)


@dataclass
class CatalogRules:
    """Which entities each family searches, creates and looks up, derived from profiles."""

    ops: dict[tuple[str, str], set[Operation]] = field(default_factory=dict)
    # (family, entity) -> the input schema of the id parameter its readers take: ids a search
    # emits are made to fit it, so every reader accepts them.
    id_schemas: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    # (family, entity) -> the first tool that lists it: what seeds its base world when a call
    # names one of its rows before any list looked (``stateful.seed_referenced``).
    listers: dict[tuple[str, str], ToolSpec] = field(default_factory=dict)

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
            if spec.profile.operation in (Operation.LIST, Operation.SEARCH) and spec.profile.collection:
                rules.listers.setdefault(key, spec)
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





def properties_of(schema: dict[str, Any]) -> dict[str, Any]:
    props = schema.get("properties")
    return props if isinstance(props, dict) else {}


def id_field_of(schema: dict[str, Any], spec: ToolSpec) -> str:
    props = properties_of(schema)
    p = spec.profile
    for cand in (p.id_field, p.id_param, f"{p.entity}_id", "id"):
        if cand and cand in props:
            return cand
    for name in props:
        if is_id_param(name):
            return name
    return p.id_field or "id"


def row_seed(ctx: SimContext, ns: str, entity: str, eid: str) -> int:
    return call_seed(f"{ns}/{entity}", {"id": eid}, ctx.seed)


def project(spec: ToolSpec, schema: dict[str, Any], row: RowState, eid: str, ctx: SimContext, args: dict[str, Any]) -> Any:
    """Render a stored row through a schema: row values where they fit, stable fillers elsewhere."""
    # The row's own values (and the query that found it) are the context its missing fields
    # are drawn in: a show in Las Vegas gets a Las Vegas address, its URL follows its title.
    # An updated row keeps the context it had before (CONTEXT_KEY): what the update did not
    # send must not change.
    known = row.data.get(CONTEXT_KEY) or known_values(row.data)
    context = {**short_values(row.data.get(QUERY_KEY) or {}), **known, **short_values(args)}
    gen = Generation(seed=row_seed(ctx, spec.family, spec.profile.entity, eid), today=ctx.today, args=context,
                     entity=spec.profile.entity, hints=spec.profile.hints, session_seed=ctx.seed, now=ctx.now,
                     current=reports_current(spec), plans=ctx.plans, provider=spec.provider, link=spec.link,
                     home=spec.profile.place, category=spec.category, about=spec.description)
    gen.row_keys = frozenset(snake(k) for k in known if k not in args)
    gen.record_only_from = lambda: gen.row_keys | own_arg_names(args, spec.profile.id_param)
    base = gen.fill(schema)
    if not isinstance(base, dict):
        return base
    # A row shows the query that found it where it has no value of its own (a pipeline
    # listed for a project names that project).
    query = row.data.get(QUERY_KEY)
    out = overlay(base, schema, {**query, **row.data} if query else row.data, ctx.validators)
    enforce_content(out, args)  # the stored row's values agree too: a slug asked for names the record
    rules = _rules_of(ctx, schema)
    if rules:  # a stored value the schema could not take was redrawn: the record's sums hold again
        invariants.enforce(out, args, rules)
    return out


def _rules_of(ctx: SimContext, schema: dict[str, Any]) -> tuple[invariants.Rule, ...]:
    """The invariants that bind a record of ``schema``, chosen once per schema and kept with the
    compiled plans (the entry holds the schema, so its id is not reused while it lives)."""
    key = ("invariant rules", id(schema))
    hit = ctx.plans.get(key)
    if hit is None:
        hit = ctx.plans[key] = (schema, invariants.rules_for(properties_of(schema)))
    rules: tuple[invariants.Rule, ...] = hit[1]
    return rules


def known_values(data: dict[str, Any]) -> dict[str, Any]:
    """A row's own scalar values: the context its missing fields are drawn in."""
    return {k: v for k, v in data.items() if not k.startswith("_") and not isinstance(v, (dict, list))}


def overlay(base: dict[str, Any], schema: dict[str, Any], data: dict[str, Any], validators: ValidatorCache) -> dict[str, Any]:
    props = properties_of(schema)
    out = dict(base)
    for key, sub in props.items():
        if key in data and fits(data[key], sub, validators):
            out[key] = data[key]
        elif isinstance(sub, dict) and sub.get("type") == "object" and isinstance(out.get(key), dict):
            # One nested level: detail APIs often wrap the entity ({"show": {...}}).
            if any(k in data for k in properties_of(sub)):
                out[key] = overlay(out[key], sub, data, validators)
    return out


# Validators by id(schema), kept by the schemas' owner like the plans (``SimContext.validators``);
# an entry holds its schema, so the id can't be reused while it exists.
ValidatorCache = dict[int, tuple[dict[str, Any], Draft202012Validator]]


def fits(value: Any, schema: Any, validators: ValidatorCache) -> bool:
    if not isinstance(schema, dict):
        return False
    if not isinstance(value, (list, dict)):
        return fits_schema(value, schema)
    hit = validators.get(id(schema))
    if hit is None:
        hit = validators[id(schema)] = (schema, Draft202012Validator(schema))
    return hit[1].is_valid(value)


def scalars(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if not isinstance(v, (dict, list)) or k in ("tags", "items")}


def matches(row: RowState, args: dict[str, Any], filters: list[str]) -> bool:
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



def int_id(eid: str) -> int:
    return int(eid.rsplit("_", 1)[1][:7], 16)


def entity_prefix(entity: str) -> str:
    return re.sub(r"[^a-z0-9]", "", entity.lower())[:4] or "item"

