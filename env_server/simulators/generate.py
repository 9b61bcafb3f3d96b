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

from env_server.simulators.rng import SimRandom
from env_server.simulators.values import KINDS, WORDS, kind_for, snake, words
from state.encoding import encode_canonical, sha256

_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATETIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$")
_LIMIT_ARGS = ("limit", "count", "max_results", "per_page", "page_size", "size", "top", "n", "num_results", "results")
SERIES_FIELDS = frozenset({"date", "time", "day", "datetime", "timestamp", "hour", "valid_date", "forecast_date", "dt"})
LIVE_STATUSES = frozenset(
    {"active", "onsale", "on_sale", "open", "available", "confirmed", "ok", "success", "published", "scheduled",
     "live", "in_stock", "operational", "enabled", "completed", "approved"}
)
_QUERY_ARGS = ("query", "q", "keyword", "keywords", "search", "term", "search_term")


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
    """Per-call generation state: a random generator seeded for this call alone.

    A plain class with one ``__init__`` (not a dataclass with ``__post_init__``): one is
    made per simulated call, and each Python frame costs there.
    """

    def __init__(
        self,
        seed: int,
        today: dt.date,
        args: dict[str, Any],
        entity: str = "item",
        hints: Mapping[str, str] = _NO_HINTS,  # one shared object: plans key on it
        searching: bool = False,
    ) -> None:
        self.seed = seed
        self.today = today
        self.args = args
        self.entity = entity
        self.hints = hints
        self.searching = searching
        self.rng = SimRandom(seed)
        self.id_prefix = id_prefix(entity.lower(), "item")
        self._args_snake: dict[str, Any] | None = None  # built on the first echo miss

    @functools.cached_property
    def _query(self) -> str | None:
        return next((v for k in _QUERY_ARGS if isinstance(v := self.args.get(k), str) and v), None)

    def fill(self, schema: Any, name: str = "", index: int | None = None, parent: str = "") -> Any:
        """One value for ``schema``. The schema is compiled once (one generated function per
        object or array, see ``plan_source``; closures otherwise, see ``_compile``); a call
        then only draws random values and echoes arguments."""
        return _plan(schema, name, parent, self.entity, self.hints)(self, index)

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
# Plans are compiled to one generated Python function per schema (``plan_source``) when
# possible; the closure tree below is the reference semantics and the fallback. Tests switch
# this off to compare the two.
USE_SOURCE_PLANS = True


def _plan(schema: Any, name: str, parent: str, entity: str, hints: Mapping[str, str]) -> Node:
    key = (id(schema), name, parent, entity, id(hints))
    hit = _PLANS.get(key)
    # An entry holds the schema and hints themselves, so their ids can't be reused by other
    # objects while it exists.
    if hit is None:
        if len(_PLANS) >= _MAX_PLANS:  # schemas built on the fly must not grow it forever
            _PLANS.clear()
        from env_server.simulators.plan_source import compile_source  # it builds on this module

        # A scalar's closure plan is a frame or two already; generating source pays only
        # for objects and arrays (compiling one costs ~1-2 ms, once per schema).
        containers = USE_SOURCE_PLANS and isinstance(schema, dict) and schema.get("type") in ("object", "array")
        node = compile_source(schema, name, parent, entity, hints) if containers else None
        hit = (schema, hints, node or _compile(schema, name, parent, entity, hints))
        _PLANS[key] = hit
    return hit[2]


def _compile(schema: Any, name: str, parent: str, entity: str, hints: Mapping[str, str]) -> Node:
    if not isinstance(schema, dict):
        return lambda gen, index: gen.rng.choice(WORDS)
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
        # (Inline, not a method: this runs for every field of every response.)
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
        return lambda gen, index: gen.rng.random() < 0.5
    if typ == "null":
        return lambda gen, index: None
    kind = hints.get(name) or kind_for(name, entity)
    if typ in ("integer", "number"):
        return lambda gen, index: gen._number(schema, typ, kind)
    return _compile_string(schema, name, parent, entity, kind)


def _compile_object(schema: dict[str, Any], name: str, entity: str, hints: Mapping[str, str]) -> Node:
    props = schema.get("properties") or {}
    if not props:
        if schema.get("additionalProperties", True) is not False:
            return lambda gen, index: {"value": gen.rng.choice(WORDS)}
        return lambda gen, index: {}
    # Only the time axis of a series item steps with the item index; other dates stay random.
    children = tuple((k, _plan(sub, k, name, entity, hints), k.lower() in SERIES_FIELDS) for k, sub in props.items())
    return lambda gen, index: {k: child(gen, index if series else None) for k, child, series in children}


def _compile_array(schema: dict[str, Any], name: str, entity: str, hints: Mapping[str, str]) -> Node:
    lo = int(schema.get("minItems", 0))
    hi = int(schema.get("maxItems", 10_000))
    items = schema.get("items") if isinstance(schema.get("items"), dict) else {"type": "string"}
    objects = items.get("type") == "object"
    unique = bool(schema.get("uniqueItems"))
    enum = items.get("enum")
    sampled = enum if isinstance(enum, list) and enum and unique else None
    child = _plan(items, singular(name), name, entity, hints)

    def array(gen: Generation, index: int | None) -> list[Any]:
        n = gen.rng.randint(3, 5) if objects else gen.rng.randint(1, 4)
        limit = gen._limit()
        if limit is not None and limit > 0:
            n = min(n, limit)
        n = max(lo, min(hi, n))
        if sampled is not None:
            return gen.rng.sample(sampled, min(n, len(sampled)))
        out = [child(gen, i) for i in range(n)]
        if unique:
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
    if fmt == "date" or fmt == "date-time":
        base = lambda gen, index: gen._dated(fmt, kind, index, parent)  # noqa: E731
    elif fmt in ("email", "uuid", "uri", "url", "uri-reference"):
        draw = KINDS["email" if fmt == "email" else "uuid" if fmt == "uuid" else
                     "image_url" if kind == "image_url" else "url"]
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
    """A string with no format: an id, a value of its kind, or a few words."""
    if kind == "id":
        stem = snake(name)
        entity_prefix = id_prefix(entity.lower(), "item")
        prefix = id_prefix(stem[:-3] if stem.endswith("_id") else entity_prefix, entity_prefix)
        return lambda gen: f"{prefix}_{gen.rng.getrandbits(40):010x}"
    if kind in KINDS:
        draw = KINDS[kind]
        if kind != "title":
            return lambda gen: str(draw(gen))

        def title(gen: Generation) -> str:
            value = str(draw(gen))
            query = gen._query if gen.searching else None
            return f"{query.strip().title()}: {value}" if query else value

        return title
    return lambda gen: words(gen, gen.rng.randint(1, 3))


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
