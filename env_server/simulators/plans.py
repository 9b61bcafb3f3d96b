"""Schema compilation: each output schema becomes a tree of closures, once.

Every decision that depends only on the schema, the field's name and place, the entity
and the profile hints (type, enum, format, value kind, length limits, which children step
with a series index) is taken once per schema node; the closures draw from the call's
``Generation`` in the order the decisions imply. Objects open a ``RecordScope`` and
enforce the record's invariants; arrays echo the caller's own records where given.

This module walks the schema (objects, arrays, echoes of arguments) and resolves each
scalar's kind; ``leaf_plans`` compiles the scalar leaves and ``echoes`` decides which of the
caller's values may be repeated.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.catalog.infer import ECHO_KEY
from env_server.simulators import invariants, numeric, paging, record_steps, timeline
from env_server.simulators.clock_kinds import clock_kind
from env_server.simulators.cocktails import drink_search_count
from env_server.simulators.coin_facts import coin_search_count
from env_server.simulators.content_kinds import content_kind
from env_server.simulators.echoes import LONG_ECHO_CHARS, MISSING, echo_record, enum_member, fits_schema
from env_server.simulators.entry_fields import entry_field_kind
from env_server.simulators.epoch_kinds import epoch_node
from env_server.simulators.fx import fx_kind, sizes_list
from env_server.simulators.geo_naming import geo_array, geo_enum_kind
from env_server.simulators.leaf_plans import (
    FACT_DATES,
    compile_boolean,
    compile_enum,
    compile_number,
    compile_string,
    http_status_node,
)
from env_server.simulators.list_shapes import (
    arrange,
    asked_count,
    capped,
    fixed_count,
    sampled_enum,
    sent_records,
    vocab_list,
)
from env_server.simulators.magnitudes import magnitude_kind
from env_server.simulators.marine_kinds import marine_kind
from env_server.simulators.market_figures import figure_kind
from env_server.simulators.media_numbers import media_kind
from env_server.simulators.metar import STATION_FIELDS
from env_server.simulators.naming import resolve_kind
from env_server.simulators.notice_compose import Composer
from env_server.simulators.pack_sizes import text_kind
from env_server.simulators.public_money import public_money_kind
from env_server.simulators.rank_order import rank_plan
from env_server.simulators.records import POINT_ENTITIES
from env_server.simulators.sites import own_site
from env_server.simulators.values import KINDS, draw_kind, snake
from env_server.simulators.whole_lists import mark_whole, named_count, whole_count, whole_kinds

if TYPE_CHECKING:
    from env_server.catalog import Catalog
    from env_server.simulators.generate import Generation

_COORDINATES = frozenset({"lat", "latitude", "lng", "lon", "long", "longitude"})
_LOCATED = POINT_ENTITIES | {"postcode", "address", "postal"}

# A compiled schema node: (generation, series index or None) -> value.
Node = Callable[["Generation", "int | None"], Any]

# Compiled plans by (id(schema), name, parent, entity, id(hints)). A cache is kept by the
# owner of its schemas (the Catalog, for spec schemas: see ``plans_of``) and dies with it; an
# entry holds its schema and hints, so their ids can't be reused while it exists.
PlanCache = dict[tuple[int, str, str, str, int], tuple[Any, Any, Node]]


def plans_of(catalog: Catalog) -> PlanCache:
    """The plan cache of ``catalog``'s spec schemas, kept by the catalog."""
    cache: PlanCache = catalog.derived.get("plans", dict)
    return cache


def plan_for(plans: PlanCache, schema: Any, name: str, parent: str, entity: str, hints: Mapping[str, str]) -> Node:
    key = (id(schema), name, parent, entity, id(hints))
    hit = plans.get(key)
    if hit is None:
        hit = (schema, hints, _compile(plans, schema, name, parent, entity, hints))
        plans[key] = hit
    return hit[2]


def _compile(plans: PlanCache, schema: Any, name: str, parent: str, entity: str, hints: Mapping[str, str]) -> Node:
    if not isinstance(schema, dict):
        return lambda gen, index: draw_kind("tag", gen)
    if "const" in schema:
        const = schema["const"]
        return lambda gen, index: const
    inner = _compile_value(plans, schema, name, parent, entity, hints)
    if not name:
        return inner
    snake_name = snake(name)
    # The center of a nearby search is not where each place (or item) it finds lies.
    centered = snake_name in _COORDINATES
    # Rows that are points of their own (pois, postcodes): theirs, wherever the search centred.
    located = centered and not frozenset(entity.lower().split("_")).isdisjoint(_LOCATED)
    if hints.get(name, "").startswith("input_"):  # read off the call's text, not a copy of an argument
        return inner
    # An argument's echo (imported specs mark it) is left out when the call did not send it.
    fallback = _omitted if schema.get(ECHO_KEY) is True else inner
    enum = schema["enum"] if isinstance(schema.get("enum"), list) and schema["enum"] else None

    def echo_or_generate(gen: Generation, index: int | None) -> Any:
        args = gen.args
        # An output field named like an argument repeats it, when it fits the schema.
        if args and not (centered and gen.scope.fresh and (located or gen.lists_places or not gen.scope.is_top)):
            value = args.get(name, MISSING)
            if value is MISSING:
                snaked = gen._args_snake
                if snaked is None:
                    snaked = gen._args_snake = {snake(k): v for k, v in args.items()}
                value = snaked.get(snake_name, MISSING)
            if enum is not None and type(value) is str:
                value = enum_member(value, enum)  # "Democrat" asks for the listed "Democratic"
            if value is not MISSING and fits_schema(value, schema) and (
                    type(value) is not str or len(value) <= LONG_ECHO_CHARS or gen.scope.is_top) and (
                    gen.scope.is_top or snake_name not in gen.record_only):
                return value
        return fallback(gen, index)

    return echo_or_generate


def _omitted(gen: Generation, index: int | None) -> Any:
    return MISSING


def _compile_value(plans: PlanCache, schema: dict[str, Any], name: str, parent: str, entity: str, hints: Mapping[str, str]) -> Node:
    enum = schema.get("enum")
    typ = schema.get("type", "string")
    if isinstance(typ, list):
        typ = next((t for t in typ if t != "null"), "null")
    fixed = _clock_node(schema, name, parent, typ, hints) or http_status_node(name, schema)
    if fixed is not None:  # a moment of the record's clock, or an answer's HTTP status
        return fixed
    if isinstance(enum, list) and enum:
        entry = entry_field_kind(name, entity) if name not in hints else None  # a cocktail's glass
        return compile_enum(enum, name, hints, geo_enum_kind(name, entity, parent, hints) or entry)
    if typ == "object":
        return _compile_object(plans, schema, name, entity, hints)
    if typ == "array":
        return _compile_array(plans, schema, name, entity, hints)
    if typ == "boolean":
        return compile_boolean(name, resolve_kind(name, entity, parent, hints))
    if typ == "null":
        return lambda gen, index: None
    kind = timeline.moment_kind(name, text_kind(name, _scalar_kind(name, parent, entity, typ, hints), typ),
                                schema.get("format"))  # a pack size as text: "400 g", not "34.9"
    if kind == "url" and own_site(name, entity):  # a website, a destination: not the provider's page
        kind = "own_url"
    if typ == "integer" and (epoch := epoch_node(name, kind, schema, parent)) is not None:
        return epoch  # a moment as Unix time (epoch_kinds)
    if typ in ("integer", "number"):
        return compile_number(schema, typ, kind)
    return compile_string(schema, name, parent, entity, kind)


def _clock_node(schema: dict[str, Any], name: str, parent: str, typ: str, hints: Mapping[str, str]) -> Node | None:
    """An offset, a DST flag, a local time, a sunrise: follows the record's place and the clock.
    A hint naming a moment of the record (OpenUV's sunrise on the day asked) beats the name's."""
    if typ in ("object", "array") or hints.get(name) in FACT_DATES:
        return None
    clock = clock_kind(name, parent, typ, schema, hints.get(name))
    if clock is None:
        return None
    derive, enum = KINDS[clock], schema.get("enum")
    if isinstance(enum, list) and enum:
        return lambda gen, index: v if (v := derive(gen)) in enum else gen.rng.choice(enum)
    return lambda gen, index: derive(gen)


def _scalar_kind(name: str, parent: str, entity: str, typ: str, hints: Mapping[str, str]) -> str | None:
    """The kind of a number or string: the domain modules' (rates, magnitudes, wave heights,
    figures, media, content) before the name's and hint's."""
    hint = hints.get(name)
    return (fx_kind(name, entity, parent, hint) or magnitude_kind(name, parent, hint)
            or marine_kind(name, entity, parent, hint) or figure_kind(name, entity, hint)
            or media_kind(name, entity, parent, hint, typ) or content_kind(name, entity, hint)
            or (public_money_kind(name, entity, hint) if typ in ("integer", "number") else None)
            or (entry_field_kind(name, entity) if hint is None else None)  # a cocktail's method
            or resolve_kind(name, entity, parent, hints))


def _leave_empty(gen: Generation, index: int | None) -> str:
    return ""


def _compile_object(plans: PlanCache, schema: dict[str, Any], name: str, entity: str, hints: Mapping[str, str]) -> Node:
    props = schema.get("properties") or {}
    if not props:
        if schema.get("additionalProperties", True) is not False:
            return lambda gen, index: {"value": draw_kind("tag", gen)}
        return lambda gen, index: {}
    # Only the time axis of a series item steps with the item index; other dates stay random.
    children = tuple((k, plan_for(plans, sub, k, name, entity, hints), timeline.is_series_axis(k, name, entity))
                     for k, sub in props.items())
    rules = invariants.rules_for(props)
    may_omit = any(isinstance(sub, dict) and sub.get(ECHO_KEY) is True for sub in props.values())
    stats = numeric.stat_groups(props)
    paged = paging.binds_pages(props, any(isinstance(s, dict) and s.get("type") == "array" for s in props.values()))
    intervals = timeline.pairs(props)
    period = "period" in props and "year" in props
    steps = record_steps.steps_for(name, entity, props)  # nutrient tables, Bible verses (record_steps)
    # Fields a step composes whole (a notice's text) are not drawn first.
    written = frozenset(k for step in steps if isinstance(step, Composer) for k in step.writes)
    if written:
        children = tuple((k, _leave_empty if k in written else child, series) for k, child, series in children)

    def record(gen: Generation, index: int | None) -> dict[str, Any]:
        # One scope per record: its fields share a place, an instrument, a title. Array
        # items (index set) start fresh; nested objects share their parent's anchors.
        outer = gen.enter(index is not None, index or 0)
        try:
            out = {k: child(gen, index if series else None) for k, child, series in children}
            if may_omit:
                out = {k: v for k, v in out.items() if v is not MISSING}
            for step in steps:  # in the record's own scope: its place, its instrument
                step(out, gen, index)
        finally:
            gen.scope = outer
        if rules:
            invariants.enforce(out, gen.args, rules)
        if stats:
            numeric.enforce_stats(out, stats)
        if paged:
            paging.page_record(out, gen.args, props)
        if intervals:
            timeline.order_times(out, intervals, gen.now)
        if period:
            timeline.label_period(out)
        return out

    return record


def _compile_array(plans: PlanCache, schema: dict[str, Any], name: str, entity: str, hints: Mapping[str, str]) -> Node:
    lo = int(schema.get("minItems", 0))
    hi = int(schema.get("maxItems", 10_000))
    items: dict[str, Any] = schema["items"] if isinstance(schema.get("items"), dict) else {"type": "string"}
    objects = items.get("type") == "object"
    unique = bool(schema.get("uniqueItems"))
    sampled = sampled_enum(items, unique)
    item_name = _item_name(name, objects, hints)
    child = plan_for(plans, items, item_name, name, entity, hints)
    item_props: dict[str, Any] = items.get("properties") or {} if objects else {}
    whole = geo_array(name, items, entity, child, schema)
    if whole is not None:  # a country's languages, a point's bounding box: one list, not items
        return whole if hi >= 10_000 else capped(whole, hi)  # the schema's maxItems still holds
    # A rate table lists the call's targets (on each day of a series), not a random count.
    fx_sized = sizes_list([fx_kind(k, entity, item_name, hints.get(k)) for k in item_props])
    listed = resolve_kind(name, entity, "", hints) if items.get("type", "string") == "string" else None
    fact_list = fixed_count(name, item_name, entity, item_props, hints)
    # Items on a time axis: a series steps (and fits the call's window), found items are sorted.
    axis = next((k for k in item_props if timeline.is_series_axis(k, item_name, entity)), None)
    stepping = axis is not None
    step = timeline.cadence(item_name, entity, axis or "")
    when = timeline.when_key(item_props) if objects else None
    tides = set((item_props.get("type") or {}).get("enum") or ()) == {"high", "low"} and stepping
    if listed is not None and "." in listed:  # a record vocabulary's list field: dog_breed.sub_breeds
        return vocab_list(listed, lo, hi)

    whole_vocab = whole_kinds(item_props, hints) if objects else ()  # every dog breed, not three
    stationed = not STATION_FIELDS.isdisjoint(item_props)  # one report per station asked (metar)
    ranked = rank_plan(item_props) if objects else None  # a chart counts 1, 2, 3 from its top (rank_order)
    coins_found = _found_count(entity, item_props) if objects else None  # a coin search finds named coins

    def array(gen: Generation, index: int | None) -> list[Any]:
        n = gen.fx.count if fx_sized else gen.rng.randint(3, 5) if objects else gen.rng.randint(1, 4)
        if fact_list is not None:
            n = fact_list(gen)
        if whole_vocab and (every := whole_count(gen, whole_vocab)) is not None:
            mark_whole(gen.scope, every[0])
            return [child(gen, i) for i in range(max(lo, min(hi, every[1])))]
        n = max(lo, min(hi, asked_count(gen, n, objects, step if stepping else None, stationed)))
        if coins_found is not None and (found := coins_found(gen)) is not None:
            n = max(lo, min(n, found))
        elif whole_vocab and (named := named_count(gen, whole_vocab)) is not None:
            n = max(lo, min(n, named))
        if sampled is not None:
            return gen.rng.sample(sampled, min(n, len(sampled)))
        sent = sent_records(gen, name) if objects else None
        if sent is not None:  # the caller's own records (travelers, line items): theirs, in their order
            return [echo_record(child(gen, i), v, item_props) for i, v in enumerate(sent[:hi])]
        out = arrange([child(gen, i) for i in range(n)], gen, when, stepping, tides, unique or not objects, lo,
                      lambda k: child(gen, k))
        return ranked.apply(out, gen.args) if ranked is not None else out

    return array


def _found_count(entity: str, item_props: Mapping[str, Any]) -> Callable[[Generation], int | None] | None:
    """How many rows a search of named entries finds: the coins, the drinks the call names."""
    return coin_search_count(entity, item_props) or drink_search_count(entity, item_props)


def _item_name(name: str, objects: bool, hints: Mapping[str, str]) -> str:
    """An item's name: its array's singular; a scalar item takes the hint written for its array
    ("skills": "skill") when its singular name has none."""
    return name if not objects and name in hints and singular(name) not in hints else singular(name)


def singular(name: str) -> str:
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith("ss"):
        return name[:-1]
    return name
