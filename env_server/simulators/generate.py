"""Schema-driven value generation: one JSON value per output schema, seeded and realistic.

``Generation`` carries everything one call's generation needs: the seeded RNG, the
session clock, the call's arguments (for echoing) and the profile hints. ``fill`` runs a
plan compiled once per schema node that honours ``type``, ``enum``, ``const``,
``minimum``/``maximum``, ``minLength``/``maxLength``, ``minItems``/``maxItems`` and
``format``, so every output validates against the tool's output schema by construction.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Mapping
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from types import MappingProxyType
from typing import Any

from env_server.simulators import invariants
from env_server.simulators.market import InstrumentFact, SessionMarket
from env_server.simulators.naming import PLACE_ENTITIES, resolve_kind
from env_server.simulators.records import (
    AIRPORT_ARGS,
    BASE_ARGS,
    CURRENCY_ARGS,
    DEST_AIRPORT_ARGS,
    INSTRUMENT_ARGS,
    LAT_ARGS,
    LON_ARGS,
    LOOSE_PLACE_ARGS,
    PLACE_ARGS,
    POINT_ENTITIES,
    RecordScope,
    WorldFacts,
    _arg_number,
    _arg_text,
    default_facts,
)
from env_server.simulators.reference import AirportFact, PlaceFact
from env_server.simulators.rng import SimRandom
from env_server.simulators.values import KINDS, draw_kind, snake
from state.encoding import encode_canonical, sha256

_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# Echoes accept a local time without an offset ("2026-03-20T09:00:00"), as calendars send it.
_DATETIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$")
_LIMIT_ARGS = ("limit", "count", "max_results", "per_page", "page_size", "size", "top", "n", "num_results", "results")
SERIES_FIELDS = frozenset({"date", "time", "day", "datetime", "timestamp", "hour", "valid_date", "forecast_date", "dt"})
LIVE_STATUSES = frozenset(
    {"active", "onsale", "on_sale", "open", "available", "confirmed", "ok", "success", "published", "scheduled",
     "live", "in_stock", "operational", "enabled", "completed", "approved"}
)
_QUERY_ARGS = ("query", "q", "keyword", "keywords", "search", "term", "search_term")
_FACT_DATES = frozenset({"holiday_date", "departure_time", "arrival_time"})
_AFFIRMATIVE = re.compile(r"^(success|ok|found|valid|available|enabled|is_valid|verified|exists|status_ok)$")
_WEATHER_WORDS = frozenset({"weather", "forecast", "current", "observation", "climate", "air", "quality", "uv",
                            "astronomy", "sun", "sunrise", "marine", "geocode", "timezone", "pollen", "alert"})
_CRYPTO_WORDS = frozenset({"coin", "crypto", "cryptocurrency", "token", "asset", "market", "exchange_rate"})
_QUOTE_WORDS = frozenset({"quote", "stock", "ticker", "coin", "crypto", "cryptocurrency", "price", "candle",
                          "ohlc", "bar", "token", "asset", "trade"})


def canonical_args(args: dict[str, Any]) -> str:
    """Arguments as canonical JSON: sorted keys, no spaces, UTF-8 kept."""
    return encode_canonical(args)


def call_seed(tool: str, args: dict[str, Any], seed: int, args_json: str | None = None) -> int:
    """Stable 64-bit seed from the tool name, canonical arguments and session seed.

    The hashed text is the canonical JSON of ``[tool, args, seed]``; ``args_json`` (from
    ``canonical_args``) spares encoding the arguments a second time.
    """
    if args_json is None:
        args_json = canonical_args(args)
    blob = f"[{encode_basestring(tool)},{args_json},{int(seed)}]"
    return int.from_bytes(sha256(blob.encode("utf-8")).digest()[:8], "big")


# A compiled schema node: (generation, series index or None) -> value.
Node = Callable[["Generation", "int | None"], Any]
_NO_HINTS: Mapping[str, str] = MappingProxyType({})


class Generation:
    """Per-call generation state: a random generator seeded for this call alone, the
    session's clock and market, and the stack of records being built."""

    def __init__(
        self,
        seed: int,
        today: dt.date,
        args: dict[str, Any],
        entity: str = "item",
        hints: Mapping[str, str] = _NO_HINTS,  # one shared object: plans key on it
        searching: bool = False,
        *,
        session_seed: int = 0,
        now: dt.datetime | None = None,
        facts: WorldFacts | None = None,
        current: bool = False,
    ) -> None:
        self.seed = seed
        self.today = today
        self.args = args
        self.entity = entity
        self.hints = hints
        self.searching = searching
        self.rng = SimRandom(seed)
        self.id_prefix = id_prefix(entity.lower(), "item")
        self.now = now or dt.datetime.combine(today, dt.time(9, 0))
        self.facts = facts or default_facts()
        self.session_seed = session_seed
        self.current = current  # "latest"/"current" data: dated today
        self.scope = RecordScope(self, None, fresh=True)
        self._args_snake: dict[str, Any] | None = None  # built on the first echo miss

    @functools.cached_property
    def _query(self) -> str | None:
        return next((v for k in _QUERY_ARGS if isinstance(v := self.args.get(k), str) and v), None)

    @functools.cached_property
    def market(self) -> SessionMarket:
        return SessionMarket(self.facts.market_table, self.session_seed)

    @functools.cached_property
    def draw_offset(self) -> int:
        return self.rng.randrange(1 << 16)

    def fill(self, schema: Any, name: str = "", index: int | None = None, parent: str = "") -> Any:
        """One value for ``schema``. The schema is compiled once to a tree of closures
        (see ``_compile``); a call then only draws values and echoes arguments."""
        return _plan(schema, name, parent, self.entity, self.hints)(self, index)

    def enter(self, fresh: bool, index: int) -> RecordScope:
        scope = self.scope
        self.scope = RecordScope(self, scope, fresh=fresh, index=index)
        return scope

    # -- what the call's arguments name ------------------------------------------------

    @functools.cached_property
    def _call_place(self) -> PlaceFact | None:
        ref = self.facts.reference
        lat, lon = _arg_number(self.args, LAT_ARGS), _arg_number(self.args, LON_ARGS)
        if lat is not None and lon is not None and -90 <= lat <= 90 and -180 <= lon <= 180:
            return ref.nearest_place(lat, lon)
        names = PLACE_ARGS + LOOSE_PLACE_ARGS if self._place_minded else PLACE_ARGS
        for key in names:
            text = _arg_text(self.args, (key,))
            if text is not None and len(text) <= 80:
                found = ref.find_place(text)
                if found is not None:
                    return found
        airport = self.call_airport("origin")
        return ref.find_place(airport.city) if airport is not None else None

    @functools.cached_property
    def _place_minded(self) -> bool:
        words = set(self.entity.lower().split("_"))
        return bool(words & (PLACE_ENTITIES | POINT_ENTITIES | _WEATHER_WORDS))

    @functools.cached_property
    def lists_places(self) -> bool:
        """Whether the records themselves are places (a list of cities, not of hotels)."""
        return bool(set(self.entity.lower().split("_")) & PLACE_ENTITIES)

    def call_place(self) -> PlaceFact | None:
        return self._call_place

    def call_radius(self) -> float | None:
        value = _arg_number(self.args, ("radius", "radius_km", "max_distance"))
        if value is None:
            meters = _arg_number(self.args, ("radius_m", "radius_meters"))
            value = meters / 1000 if meters is not None else None
        return value if value is not None and value > 0 else None

    def call_airport(self, role: str) -> AirportFact | None:
        names = AIRPORT_ARGS if role == "origin" else DEST_AIRPORT_ARGS
        text = _arg_text(self.args, names)
        if text is None:
            return None
        ref = self.facts.reference
        hit = ref.airport(text.strip()) if len(text.strip()) == 3 else None
        if hit is None:
            place = ref.find_place(text)
            hit = ref.main_airport(place) if place is not None else None
        return hit

    @functools.cached_property
    def _call_instruments(self) -> tuple[InstrumentFact, ...]:
        table = self.facts.market_table
        found: list[InstrumentFact] = []
        for key in INSTRUMENT_ARGS:
            value = self.args.get(key)
            texts = value if isinstance(value, list) else str(value).split(",") if isinstance(value, str) else []
            for text in texts:
                hit = table.find(str(text)) if str(text).strip() else None
                if hit is not None and hit not in found:
                    found.append(hit)
        return tuple(found)

    def call_instruments(self) -> tuple[InstrumentFact, ...]:
        return self._call_instruments

    def call_currency(self) -> str | None:
        text = _arg_text(self.args, CURRENCY_ARGS)
        code = text.split(",")[0].strip().upper() if text else None
        return code if code and code in self.facts.market_table.fx_per_usd else None

    def is_crypto(self) -> bool:
        named = self._call_instruments
        if named:
            return named[0].kind == "crypto"
        return bool(set(self.entity.lower().split("_")) & _CRYPTO_WORDS)

    def is_quote(self) -> bool:
        return bool(self._call_instruments) or bool(set(self.entity.lower().split("_")) & _QUOTE_WORDS)

    def quote_price(self, role: str) -> float:
        """The record's instrument today, in the call's currency (USD by default):
        ``close`` (the current price), ``open``, ``high``, ``low`` or ``previous_close``."""
        fact = self.scope.instrument()
        opened, high, low, close = self.market.day_range(fact.symbol, self.today)
        usd = {"open": opened, "high": high, "low": low, "close": close, "previous_close": opened}[role]
        per = self.market.per_usd(self.call_currency() or "USD", self.today) or 1.0
        value = usd * per
        return round(value, 2 if value >= 1 else 6)

    def is_trip(self) -> bool:
        """A flight, offer or fare between two airports the call names."""
        return self.call_airport("origin") is not None and self.call_airport("destination") is not None

    def call_date(self, names: tuple[str, ...]) -> dt.date | None:
        for key in names:
            value = self.args.get(key)
            if isinstance(value, str) and _DATE_RE.match(value[:10]):
                try:
                    return dt.date.fromisoformat(value[:10])
                except ValueError:
                    continue
        return None

    def names_currencies(self) -> bool:
        return self.call_currency() is not None or _arg_text(self.args, BASE_ARGS) is not None

    def current_time_text(self) -> str:
        """A time today, before the session's "now": when "current" data was observed."""
        minutes = self.now.hour * 60 + self.now.minute
        at = self.rng.randint(max(0, minutes - 90), max(0, minutes - 1))
        return f"{self.today.isoformat()}T{at // 60:02d}:{at % 60:02d}:00Z"

    def fx_rate(self) -> float:
        base = (_arg_text(self.args, BASE_ARGS) or "USD").split(",")[0].strip().upper()
        quote = self.call_currency() or ("EUR" if base != "EUR" else "USD")
        rate = self.market.rate(base, quote, self.today)
        return round(rate, 6) if rate is not None else round(self.rng.uniform(0.5, 2.0), 4)

    def car(self) -> tuple[str, str]:
        scope = self.scope
        if "car" not in scope.values:
            models = self.facts.reference.car_models
            vin = _arg_text(self.args, ("vin", "VIN"))
            decoded = self.facts.reference.decode_vin(vin) if vin else None
            make = decoded["make"] if decoded else None
            match = next((m for m in models if make and m.lower() == make.lower()), None)
            if match is None:
                makes = tuple(models)
                match = make or makes[self.rng.randrange(len(makes))]
            options = models.get(match) or ("Sedan",)
            scope.values["car"] = (match, options[self.rng.randrange(len(options))])
        car: tuple[str, str] = scope.values["car"]
        return car

    def now_text(self) -> str:
        return self.now.strftime("%Y-%m-%dT%H:%M:%SZ")

    def _number(self, schema: dict[str, Any], typ: str, kind: str | None) -> int | float:
        lo = schema.get("minimum", schema.get("exclusiveMinimum"))
        hi = schema.get("maximum", schema.get("exclusiveMaximum"))
        value: Any = None
        if kind in KINDS:
            value = KINDS[kind](self)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                value = None
        if value is None and kind == "id" and typ == "integer":
            value = self.rng.randint(1000, 999_999)
        if value is None:
            a = lo if lo is not None else (0 if typ == "integer" else 0.0)
            b = hi if hi is not None else (a + 1000)
            value = self.rng.randint(int(a), int(b)) if typ == "integer" else round(self.rng.uniform(a, b), 2)
        if lo is not None and value < lo or hi is not None and value > hi:
            value = self.rng.uniform(lo if lo is not None else hi - 100, hi if hi is not None else lo + 100)
        if typ == "integer":
            value = int(round(value))
            if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
                value = int(schema["exclusiveMinimum"]) + 1
            if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
                value = int(schema["exclusiveMaximum"]) - 1
            if lo is not None and value < lo:
                value = int(lo)
            if hi is not None and value > hi:
                value = int(hi)
            return value
        value = round(float(value), 2)
        if lo is not None and value < lo:
            value = float(lo)
        if hi is not None and value > hi:
            value = float(hi)
        return value

    def _dated(self, fmt: str, kind: str | None, index: int | None, parent: str) -> str:
        """Dates follow the session clock; items of a series step one day (or hour) apart."""
        if index is not None:
            base = self._anchor_date()
            step_hours = "hour" in parent.lower()
            if step_hours:
                moment = dt.datetime.combine(base, dt.time()) + dt.timedelta(hours=index)
                return moment.date().isoformat() if fmt == "date" else moment.strftime("%Y-%m-%dT%H:%M:00Z")
            day = base + dt.timedelta(days=index)
            return day.isoformat() if fmt == "date" else f"{day.isoformat()}T12:00:00Z"
        if kind in ("current_time", "now", "today") or self.current and kind in (None, "date", "datetime"):
            if fmt == "date":
                return self.today.isoformat()
            return self.now_text() if kind == "now" else self.current_time_text()
        if kind == "past_date":
            day = self.today - dt.timedelta(days=self.rng.randint(1, 730))
        elif kind == "future_date":
            day = self.today + dt.timedelta(days=self.rng.randint(1, 90))
        elif kind == "datetime" or (kind is None and fmt == "date-time"):
            day = self.today - dt.timedelta(days=self.rng.randint(0, 30))
        else:
            day = self.today + dt.timedelta(days=self.rng.randint(-30, 30))
        if fmt == "date":
            return day.isoformat()
        return f"{day.isoformat()}T{self.rng.randint(0, 23):02d}:{self.rng.choice((0, 15, 30, 45)):02d}:00Z"

    def _anchor_date(self) -> dt.date:
        for key in ("start_date", "startDate", "date", "from", "from_date", "start", "checkin", "date_from"):
            value = self.args.get(key)
            if isinstance(value, str) and _DATE_RE.match(value[:10]):
                try:
                    return dt.date.fromisoformat(value[:10])
                except ValueError:
                    continue
        return self.today

    def _limit(self) -> int | None:
        return next((v for k in _LIMIT_ARGS if isinstance(v := self.args.get(k), int) and not isinstance(v, bool)), None)


# -- schema compilation ---------------------------------------------------------------------
#
# Every decision that depends only on the schema, the field's name and place, the entity
# and the profile hints (type, enum, format, value kind, length limits, which children step
# with a series index) is taken once per schema node; the closures draw from the call's RNG
# in the same order the decisions imply, so a compiled plan is just a faster walk.

_PLANS: dict[tuple[int, str, str, str, int], tuple[Any, Any, Node]] = {}
_MAX_PLANS = 200_000


def _plan(schema: Any, name: str, parent: str, entity: str, hints: Mapping[str, str]) -> Node:
    key = (id(schema), name, parent, entity, id(hints))
    hit = _PLANS.get(key)
    # An entry holds the schema and hints themselves, so their ids can't be reused by other
    # objects while it exists.
    if hit is None:
        if len(_PLANS) >= _MAX_PLANS:  # schemas built on the fly must not grow it forever
            _PLANS.clear()
        hit = (schema, hints, _compile(schema, name, parent, entity, hints))
        _PLANS[key] = hit
    return hit[2]


def _compile(schema: Any, name: str, parent: str, entity: str, hints: Mapping[str, str]) -> Node:
    if not isinstance(schema, dict):
        return lambda gen, index: draw_kind("tag", gen)
    if "const" in schema:
        const = schema["const"]
        return lambda gen, index: const
    inner = _compile_value(schema, name, parent, entity, hints)
    if not name:
        return inner
    snake_name = snake(name)

    def echo_or_generate(gen: Generation, index: int | None) -> Any:
        args = gen.args
        # An output field named like an argument repeats it, when it fits the schema.
        if args:
            value = args.get(name, MISSING)
            if value is MISSING:
                snaked = gen._args_snake
                if snaked is None:
                    snaked = gen._args_snake = {snake(k): v for k, v in args.items()}
                value = snaked.get(snake_name, MISSING)
            if value is not MISSING and fits_schema(value, schema):
                return value
        return inner(gen, index)

    return echo_or_generate


def _compile_value(schema: dict[str, Any], name: str, parent: str, entity: str, hints: Mapping[str, str]) -> Node:
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        # Most things a search finds are live; an occasional odd status stays possible.
        live = [v for v in enum if isinstance(v, str) and v.lower() in LIVE_STATUSES] if name == "status" else []
        if live:
            return lambda gen, index: gen.rng.choice(live) if gen.rng.random() < 0.85 else gen.rng.choice(enum)
        return lambda gen, index: gen.rng.choice(enum)
    typ = schema.get("type", "string")
    if isinstance(typ, list):
        typ = next((t for t in typ if t != "null"), "null")
    if typ == "object":
        return _compile_object(schema, name, entity, hints)
    if typ == "array":
        return _compile_array(schema, name, entity, hints)
    if typ == "boolean":
        if _AFFIRMATIVE.search(snake(name)):  # "success": true, as a working API answers
            return lambda gen, index: True
        return lambda gen, index: gen.rng.random() < 0.5
    if typ == "null":
        return lambda gen, index: None
    kind = resolve_kind(name, entity, parent, hints)
    if typ in ("integer", "number"):
        return lambda gen, index: gen._number(schema, typ, kind)
    return _compile_string(schema, name, parent, entity, kind)


def _compile_object(schema: dict[str, Any], name: str, entity: str, hints: Mapping[str, str]) -> Node:
    props = schema.get("properties") or {}
    if not props:
        if schema.get("additionalProperties", True) is not False:
            return lambda gen, index: {"value": draw_kind("tag", gen)}
        return lambda gen, index: {}
    # Only the time axis of a series item steps with the item index; other dates stay random.
    children = tuple((k, _plan(sub, k, name, entity, hints), k.lower() in SERIES_FIELDS) for k, sub in props.items())
    rules = invariants.rules_for(props)

    def record(gen: Generation, index: int | None) -> dict[str, Any]:
        # One scope per record: its fields share a place, an instrument, a title. Array
        # items (index set) start fresh; nested objects share their parent's anchors.
        outer = gen.enter(index is not None, index or 0)
        try:
            out = {k: child(gen, index if series else None) for k, child, series in children}
        finally:
            gen.scope = outer
        if rules:
            invariants.enforce(out, gen.args, rules)
        return out

    return record


def _compile_array(schema: dict[str, Any], name: str, entity: str, hints: Mapping[str, str]) -> Node:
    lo = int(schema.get("minItems", 0))
    hi = int(schema.get("maxItems", 10_000))
    items = schema.get("items") if isinstance(schema.get("items"), dict) else {"type": "string"}
    objects = items.get("type") == "object"
    unique = bool(schema.get("uniqueItems"))
    enum = items.get("enum")
    sampled = enum if isinstance(enum, list) and enum and unique else None
    # A scalar item takes the hint written for its array ("skills": "skill") when its
    # singular name has none.
    item_name = name if items.get("type") != "object" and name in hints and singular(name) not in hints else singular(name)
    child = _plan(items, item_name, name, entity, hints)
    item_props = items.get("properties") or {} if objects else {}
    listed = resolve_kind(name, entity, "", hints) if items.get("type", "string") == "string" else None
    if listed is not None and "." in listed:  # a record vocabulary's list field: dog_breed.sub_breeds

        def vocab_list(gen: Generation, index: int | None) -> list[Any]:
            value = draw_kind(listed, gen)
            found = [str(v) for v in value] if isinstance(value, list) else [str(value)]
            return found[: max(lo, min(hi, len(found)))]

        return vocab_list

    def array(gen: Generation, index: int | None) -> list[Any]:
        n = gen.rng.randint(3, 5) if objects else gen.rng.randint(1, 4)
        limit = gen._limit()
        if limit is not None and limit > 0:
            n = min(n, limit)
        n = max(lo, min(hi, n))
        if sampled is not None:
            return gen.rng.sample(sampled, min(n, len(sampled)))
        sent = gen.args.get(name) if objects else None
        if isinstance(sent, list) and sent and all(isinstance(v, dict) for v in sent):
            # The caller's own records (travelers, line items): theirs, in their order.
            return [_echo_record(child(gen, i), v, item_props) for i, v in enumerate(sent[:hi])]
        out = [child(gen, i) for i in range(n)]
        if unique or not objects:  # a list of tags or names does not repeat itself
            uniq: list[Any] = []
            for v in out:
                if v not in uniq:
                    uniq.append(v)
            out = uniq if len(uniq) >= lo else out
        return out

    return array


def _compile_string(schema: dict[str, Any], name: str, parent: str, entity: str, kind: str | None) -> Node:
    fmt = schema.get("format")
    base: Node
    if kind in _FACT_DATES:  # a fact of the record, not a point on a series axis
        cut = 10 if fmt == "date" else None
        base = lambda gen, index: str(draw_kind(kind, gen))[:cut]  # noqa: E731
    elif fmt == "date" or fmt == "date-time":
        base = lambda gen, index: gen._dated(fmt, kind, index, parent)  # noqa: E731
    elif fmt in ("email", "uuid", "uri", "url", "uri-reference"):
        draw = KINDS["email" if fmt == "email" else "uuid" if fmt == "uuid" else
                     "image_url" if kind == "image_url" else "url"]  # noqa: E501
        base = lambda gen, index: draw(gen)  # noqa: E731
    elif fmt == "time":
        base = lambda gen, index: f"{gen.rng.randint(0, 23):02d}:{gen.rng.choice((0, 30)):02d}:00"  # noqa: E731
    else:
        plain = _compile_plain_string(name, entity, kind)
        if kind in ("date", "past_date", "future_date", "datetime"):
            dfmt = "date-time" if kind == "datetime" else "date"
            base = lambda gen, index: gen._dated(dfmt, kind, index, parent) if index is not None else plain(gen)  # noqa: E731
        else:
            base = lambda gen, index: plain(gen)  # noqa: E731
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
    if typ in _TYPE_CHECKS:
        if not _TYPE_CHECKS[typ](value):
            return False
    elif typ is not None:
        return False  # arrays/objects are generated, not echoed
    if "enum" in schema and value not in schema["enum"]:
        return False
    if "const" in schema and value != schema["const"]:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"] or "maximum" in schema and value > schema["maximum"]:
            return False
    if isinstance(value, str):
        fmt = schema.get("format")
        if fmt == "date" and not _DATE_RE.match(value) or fmt == "date-time" and not _DATETIME_RE.match(value):
            return False
        if fmt in ("email", "uri", "url") and ("@" not in value if fmt == "email" else "://" not in value):
            return False
        if len(value) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", 1 << 30):
            return False
    return True
