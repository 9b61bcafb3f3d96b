"""Schema compilation: each output schema becomes a tree of closures, once.

Every decision that depends only on the schema, the field's name and place, the entity
and the profile hints (type, enum, format, value kind, length limits, which children step
with a series index) is taken once per schema node; the closures draw from the call's
``Generation`` in the order the decisions imply. Objects open a ``RecordScope`` and
enforce the record's invariants; arrays echo the caller's own records where given.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.catalog.infer import ECHO_KEY
from env_server.simulators import invariants, numeric, paging, record_steps, timeline
from env_server.simulators.clock_kinds import clock_kind
from env_server.simulators.content_kinds import content_kind
from env_server.simulators.epoch_kinds import epoch_node
from env_server.simulators.fx import fx_kind, sizes_list
from env_server.simulators.geo_kinds import BOOLEAN_KINDS
from env_server.simulators.geo_naming import geo_array, geo_enum_kind
from env_server.simulators.journey_kinds import JOURNEY_MOMENTS
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
from env_server.simulators.own_title import names_the_record
from env_server.simulators.pack_sizes import text_kind
from env_server.simulators.records import POINT_ENTITIES
from env_server.simulators.sites import own_site
from env_server.simulators.uv_kinds import UV_MOMENTS
from env_server.simulators.values import KINDS, draw_kind, snake
from env_server.simulators.whole_lists import mark_whole, whole_count, whole_kinds

if TYPE_CHECKING:
    from env_server.catalog import Catalog
    from env_server.simulators.generate import Generation

DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# Echoes accept a local time without an offset ("2026-03-20T09:00:00"), as calendars send it.
_DATETIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$")
LIVE_STATUSES = frozenset(
    {"active", "onsale", "on_sale", "open", "available", "confirmed", "ok", "success", "published", "scheduled",
     "live", "in_stock", "operational", "enabled", "completed", "approved"}
)
_FACT_DATES = frozenset(
    {"air_date", "holiday_date", "departure_time", "arrival_time", "local_time", "fx_day", "fx_series_end"}
    | UV_MOMENTS | JOURNEY_MOMENTS
)
_AFFIRMATIVE = re.compile(r"^(success|ok|found|valid|available|enabled|is_valid|verified|exists|status_ok)$")

_COORDINATES = frozenset({"lat", "latitude", "lng", "lon", "long", "longitude"})
_LOCATED = POINT_ENTITIES | {"postcode", "address", "postal"}
# A string argument longer than this is echoed only into the call's own record, not into
# each listed item or nested record: a filter repeated in every search hit turned a 4 MB
# argument into a 40 MB answer. Short values (a city, a status) repeat as a real API's do.
LONG_ECHO_CHARS = 256


def short_values(args: Mapping[str, Any]) -> dict[str, Any]:
    """``args`` without long strings: the context rows are rendered in, once per row."""
    return {k: v for k, v in args.items() if not isinstance(v, str) or len(v) <= LONG_ECHO_CHARS}

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
    # The center of a nearby search is not where each place it finds lies.
    centered = snake_name in _COORDINATES
    # Rows that are points of their own (pois, postcodes): theirs, wherever the search centred.
    located = centered and not frozenset(entity.lower().split("_")).isdisjoint(_LOCATED)
    if hints.get(name, "").startswith("input_"):  # read off the call's text, not a copy of an argument
        return inner
    # An argument's echo (imported specs mark it) is left out when the call did not send it.
    fallback = _omitted if schema.get(ECHO_KEY) is True else inner

    def echo_or_generate(gen: Generation, index: int | None) -> Any:
        args = gen.args
        # An output field named like an argument repeats it, when it fits the schema.
        if args and not (centered and gen.scope.fresh and (located or gen.lists_places)):
            value = args.get(name, MISSING)
            if value is MISSING:
                snaked = gen._args_snake
                if snaked is None:
                    snaked = gen._args_snake = {snake(k): v for k, v in args.items()}
                value = snaked.get(snake_name, MISSING)
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
    clock = _clock_node(schema, name, parent, typ, hints)
    if clock is not None:
        return clock
    if isinstance(enum, list) and enum:
        return _compile_enum(enum, name, hints, geo_enum_kind(name, entity, parent, hints))
    if typ == "object":
        return _compile_object(plans, schema, name, entity, hints)
    if typ == "array":
        return _compile_array(plans, schema, name, entity, hints)
    if typ == "boolean":
        return _compile_boolean(name, resolve_kind(name, entity, parent, hints))
    if typ == "null":
        return lambda gen, index: None
    kind = timeline.moment_kind(name, text_kind(name, _scalar_kind(name, parent, entity, typ, hints), typ),
                                schema.get("format"))  # a pack size as text: "400 g", not "34.9"
    if kind == "url" and own_site(name, entity):  # a website, a destination: not the provider's page
        kind = "own_url"
    if typ == "integer" and (epoch := epoch_node(name, kind, schema, parent)) is not None:
        return epoch  # a moment as Unix time (epoch_kinds)
    if typ in ("integer", "number"):
        return _compile_number(schema, typ, kind)
    return _compile_string(schema, name, parent, entity, kind)


def _clock_node(schema: dict[str, Any], name: str, parent: str, typ: str, hints: Mapping[str, str]) -> Node | None:
    """An offset, a DST flag, a local time, a sunrise: follows the record's place and the clock.
    A hint naming a moment of the record (OpenUV's sunrise on the day asked) beats the name's."""
    if typ in ("object", "array") or hints.get(name) in _FACT_DATES:
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
            or resolve_kind(name, entity, parent, hints))


def _compile_enum(enum: list[Any], name: str, hints: Mapping[str, str], geo: str | None = None) -> Node:
    if hints.get(name) in KINDS or geo is not None or "." in hints.get(name, ""):
        # A hinted kind narrows an enum: the record's own value when the enum holds it (a
        # record vocabulary's field too: a service's code agrees with its name).
        chosen = geo or hints[name]
        narrowed = KINDS.get(chosen) or (lambda gen: draw_kind(chosen, gen))
        cased = {e.lower(): e for e in enum if isinstance(e, str)}  # "Animalia" is the enum's "ANIMALIA"
        return lambda gen, index: v if (v := narrowed(gen)) in enum else cased.get(
            str(v).lower()) or gen.rng.choice(enum)
    # Most things a search finds are live; an occasional odd status stays possible.
    live = [v for v in enum if isinstance(v, str) and v.lower() in LIVE_STATUSES] if name == "status" else []
    if live:
        return lambda gen, index: gen.rng.choice(live) if gen.rng.random() < 0.85 else gen.rng.choice(enum)
    return lambda gen, index: gen.rng.choice(enum)


def _compile_boolean(name: str, kind: str | None = None) -> Node:
    if kind in BOOLEAN_KINDS:  # a fact of the record ("is_dst" of its time zone)
        draw = KINDS[kind]
        return lambda gen, index: bool(draw(gen))
    if _AFFIRMATIVE.search(snake(name)):  # "success": true, as a working API answers
        return lambda gen, index: True
    return lambda gen, index: gen.rng.random() < 0.5


def _compile_number(schema: dict[str, Any], typ: str, kind: str | None) -> Node:
    """A number of its kind, kept within the schema's bounds (a kind's own value keeps its
    precision; a fallback draw is rounded to cents)."""
    lo = schema.get("minimum", schema.get("exclusiveMinimum"))
    hi = schema.get("maximum", schema.get("exclusiveMaximum"))
    ex_lo, ex_hi = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    draw = KINDS.get(kind) if kind is not None else None
    if draw is None and kind is not None and "." in kind:  # a record vocabulary's number: vision_model.classes
        draw = lambda gen: draw_kind(kind, gen)
    integer = typ == "integer"
    a = lo if lo is not None else (0 if integer else 0.0)
    b = hi if hi is not None else a + 1000

    def number(gen: Generation, index: int | None) -> int | float:
        value: Any = draw(gen) if draw is not None else None
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            value = None
        drawn = value is not None
        if value is None:
            if kind == "id" and integer:
                value = gen.rng.randint(1000, 999_999)
            else:
                value = gen.rng.randint(int(a), int(b)) if integer else round(gen.rng.uniform(a, b), 2)
        if lo is not None and value < lo or hi is not None and value > hi:
            # The test above holds only with a bound set, so the missing one is derived from the other.
            value = gen.rng.uniform(lo if lo is not None else hi - 100, hi if hi is not None else lo + 100)  # type: ignore[operator]
            drawn = False
        if integer:
            value = int(round(value))
            if ex_lo is not None and value <= ex_lo:
                value = int(ex_lo) + 1
            if ex_hi is not None and value >= ex_hi:
                value = int(ex_hi) - 1
        else:
            value = float(value) if drawn else round(float(value), 2)
        if lo is not None and value < lo:
            value = type(value)(lo)
        if hi is not None and value > hi:
            value = type(value)(hi)
        return value

    return number


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

    def array(gen: Generation, index: int | None) -> list[Any]:
        n = gen.fx.count if fx_sized else gen.rng.randint(3, 5) if objects else gen.rng.randint(1, 4)
        if fact_list is not None:
            n = fact_list(gen)
        if whole_vocab and (every := whole_count(gen, whole_vocab)) is not None:
            mark_whole(gen.scope, every[0])
            return [child(gen, i) for i in range(max(lo, min(hi, every[1])))]
        n = max(lo, min(hi, asked_count(gen, n, objects, step if stepping else None, stationed)))
        if sampled is not None:
            return gen.rng.sample(sampled, min(n, len(sampled)))
        sent = sent_records(gen, name) if objects else None
        if sent is not None:  # the caller's own records (travelers, line items): theirs, in their order
            return [_echo_record(child(gen, i), v, item_props) for i, v in enumerate(sent[:hi])]
        return arrange([child(gen, i) for i in range(n)], gen, when, stepping, tides, unique or not objects, lo,
                       lambda k: child(gen, k))

    return array


def _item_name(name: str, objects: bool, hints: Mapping[str, str]) -> str:
    """An item's name: its array's singular; a scalar item takes the hint written for its array
    ("skills": "skill") when its singular name has none."""
    return name if not objects and name in hints and singular(name) not in hints else singular(name)


def _compile_string(schema: dict[str, Any], name: str, parent: str, entity: str, kind: str | None) -> Node:
    fmt = schema.get("format")
    base: Node
    if kind in _FACT_DATES:  # a fact of the record, not a point on a series axis
        cut = 10 if fmt == "date" else None
        base = lambda gen, index: str(draw_kind(kind, gen))[:cut]
    elif kind in timeline.DRAWN_KINDS:  # a birth date, a moment past: not on the series axis
        base = lambda gen, index: timeline.as_format(str(draw_kind(kind, gen)), fmt)
    elif fmt == "date" or fmt == "date-time":
        base = lambda gen, index: gen._dated(fmt, kind, index, parent, name)
    elif fmt in ("email", "uuid", "uri", "url", "uri-reference"):
        draw = KINDS["email" if fmt == "email" else "uuid" if fmt == "uuid" else
                     kind if kind is not None and kind.endswith("_url") and kind in KINDS else
                     "own_url" if own_site(name, entity) else "url"]
        base = lambda gen, index: draw(gen)
    elif fmt == "time":
        base = lambda gen, index: f"{gen.rng.randint(0, 23):02d}:{gen.rng.choice((0, 30)):02d}:00"
    else:
        plain = _compile_plain_string(name, entity, kind)
        if kind in ("date", "past_date", "future_date", "datetime", timeline.STAMPED):
            dfmt = "date-time" if kind in ("datetime", timeline.STAMPED) else "date"
            windowed = kind == timeline.STAMPED  # a stamp of now, unless the call asks about a window
            base = lambda gen, index: gen._dated(dfmt, kind, index, parent, name) if index is not None or windowed \
                else plain(gen)
        else:
            base = lambda gen, index: plain(gen)
    lo, hi = schema.get("minLength"), schema.get("maxLength")
    if not isinstance(lo, int) and not isinstance(hi, int):
        return base

    def clamped(gen: Generation, index: int | None) -> str:
        value = base(gen, index)
        if isinstance(hi, int) and len(value) > hi:
            value = value[:hi]
        if isinstance(lo, int) and len(value) < lo:
            value = value + "x" * (lo - len(value))
        return value

    return clamped


def _compile_plain_string(name: str, entity: str, kind: str | None) -> Callable[[Generation], str]:
    """A string with no format: an id, or a value of its kind (a tag when none fits)."""
    if kind == "id":
        stem = snake(name)
        entity_prefix = id_prefix(entity.lower(), "item")
        prefix = id_prefix(stem[:-3] if stem.endswith("_id") else entity_prefix, entity_prefix)
        return lambda gen: f"{prefix}_{gen.rng.getrandbits(40):010x}"
    if kind == "duration_minutes":  # a duration as text: ISO 8601, as APIs write it ("PT13H40M")
        return lambda gen: _iso_duration(int(draw_kind("duration_minutes", gen)))
    chosen_kind = kind or "tag"
    if names_the_record(name, entity, kind):  # the record's title: its page slug repeats it
        return lambda gen: str(gen.scope.once("title", lambda: str(draw_kind(chosen_kind, gen))))
    return lambda gen: str(draw_kind(chosen_kind, gen))


def _iso_duration(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    return f"PT{hours}H{rest}M" if hours else f"PT{rest}M"


def _echo_record(made: Any, sent: dict[str, Any], props: dict[str, Any]) -> Any:
    """A generated record with the caller's values laid over it, matched by snake_case name
    ("firstName" fills "first_name") where they fit the field."""
    if not isinstance(made, dict):
        return made
    by_snake = {snake(k): v for k, v in sent.items()}
    for key, sub in props.items():
        value = by_snake.get(snake(key), MISSING)
        if value is not MISSING and isinstance(sub, dict) and fits_schema(value, sub):
            made[key] = value
    return made


MISSING: Any = object()


@functools.lru_cache(maxsize=4096)
def id_prefix(stem: str, default: str = "") -> str:
    return re.sub(r"[^a-z0-9]", "", stem)[:4] or default


def singular(name: str) -> str:
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith("ss"):
        return name[:-1]
    return name


_TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def fits_schema(value: Any, schema: dict[str, Any]) -> bool:
    """Cheap check that a scalar satisfies a schema's type, enum, range and format."""
    typ = schema.get("type")
    if isinstance(typ, list):
        return any(fits_schema(value, {**schema, "type": t}) for t in typ)
    if typ is not None and not (typ in _TYPE_CHECKS and _TYPE_CHECKS[typ](value)):
        return False  # the wrong scalar type; arrays/objects are generated, not echoed
    if "enum" in schema and value not in schema["enum"]:
        return False
    if "const" in schema and value != schema["const"]:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _fits_range(value, schema)
    if isinstance(value, str):
        return _fits_string(value, schema)
    return True


def _fits_range(value: float, schema: dict[str, Any]) -> bool:
    return not ("minimum" in schema and value < schema["minimum"] or "maximum" in schema and value > schema["maximum"])


def _fits_string(value: str, schema: dict[str, Any]) -> bool:
    """Format (date, date-time, email, uri/url) and length."""
    fmt = schema.get("format")
    if fmt == "date" and not DATE_RE.match(value) or fmt == "date-time" and not _DATETIME_RE.match(value):
        return False
    if fmt in ("email", "uri", "url") and ("@" not in value if fmt == "email" else "://" not in value):
        return False
    return not (len(value) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", 1 << 30))
