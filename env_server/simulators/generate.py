"""Schema-driven value generation: one JSON value per output schema, seeded and realistic.

``Generation`` carries everything one call's generation needs: the seeded RNG and Faker,
the session clock, the call's arguments (for echoing) and the profile hints. ``fill``
walks a schema and honours ``type``, ``enum``, ``const``, ``minimum``/``maximum``,
``minLength``/``maxLength``, ``minItems``/``maxItems`` and ``format``, so every output
validates against the tool's output schema by construction.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from env_server.simulators.values import KINDS, WORDS, kind_for, snake, words

_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATETIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$")
_LIMIT_ARGS = ("limit", "count", "max_results", "per_page", "page_size", "size", "top", "n", "num_results", "results")
_SERIES_FIELDS = frozenset({"date", "time", "day", "datetime", "timestamp", "hour", "valid_date", "forecast_date", "dt"})
_LIVE_STATUSES = frozenset(
    {"active", "onsale", "on_sale", "open", "available", "confirmed", "ok", "success", "published", "scheduled",
     "live", "in_stock", "operational", "enabled", "completed", "approved"}
)
_QUERY_ARGS = ("query", "q", "keyword", "keywords", "search", "term", "search_term")


def call_seed(tool: str, args: dict[str, Any], seed: int) -> int:
    """Stable 64-bit seed from the tool name, canonical arguments and session seed."""
    blob = json.dumps([tool, args, seed], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return int.from_bytes(hashlib.sha256(blob.encode("utf-8")).digest()[:8], "big")


@dataclass
class Generation:
    """Per-call generation state: a ``random.Random`` seeded for this call alone."""

    seed: int
    today: dt.date
    args: dict[str, Any]
    entity: str = "item"
    hints: dict[str, str] = field(default_factory=dict)
    searching: bool = False
    id_prefix: str = "item"
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.id_prefix = _id_prefix(self.entity.lower(), "item")
        self._args_snake: dict[str, Any] | None = None  # built on the first echo miss
        self._query = next((v for k in _QUERY_ARGS if isinstance(v := self.args.get(k), str) and v), None)

    def fill(self, schema: Any, name: str = "", index: int | None = None, parent: str = "") -> Any:
        if not isinstance(schema, dict):
            return self.rng.choice(WORDS)
        if "const" in schema:
            return schema["const"]
        echoed = self._echo(name, schema)
        if echoed is not _MISSING:
            return echoed
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            if name == "status":
                # Most things a search finds are live; an occasional odd status stays possible.
                live = [v for v in enum if isinstance(v, str) and v.lower() in _LIVE_STATUSES]
                if live and self.rng.random() < 0.85:
                    return self.rng.choice(live)
            return self.rng.choice(enum)
        typ = schema.get("type", "string")
        if isinstance(typ, list):
            typ = next((t for t in typ if t != "null"), "null")
        if typ == "object":
            return self._object(schema, name, index)
        if typ == "array":
            return self._array(schema, name)
        if typ == "boolean":
            return self.rng.random() < 0.5
        if typ == "null":
            return None
        if typ in ("integer", "number"):
            return self._number(schema, name, typ)
        return self._string(schema, name, index, parent)

    def _object(self, schema: dict[str, Any], name: str, index: int | None = None) -> dict[str, Any]:
        props = schema.get("properties") or {}
        if not props:
            return {"value": self.rng.choice(WORDS)} if schema.get("additionalProperties", True) is not False else {}
        # Only the time axis of a series item steps with the item index; other dates stay random.
        return {
            k: self.fill(sub, k, index=index if k.lower() in _SERIES_FIELDS else None, parent=name)
            for k, sub in props.items()
        }

    def _array(self, schema: dict[str, Any], name: str) -> list[Any]:
        lo = int(schema.get("minItems", 0))
        hi = int(schema.get("maxItems", 10_000))
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {"type": "string"}
        n = self.rng.randint(3, 5) if items.get("type") == "object" else self.rng.randint(1, 4)
        limit = next((v for k in _LIMIT_ARGS if isinstance(v := self.args.get(k), int) and not isinstance(v, bool)), None)
        if limit is not None and limit > 0:
            n = min(n, limit)
        n = max(lo, min(hi, n))
        enum = items.get("enum")
        if isinstance(enum, list) and enum and schema.get("uniqueItems"):
            n = min(n, len(enum))
            return self.rng.sample(enum, n)
        out = [self.fill(items, _singular(name), index=i, parent=name) for i in range(n)]
        if schema.get("uniqueItems"):
            uniq: list[Any] = []
            for v in out:
                if v not in uniq:
                    uniq.append(v)
            out = uniq if len(uniq) >= lo else out
        return out

    def _number(self, schema: dict[str, Any], name: str, typ: str) -> int | float:
        kind = self.hints.get(name) or kind_for(name, self.entity)
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

    def _string(self, schema: dict[str, Any], name: str, index: int | None, parent: str) -> str:
        fmt = schema.get("format")
        kind = self.hints.get(name) or kind_for(name, self.entity)
        if fmt == "date" or fmt == "date-time":
            value = self._dated(fmt, kind, name, index, parent)
        elif fmt == "email":
            value = KINDS["email"](self)
        elif fmt in ("uri", "url", "uri-reference"):
            value = KINDS["image_url" if kind == "image_url" else "url"](self)
        elif fmt == "time":
            value = f"{self.rng.randint(0, 23):02d}:{self.rng.choice((0, 30)):02d}:00"
        elif fmt == "uuid":
            value = KINDS["uuid"](self)
        elif kind in ("date", "past_date", "future_date", "datetime") and index is not None:
            value = self._dated("date-time" if kind == "datetime" else "date", kind, name, index, parent)
        elif kind == "id":
            stem = snake(name)
            stem = stem[:-3] if stem.endswith("_id") else self.id_prefix
            value = f"{_id_prefix(stem, self.id_prefix)}_{self.rng.getrandbits(40):010x}"
        elif kind in KINDS:
            value = str(KINDS[kind](self))
            if kind == "title" and self.searching and self._query:
                value = f"{self._query.strip().title()}: {value}"
        else:
            value = words(self, self.rng.randint(1, 3))
        lo, hi = schema.get("minLength"), schema.get("maxLength")
        if isinstance(hi, int) and len(value) > hi:
            value = value[:hi]
        if isinstance(lo, int) and len(value) < lo:
            value = value + "x" * (lo - len(value))
        return value

    def _dated(self, fmt: str, kind: str | None, name: str, index: int | None, parent: str) -> str:
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

    def _echo(self, name: str, schema: dict[str, Any]) -> Any:
        """An output field named like an argument repeats it, when it fits the schema."""
        if not name or not self.args:
            return _MISSING
        value = self.args.get(name, _MISSING)
        if value is _MISSING:
            if self._args_snake is None:
                self._args_snake = {snake(k): v for k, v in self.args.items()}
            value = self._args_snake.get(snake(name), _MISSING)
        if value is _MISSING or not fits_schema(value, schema):
            return _MISSING
        return value


_MISSING: Any = object()


@functools.lru_cache(maxsize=4096)
def _id_prefix(stem: str, default: str = "") -> str:
    return re.sub(r"[^a-z0-9]", "", stem)[:4] or default


def _singular(name: str) -> str:
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith("ss"):
        return name[:-1]
    return name


def fits_schema(value: Any, schema: dict[str, Any]) -> bool:
    """Cheap check that a scalar satisfies a schema's type, enum, range and format."""
    typ = schema.get("type")
    if isinstance(typ, list):
        return any(fits_schema(value, {**schema, "type": t}) for t in typ)
    checks = {
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
        "null": lambda v: v is None,
    }
    if typ in checks:
        if not checks[typ](value):
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
