"""Generation plans compiled to Python source: one function per output schema.

``generate._compile`` turns a schema into a tree of closures, a few Python frames per
field. A server pays each frame cache-cold (the HTTP stack between two calls evicts the
interpreter's working set), so this module writes the same plan out as the body of a
single function instead: fields become statements, draws from fixed sequences and integer
ranges become inline ``getrandbits`` rejection loops, and only genuinely complex values
(dates, numbers with kinds that are not simple ranges, free-text helpers) still call out.

The contract is exact: a generated function consumes the same random bits in the same
order and returns the same value as the closure plan (``tests/env_server/test_plan_source.py``
compares them over whole catalogs). Anything this module cannot express, or a schema whose
code would nest too deeply, makes ``compile_source`` return None and the caller keeps the
closure plan.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from env_server.simulators.generate import (
    LIVE_STATUSES,
    MISSING,
    SERIES_FIELDS,
    Generation,
    Node,
    fits_schema,
    id_prefix,
    singular,
)
from env_server.simulators.values import CATCH_PHRASES, KINDS, WORDS, kind_for, sentences, snake

_MAX_LOOPS = 12  # Python allows 20 statically nested loops; stay well clear
_MAX_LINES = 20_000
_DATED_KINDS = ("date", "past_date", "future_date", "datetime")
_SIMPLE = (bool, int, str, type(None))


class _UnsupportedError(Exception):
    """The schema needs something the source form does not express; keep the closures."""


def compile_source(schema: Any, name: str, parent: str, entity: str, hints: Mapping[str, str]) -> Node | None:
    """One generated function equivalent to ``generate._compile(...)``, or None."""
    src = _Source(entity, hints)
    try:
        src.node(schema, name, parent, "index", "out", 1, 0)
        return src.build()
    except (_UnsupportedError, TypeError, ValueError, OverflowError, RecursionError, SyntaxError):
        # Odd schemas (string bounds, nesting past the compiler's limits): the closure plan
        # handles them, raising at call time exactly where it always did.
        return None


# ``fits_schema`` for a bare scalar type, as an expression: most echoed fields are these.
_TYPE_TESTS = {
    "string": "isinstance({v}, str)",
    "integer": "isinstance({v}, int) and not isinstance({v}, bool)",
    "number": "isinstance({v}, (int, float)) and not isinstance({v}, bool)",
    "boolean": "isinstance({v}, bool)",
    "null": "{v} is None",
}
_CONSTRAINTS = ("enum", "const", "minimum", "maximum", "format", "minLength", "maxLength")


def _fits(schema: dict[str, Any], v: str) -> str | None:
    typ = schema.get("type")
    if not isinstance(typ, str) or typ not in _TYPE_TESTS or any(c in schema for c in _CONSTRAINTS):
        return None
    return _TYPE_TESTS[typ].format(v=v)


def _snaked(gen: Generation) -> dict[str, Any]:
    snaked = gen._args_snake = {snake(k): v for k, v in gen.args.items()}
    return snaked


def _dedupe(out: list[Any], lo: int) -> list[Any]:
    uniq: list[Any] = []
    for v in out:
        if v not in uniq:
            uniq.append(v)
    return uniq if len(uniq) >= lo else out


class _Source:
    """The lines and constants of one generated function."""

    def __init__(self, entity: str, hints: Mapping[str, str]) -> None:
        self.entity = entity
        self.hints = hints
        self.lines: list[str] = []
        self.names: dict[str, Any] = {
            "MISSING": MISSING, "fits_schema": fits_schema, "snaked": _snaked, "dedupe": _dedupe, "WORDS": WORDS,
            "timedelta": dt.timedelta,
        }
        self._const_ids: dict[int, str] = {}
        self._vars = 0
        self.uses_limit = False

    # -- plumbing ------------------------------------------------------------------------

    def build(self) -> Node:
        head = ["def plan(gen, index):", "    rng = gen.rng", "    args = gen.args"]
        if self.uses_limit:
            head.append("    limit = gen._limit()")
        if len(self.lines) > _MAX_LINES:
            raise _UnsupportedError("schema too large for one function")
        text = "\n".join([*head, *self.lines, "    return out", ""])
        scope = dict(self.names)
        exec(compile(text, "<generation plan>", "exec"), scope)  # our own source, built above
        plan: Node = scope["plan"]
        return plan

    def add(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    def const(self, value: Any) -> str:
        """A Python expression for ``value``: a literal for scalars, else a bound name."""
        if isinstance(value, _SIMPLE):
            return repr(value)
        key = id(value)
        name = self._const_ids.get(key)
        if name is None:
            name = self._const_ids[key] = f"K{len(self._const_ids)}"
            self.names[name] = value  # holding it keeps its id from being reused
        return name

    def var(self) -> str:
        self._vars += 1
        return f"v{self._vars}"

    # -- draws: the same bits as SimRandom.choice / randint / random.uniform ----------------

    def choice(self, out: str, seq: Sequence[Any], depth: int) -> None:
        n = len(seq)
        if not n:
            self.add(depth, f"{out} = rng.choice({self.const(seq)})")  # raises as choice does
            return
        self.below(n, depth)
        self.add(depth, f"{out} = {self.const(seq)}[r]")

    def randint(self, out: str, a: Any, b: Any, depth: int) -> None:
        if type(a) is not int or type(b) is not int or b - a + 1 <= 0:
            self.add(depth, f"{out} = rng.randint({self.const(a)}, {self.const(b)})")
            return
        self.below(b - a + 1, depth)
        self.add(depth, f"{out} = {a} + r")

    def below(self, n: int, depth: int) -> None:
        """``r`` uniform in [0, n): k bits, retried while >= n (``Random._randbelow``)."""
        k = n.bit_length()
        self.add(depth, f"r = rng.getrandbits({k})")
        self.add(depth, f"while r >= {n}:")
        self.add(depth + 1, f"r = rng.getrandbits({k})")

    def draw_kind(self, kind: str, out: str, depth: int) -> bool:
        """``out = KINDS[kind](gen)``, inlined where the draw's shape is known.

        Returns True when the value is surely a ``str``.
        """
        special = _KIND_SOURCES.get(kind)
        if special is not None:
            special(self, out, depth)
            return True
        fn = KINDS[kind]
        sequence = getattr(fn, "sequence", None)
        int_range = getattr(fn, "int_range", None)
        uniform = getattr(fn, "uniform_range", None)
        if sequence is not None:
            options = sequence()
            self.choice(out, options, depth)
            return all(type(v) is str for v in options)
        if int_range is not None:
            self.randint(out, *int_range, depth)
        elif uniform is not None:
            lo, hi, ndigits = uniform
            self.add(depth, f"{out} = round({self.const(lo)} + ({self.const(hi)} - {self.const(lo)}) * rng.random(), {ndigits})")
        else:
            self.add(depth, f"{out} = {self.const(fn)}(gen)")
        return False

    def words(self, out: str, k: int | str, depth: int) -> None:
        self.add(depth, f"{out} = ' '.join(rng.choices(WORDS, k={k}))")

    def day(self, out: str, lo: int, hi: int, depth: int, *, minus: bool = False) -> None:
        """``gen.today`` plus (or minus) a random whole number of days in [lo, hi]."""
        self.randint("r", lo, hi, depth)
        self.add(depth, f"{out} = gen.today {'-' if minus else '+'} timedelta(days=r)")

    def stamp(self, out: str, day: str, minutes: tuple[int, ...], depth: int) -> None:
        """``<day>T<hh>:<mm>:00Z`` with a random hour and a minute from ``minutes``."""
        self.randint("h", 0, 23, depth)
        self.choice("m", minutes, depth)
        self.add(depth, f'{out} = f"{{{day}.isoformat()}}T{{h:02d}}:{{m:02d}}:00Z"')

    def dated(self, fmt: str, kind: str | None, index: str, parent: str, out: str, depth: int) -> None:
        """``Generation._dated``: series items keep the call; a lone date is drawn inline."""
        if index != "None":
            self.add(depth, f"if {index} is not None:")
            self.add(depth + 1, f"{out} = gen._dated({fmt!r}, {kind!r}, {index}, {parent!r})")
            self.add(depth, "else:")
            depth += 1
        if kind == "past_date":
            self.day("d", 1, 730, depth, minus=True)
        elif kind == "future_date":
            self.day("d", 1, 90, depth)
        elif kind == "datetime" or (kind is None and fmt == "date-time"):
            self.day("d", 0, 30, depth, minus=True)
        else:
            self.day("d", -30, 30, depth)
        if fmt == "date":
            self.add(depth, f"{out} = d.isoformat()")
        else:
            self.stamp(out, "d", (0, 15, 30, 45), depth)

    # -- schema nodes, mirroring generate._compile and friends -----------------------------

    def node(self, schema: Any, name: str, parent: str, index: str, out: str, depth: int, loops: int) -> None:
        if not isinstance(schema, dict):
            self.choice(out, WORDS, depth)
            return
        if "const" in schema:
            self.add(depth, f"{out} = {self.const(schema['const'])}")
            return
        if not name:
            self.value(schema, name, parent, index, out, depth, loops)
            return
        # An output field named like an argument repeats it, when it fits the schema.
        self.add(depth, f"{out} = MISSING")
        self.add(depth, "if args:")
        self.add(depth + 1, f"{out} = args.get({name!r}, MISSING)")
        self.add(depth + 1, f"if {out} is MISSING:")
        self.add(depth + 2, f"{out} = (gen._args_snake or snaked(gen)).get({snake(name)!r}, MISSING)")
        self.add(depth + 1, f"if {out} is not MISSING and not ({_fits(schema, out) or f'fits_schema({out}, {self.const(schema)})'}):")
        self.add(depth + 2, f"{out} = MISSING")
        self.add(depth, f"if {out} is MISSING:")
        self.value(schema, name, parent, index, out, depth + 1, loops)

    def value(self, schema: dict[str, Any], name: str, parent: str, index: str, out: str, depth: int, loops: int) -> None:
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            live = [v for v in enum if isinstance(v, str) and v.lower() in LIVE_STATUSES] if name == "status" else []
            if live:
                self.add(depth, "if rng.random() < 0.85:")
                self.choice(out, live, depth + 1)
                self.add(depth, "else:")
                self.choice(out, enum, depth + 1)
            else:
                self.choice(out, enum, depth)
            return
        typ = schema.get("type", "string")
        if isinstance(typ, list):
            typ = next((t for t in typ if t != "null"), "null")
        if typ == "object":
            self.object(schema, name, index, out, depth, loops)
        elif typ == "array":
            self.array(schema, name, out, depth, loops)
        elif typ == "boolean":
            self.add(depth, f"{out} = rng.random() < 0.5")
        elif typ == "null":
            self.add(depth, f"{out} = None")
        else:
            kind = self.hints.get(name) or kind_for(name, self.entity)
            if typ in ("integer", "number"):
                self.number(schema, typ, kind, out, depth)
            else:
                self.string(schema, name, parent, kind, index, out, depth)

    def object(self, schema: dict[str, Any], name: str, index: str, out: str, depth: int, loops: int) -> None:
        props = schema.get("properties") or {}
        if not props:
            if schema.get("additionalProperties", True) is not False:
                self.choice(out, WORDS, depth)
                self.add(depth, f"{out} = {{'value': {out}}}")
            else:
                self.add(depth, f"{out} = {{}}")
            return
        fields = []
        for key, sub in props.items():
            child = self.var()
            # Only the time axis of a series item steps with the item index.
            self.node(sub, key, name, index if key.lower() in SERIES_FIELDS else "None", child, depth, loops)
            fields.append(f"{key!r}: {child}")
        self.add(depth, f"{out} = {{{', '.join(fields)}}}")

    def array(self, schema: dict[str, Any], name: str, out: str, depth: int, loops: int) -> None:
        if loops >= _MAX_LOOPS:
            raise _UnsupportedError("arrays nested too deeply")
        lo = int(schema.get("minItems", 0))
        hi = int(schema.get("maxItems", 10_000))
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {"type": "string"}
        enum = items.get("enum")
        unique = bool(schema.get("uniqueItems"))
        self.uses_limit = True
        n = self.var()
        if items.get("type") == "object":
            self.randint(n, 3, 5, depth)
        else:
            self.randint(n, 1, 4, depth)
        self.add(depth, "if limit is not None and limit > 0:")
        self.add(depth + 1, f"{n} = min({n}, limit)")
        self.add(depth, f"{n} = max({lo}, min({hi}, {n}))")
        if isinstance(enum, list) and enum and unique:
            self.add(depth, f"{out} = rng.sample({self.const(enum)}, min({n}, {len(enum)}))")
            return
        i, item = self.var(), self.var()
        self.add(depth, f"{out} = []")
        self.add(depth, f"for {i} in range({n}):")
        self.node(items, singular(name), name, i, item, depth + 1, loops + 1)
        self.add(depth + 1, f"{out}.append({item})")
        if unique:
            self.add(depth, f"{out} = dedupe({out}, {lo})")

    def number(self, schema: dict[str, Any], typ: str, kind: str | None, out: str, depth: int) -> None:
        """``Generation._number`` with every schema-only decision taken here."""
        lo = schema.get("minimum", schema.get("exclusiveMinimum"))
        hi = schema.get("maximum", schema.get("exclusiveMaximum"))
        integer = typ == "integer"
        if kind in KINDS:
            self.draw_kind(kind, out, depth)
            self.add(depth, f"if not isinstance({out}, (int, float)) or isinstance({out}, bool):")
            self.add(depth + 1, f"{out} = None")
        else:
            self.add(depth, f"{out} = None")
        self.add(depth, f"if {out} is None:")
        if kind == "id" and integer:
            self.randint(out, 1000, 999_999, depth + 1)
        else:
            a = lo if lo is not None else (0 if integer else 0.0)
            b = hi if hi is not None else (a + 1000)
            if integer:
                self.randint(out, int(a), int(b), depth + 1)
            else:
                self.add(depth + 1, f"{out} = round({self.const(a)} + ({self.const(b)} - {self.const(a)}) * rng.random(), 2)")
        if lo is not None or hi is not None:
            out_of_range = " or ".join(
                [f"{out} < {self.const(lo)}"] * (lo is not None) + [f"{out} > {self.const(hi)}"] * (hi is not None)
            )
            ua = lo if lo is not None else hi - 100
            ub = hi if hi is not None else lo + 100
            self.add(depth, f"if {out_of_range}:")
            self.add(depth + 1, f"{out} = {self.const(ua)} + ({self.const(ub)} - {self.const(ua)}) * rng.random()")
        if integer:
            self.add(depth, f"{out} = int(round({out}))")
            if "exclusiveMinimum" in schema:
                bound = schema["exclusiveMinimum"]
                self.add(depth, f"if {out} <= {self.const(bound)}:")
                self.add(depth + 1, f"{out} = {int(bound) + 1}")
            if "exclusiveMaximum" in schema:
                bound = schema["exclusiveMaximum"]
                self.add(depth, f"if {out} >= {self.const(bound)}:")
                self.add(depth + 1, f"{out} = {int(bound) - 1}")
            cast = int
        else:
            self.add(depth, f"{out} = round(float({out}), 2)")
            cast = float
        if lo is not None:
            self.add(depth, f"if {out} < {self.const(lo)}:")
            self.add(depth + 1, f"{out} = {self.const(cast(lo))}")
        if hi is not None:
            self.add(depth, f"if {out} > {self.const(hi)}:")
            self.add(depth + 1, f"{out} = {self.const(cast(hi))}")

    def string(self, schema: dict[str, Any], name: str, parent: str, kind: str | None, index: str, out: str,
               depth: int) -> None:
        fmt = schema.get("format")
        if fmt == "date" or fmt == "date-time":
            self.dated(fmt, kind, index, parent, out, depth)
        elif fmt in ("email", "uuid", "uri", "url", "uri-reference"):
            self.draw_kind("email" if fmt == "email" else "uuid" if fmt == "uuid" else
                           "image_url" if kind == "image_url" else "url", out, depth)
        elif fmt == "time":
            self.randint("h", 0, 23, depth)
            self.choice("m", (0, 30), depth)
            self.add(depth, f'{out} = f"{{h:02d}}:{{m:02d}}:00"')
        elif kind in _DATED_KINDS and index != "None":
            dfmt = "date-time" if kind == "datetime" else "date"
            self.add(depth, f"if {index} is not None:")
            self.add(depth + 1, f"{out} = gen._dated({dfmt!r}, {kind!r}, {index}, {parent!r})")
            self.add(depth, "else:")
            self.plain(name, kind, out, depth + 1)
        else:
            self.plain(name, kind, out, depth)
        lo, hi = schema.get("minLength"), schema.get("maxLength")
        if isinstance(hi, int):
            self.add(depth, f"if len({out}) > {hi!r}:")
            self.add(depth + 1, f"{out} = {out}[:{hi!r}]")
        if isinstance(lo, int):
            self.add(depth, f"if len({out}) < {lo!r}:")
            self.add(depth + 1, f"{out} = {out} + 'x' * ({lo!r} - len({out}))")

    def plain(self, name: str, kind: str | None, out: str, depth: int) -> None:
        """A string with no format: an id, a value of its kind, or a few words."""
        if kind == "id":
            stem = snake(name)
            entity_prefix = id_prefix(self.entity.lower(), "item")
            prefix = id_prefix(stem[:-3] if stem.endswith("_id") else entity_prefix, entity_prefix)
            self.add(depth, f'{out} = f"{prefix}_{{rng.getrandbits(40):010x}}"')
        elif kind in KINDS:
            if not self.draw_kind(kind, out, depth):
                self.add(depth, f"{out} = str({out})")
            if kind == "title":
                self.add(depth, "if gen.searching:")
                self.add(depth + 1, "q = gen._query")
                self.add(depth + 1, "if q:")
                self.add(depth + 2, f'{out} = f"{{q.strip().title()}}: {{{out}}}"')
        else:
            self.randint("r", 1, 3, depth)
            self.words(out, "r", depth)


# Kinds whose draw is more than one call of a tagged shape, written out as source. Each
# mirrors its entry in ``values.KINDS`` draw for draw; the equivalence tests hold them to it.


def _paragraph(src: _Source, out: str, depth: int) -> None:
    parts = [src.var() for _ in range(3)]
    for part in parts:
        src.choice(part, sentences(), depth)
    src.add(depth, f"{out} = ' '.join([{', '.join(parts)}])")


def _title(src: _Source, out: str, depth: int) -> None:
    src.add(depth, "if rng.random() < 0.5:")
    src.choice(out, CATCH_PHRASES.sequence(), depth + 1)  # type: ignore[attr-defined]
    src.add(depth, "else:")
    src.words("t", 4, depth + 1)
    src.add(depth + 1, f"{out} = (t[:1].upper() + t[1:] + '.').rstrip('.')")


def _date_kind(lo: int, hi: int, with_time: bool) -> Callable[[_Source, str, int], None]:
    def emit(src: _Source, out: str, depth: int) -> None:
        src.day("d", lo, hi, depth)
        if with_time:
            src.stamp(out, "d", (0, 15, 30, 45), depth)
        else:
            src.add(depth, f"{out} = d.isoformat()")

    return emit


_KIND_SOURCES: dict[str, Callable[[_Source, str, int], None]] = {
    "paragraph": _paragraph,
    "title": _title,
    "words": lambda src, out, depth: src.words(out, 3, depth),
    "date": _date_kind(-30, 30, False),
    "past_date": _date_kind(-730, -1, False),
    "future_date": _date_kind(1, 90, False),
    "datetime": _date_kind(-30, 0, True),
}
