"""Leaf plans: the compile-time choices for a scalar field (enum, boolean, number, string).

Each compiler takes one schema node with its kind already resolved by the schema walk
(``plans``) and returns the closure that draws the value from the call's ``Generation``:
an enum narrowed by a hinted kind, a live status, a number kept within its bounds, a
string in its format (a date on the series axis, an id with the entity's prefix, a
length-clamped text).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators import timeline
from env_server.simulators.geo_kinds import BOOLEAN_KINDS
from env_server.simulators.journey_kinds import JOURNEY_MOMENTS
from env_server.simulators.own_title import names_the_record
from env_server.simulators.sites import own_site
from env_server.simulators.uv_kinds import UV_MOMENTS
from env_server.simulators.values import KINDS, draw_kind, snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation
    from env_server.simulators.plans import Node

LIVE_STATUSES = frozenset(
    {"active", "onsale", "on_sale", "open", "available", "confirmed", "ok", "success", "published", "scheduled",
     "live", "in_stock", "operational", "enabled", "completed", "approved"}
)
FACT_DATES = frozenset(
    {"air_date", "holiday_date", "departure_time", "arrival_time", "local_time", "fx_day", "fx_series_end"}
    | UV_MOMENTS | JOURNEY_MOMENTS
)
# A response's own outcome ("status": "1", "message": "OK", "query_status": "ok"): every value
# of its enum says how the request went, and an answer that carries data went well.
_RESPONSE_OUTCOME = re.compile(r"^(ok|success|succeeded|1|0|notok|error|fail|failed|failure|true|false"
                               r"|no_results|no_result|(\w+_)?not_found|illegal_\w+|unknown_\w+|invalid_\w+)$")
_OUTCOME_FIELDS = frozenset({"status", "query_status", "message", "stat", "result", "response_status", "outcome"})
_SUCCESS = ("ok", "success", "succeeded", "1", "true")
_AFFIRMATIVE = re.compile(r"^(success|ok|found|valid|available|enabled|is_valid|verified|exists|status_ok)$")


def compile_enum(enum: list[Any], name: str, hints: Mapping[str, str], geo: str | None = None) -> Node:
    if hints.get(name) in KINDS or geo is not None or "." in hints.get(name, ""):
        # A hinted kind narrows an enum: the record's own value when the enum holds it (a
        # record vocabulary's field too: a service's code agrees with its name).
        chosen = geo or hints[name]
        narrowed = KINDS.get(chosen) or (lambda gen: draw_kind(chosen, gen))
        cased = {e.lower(): e for e in enum if isinstance(e, str)}  # "Animalia" is the enum's "ANIMALIA"
        return lambda gen, index: v if (v := narrowed(gen)) in enum else cased.get(
            str(v).lower()) or gen.rng.choice(enum)
    success = response_success(enum, name)
    if success is not None:
        return lambda gen, index: success
    # Most things a search finds are live; an occasional odd status stays possible.
    live = [v for v in enum if isinstance(v, str) and v.lower() in LIVE_STATUSES] if name == "status" else []
    if live:
        return lambda gen, index: gen.rng.choice(live) if gen.rng.random() < 0.85 else gen.rng.choice(enum)
    return lambda gen, index: gen.rng.choice(enum)


def response_success(enum: list[Any], name: str) -> Any:
    """The value of an outcome enum (``_RESPONSE_OUTCOME``) that says the request succeeded,
    or None when the field is not a response's outcome (an order's or a payment's status)."""
    if snake(name) not in _OUTCOME_FIELDS or not all(
            isinstance(v, str) and _RESPONSE_OUTCOME.match(v.lower()) for v in enum):
        return None
    return next((v for v in enum if v.lower() in _SUCCESS), None)


_HTTP_STATUS_FIELDS = frozenset({"status", "statuscode", "httpstatus", "httpcode", "responsecode"})


def http_status_node(name: str, schema: Mapping[str, Any]) -> Node | None:
    """A response's own HTTP status (``"status": 200``): an answer that carries data is a 200,
    when the field is an integer that can hold it (a 0/1 flag or a 1/2 service state cannot)."""
    if schema.get("type") != "integer" or snake(name).replace("_", "") not in _HTTP_STATUS_FIELDS:
        return None
    enum = schema.get("enum")
    lo, hi = schema.get("minimum", 100), schema.get("maximum", 599)
    fits = 200 in enum if isinstance(enum, list) else lo <= 200 <= hi
    return (lambda gen, index: 200) if fits else None


def compile_boolean(name: str, kind: str | None = None) -> Node:
    if kind in BOOLEAN_KINDS:  # a fact of the record ("is_dst" of its time zone)
        draw = KINDS[kind]
        return lambda gen, index: bool(draw(gen))
    if kind is not None and "." in kind:  # a record vocabulary's flag (ride_product.shared): its record's
        return lambda gen, index: _record_flag(kind, gen)
    if _AFFIRMATIVE.search(snake(name)):  # "success": true, as a working API answers
        return lambda gen, index: True
    return lambda gen, index: gen.rng.random() < 0.5


def _record_flag(kind: str, gen: Generation) -> bool:
    value = draw_kind(kind, gen)
    return value if isinstance(value, bool) else gen.rng.random() < 0.5


def compile_number(schema: dict[str, Any], typ: str, kind: str | None) -> Node:
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


def compile_string(schema: dict[str, Any], name: str, parent: str, entity: str, kind: str | None) -> Node:
    fmt = schema.get("format")
    base: Node
    if kind in FACT_DATES:  # a fact of the record, not a point on a series axis
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


@functools.lru_cache(maxsize=4096)
def id_prefix(stem: str, default: str = "") -> str:
    return re.sub(r"[^a-z0-9]", "", stem)[:4] or default
