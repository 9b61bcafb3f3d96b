"""The realism audit's detectors: pure functions over one tool result.

Each detector takes a result (and what it needs to judge it) and returns
``(path, detail)`` pairs; ``audit.py`` runs the calls and turns the pairs into findings.
Paths are JSONPath-like: ``$.current.condition.text``, ``$.results[0].name``.

The lorem detector is tuned to Faker's ``en_US`` lorem provider, whose word list is 971
*common English words* (not Latin), so "most words are on the list" alone flags about a
quarter of real English titles and sentences (measured on ``tool_specs/vocab``). A string
of 3+ words reads as lorem only when it is also shaped like Faker's output: words, spaces
and sentence-final periods only (no commas, colons, digits or hyphens); not Title Case
(names and titles are, lorem never is); under 20% function words ("the", "of", "to" … are
a third of real prose and ~5% of uniform draws from the list); and at least 80% list
words (all of them under 5 words). On the vocabularies that flags ~0.2% of entries, and
~92% of generated lorem strings of 3-12 words.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from enum import Enum
from typing import Any

from faker.providers.lorem.en_US import Provider as _LoremProvider
from pydantic import BaseModel, ConfigDict

from env_server.catalog.models import ToolSpec
from env_server.simulators.entry_fields import entry_field_kind
from env_server.simulators.invariants import walk_violations
from env_server.simulators.naming import resolve_kind, snake
from env_server.simulators.plans import singular
from state.encoding import encode_canonical_lenient as canonical


class CheckKind(str, Enum):
    """The audit's checks, in report order."""

    LOREM = "lorem"
    FALLBACK = "fallback"
    INVARIANT = "invariant"
    ID_CHAIN = "id_chain"
    READBACK = "readback"
    EMPTY_FRESH_LIST = "empty_fresh_list"
    NONDETERMINISTIC = "nondeterministic"
    CLOCK = "clock"
    URL_HOST = "url_host"
    DOMAIN_TEXT = "domain_text"
    GEO = "geo"
    AIR = "air"
    IMPORTED = "imported"
    NUMERIC = "numeric"
    ID_FORMAT = "id_format"
    QUESTION = "question"  # a search/list disagrees with its call (audit_lists)
    TIME = "time"
    FORMAT = "format"
    DOMAIN = "domain"
    ECHO = "echo"
    INFRA_ERROR = "infra_error"


class Finding(BaseModel):
    """One realism problem of one tool."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: str
    check: CheckKind
    path: str
    detail: str


Hit = tuple[str, str]  # (path, detail)

LOREM_WORDS: frozenset[str] = frozenset(_LoremProvider.word_list)
# Frequent English function words: a third or more of real prose, ~5% of uniform lorem draws.
FUNCTION_WORDS = frozenset({
    "a", "an", "the", "of", "and", "or", "but", "to", "in", "on", "at", "by", "for", "with", "from", "into", "over",
    "about", "up", "as", "if", "so", "not", "no", "is", "are", "was", "were", "be", "been", "it", "its", "this",
    "that", "these", "those", "you", "your", "i", "me", "my", "we", "our", "us", "they", "their", "he", "his",
    "she", "her", "will", "can",
})
# Fields whose short values name things: a lone lowercase lorem word there is filler.
NAME_FIELDS = frozenset({"name", "title", "label", "make", "model", "breed", "condition", "text"})
LOREM_RATIO = 0.8
MAX_FUNCTION_SHARE = 0.2
_WORD_RE = re.compile(r"[a-z]+")
_SHORT_RE = re.compile(r"[a-z]+( [a-z]+)?")
# Faker sentences and word runs: letters, single spaces and sentence-final periods.
_LOREM_SHAPE_RE = re.compile(r"[A-Za-z]+(?:\.? [A-Za-z]+)*\.?")
_EXEMPT_RE = re.compile(r"lorem.?ipsum|json.?placeholder", re.IGNORECASE)


def read_number(value: Any) -> float | None:
    """A field's number, written as a number or as numeric text ("48.85"); None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def walk_records(value: Any, path: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object in ``value`` (itself included) with its JSON path."""
    if isinstance(value, dict):
        yield path, value
        for key, sub in value.items():
            yield from walk_records(sub, f"{path}.{key}")
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from walk_records(sub, f"{path}[{i}]")


def walk_strings(value: Any, path: str = "$", key: str = "") -> Iterator[tuple[str, str, str]]:
    """Every string leaf as ``(path, field name, text)``; list items take their list's name."""
    if isinstance(value, str):
        yield path, key, value
    elif isinstance(value, dict):
        for k, sub in value.items():
            yield from walk_strings(sub, f"{path}.{k}", str(k))
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from walk_strings(sub, f"{path}[{i}]", key)


def walk_fields(value: Any, path: str = "$") -> Iterator[tuple[str, str, Any]]:
    """Every ``(path, key, value)`` of every dict inside ``value``."""
    if isinstance(value, dict):
        for k, sub in value.items():
            yield f"{path}.{k}", str(k), sub
            yield from walk_fields(sub, f"{path}.{k}")
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from walk_fields(sub, f"{path}[{i}]")


# -- lorem ---------------------------------------------------------------------------------


def lorem_exempt(spec: ToolSpec) -> bool:
    """Real APIs that answer with lorem ipsum on purpose (JSONPlaceholder, lorem generators)."""
    return bool(_EXEMPT_RE.search(f"{spec.provider} {spec.name.replace('_', ' ')} {spec.description}"))


def _title_case(text: str) -> bool:
    tokens = re.findall(r"[A-Za-z]+", text)[1:]
    return bool(tokens) and 2 * sum(t[0].isupper() for t in tokens) >= len(tokens)


def reads_as_lorem(text: str) -> bool:
    """Three or more words that read as Faker lorem (see the module docstring)."""
    text = text.strip()
    if not _LOREM_SHAPE_RE.fullmatch(text) or _title_case(text):
        return False
    words = _WORD_RE.findall(text.lower())
    if len(words) < 3:
        return False
    # Faker capitalises a sentence's first word only: a capital further on starts a name
    # ("Turn left onto Church Street"), which is no lorem word whatever it spells.
    named = {i for i, w in enumerate(re.findall(r"[A-Za-z]+", text)) if i and w[0].isupper()}
    listed = sum(w in LOREM_WORDS and i not in named for i, w in enumerate(words)) / len(words)
    function = sum(w in FUNCTION_WORDS for w in words) / len(words)
    if function >= MAX_FUNCTION_SHARE:
        return False
    return listed == 1.0 if len(words) < 5 else listed >= LOREM_RATIO


def short_lorem_name(field: str, text: str) -> bool:
    """A 1-2 word lowercase value of a naming field made only of lorem words ('economy')."""
    if field.lower() not in NAME_FIELDS or not _SHORT_RE.fullmatch(text):
        return False
    return all(w in LOREM_WORDS for w in text.split())


def schema_enums(schema: Any) -> frozenset[str]:
    """String values any ``enum`` of a schema allows (these are never filler)."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("enum"), list):
                found.update(v for v in node["enum"] if isinstance(v, str))
            for sub in node.values():
                walk(sub)
        elif isinstance(node, list):
            for sub in node:
                walk(sub)

    walk(schema)
    return frozenset(found)


_LATIN = frozenset({"lorem", "ipsum", "dolor", "amet", "consectetur", "adipiscing", "elit", "eiusmod", "tempor",
                    "incididunt", "labore", "dolore", "aliqua", "nostrud", "exercitation", "ullamco", "laboris",
                    "aliquip", "commodo", "consequat", "voluptate", "cillum", "fugiat", "pariatur", "excepteur",
                    "occaecat", "cupidatat", "proident", "officia", "deserunt", "mollit", "laborum"})


def reads_as_latin_lorem(text: str) -> bool:
    """Classic lorem ipsum: two or more of its Latin words."""
    return sum(w in _LATIN for w in _WORD_RE.findall(text.lower())) >= 2


def lorem_hits(result: Any, allowed: frozenset[str] = frozenset()) -> list[Hit]:
    """Strings that read as filler. ``allowed`` holds text known to be real: the output
    schema's enums, the call's own arguments, and our vocabularies (our words, by design)."""
    hits: list[Hit] = []
    for path, field, text in walk_strings(result):
        if text in allowed:
            continue
        if reads_as_latin_lorem(text) or reads_as_lorem(text) or short_lorem_name(field, text):
            hits.append((path, f"reads as lorem: {text[:80]!r}"))
    return hits


def vocabulary_texts(vocab: Any) -> frozenset[str]:
    """Every text our vocabularies hold (values, and string fields of records)."""
    found: set[str] = set()
    for kind in vocab.kinds:
        spec = vocab.get(kind)
        found.update(spec.values)
        for record in spec.records:
            for value in record.values():
                if isinstance(value, str):
                    found.add(value)
                elif isinstance(value, list):
                    found.update(v for v in value if isinstance(v, str))
    return frozenset(found)


# -- fallback kinds ------------------------------------------------------------------------


_TAG_HOLDERS = frozenset({"label", "labels", "tag", "tags", "keyword", "keywords", "topic", "topics"})


def fallback_hits(spec: ToolSpec) -> list[Hit]:
    """String fields with no kind of their own: the engine fills them with a generic tag.
    A naming field (name, title, model, …) drawn as a tag counts too."""
    hits: list[Hit] = []
    profile = spec.profile
    inputs = {snake(k) for k in (spec.input_schema.get("properties") or {})}

    def walk(schema: Any, name: str, parent: str, path: str) -> None:
        if not isinstance(schema, dict):
            return
        typ = schema.get("type")
        if typ == "object":
            for key, sub in (schema.get("properties") or {}).items():
                walk(sub, key, name, f"{path}.{key}")
            return
        if typ == "array":
            items = schema.get("items") or {}
            scalar = isinstance(items, dict) and items.get("type") != "object"
            item = name if scalar and name in profile.hints and singular(name) not in profile.hints else singular(name)
            walk(items, item, name, f"{path}[]")
            return
        if typ != "string" or "enum" in schema or "const" in schema or schema.get("format"):
            return
        if snake(name) in inputs:  # echoes the caller's argument
            return
        entry = entry_field_kind(name, profile.entity) if name not in profile.hints else None  # a cocktail's method
        kind = entry or resolve_kind(name, profile.entity, parent, profile.hints)
        tagging = bool({snake(parent), snake(profile.entity)} & _TAG_HOLDERS)  # a label's name is a tag
        if kind is None or (kind == "tag" and name.lower() in NAME_FIELDS and not tagging):
            hits.append((path, f"field '{name}' has no value kind of its own (drawn as {kind or 'a generic tag'})"))

    walk(spec.output_schema, "", "", "$")
    return hits


# -- invariants ----------------------------------------------------------------------------


def invariant_hits(result: Any, args: dict[str, Any]) -> list[Hit]:
    hits: list[Hit] = []
    for text in walk_violations(result, args):
        path, _, detail = text.partition(": ")
        hits.append((path, detail or text))
    return hits


# -- clock ---------------------------------------------------------------------------------

CREATED_FIELDS = frozenset({"created_at", "created", "createdat", "created_on", "timestamp", "date_created"})
CURRENT_FIELDS = frozenset({"last_updated", "lastupdated", "localtime", "local_time", "as_of", "asof",
                            "observation_time", "observationtime"})
_ISO_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _date_of(value: Any) -> dt.date | None:
    """The calendar day of an ISO date/datetime string or a Unix timestamp (s or ms), if it is one."""
    if isinstance(value, str) and _ISO_DATE_RE.match(value):
        try:
            return dt.date.fromisoformat(value[:10])
        except ValueError:
            return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = value / 1000 if 1e12 <= value < 1e14 else value
        if 1e9 <= seconds < 1e10:
            return dt.datetime.fromtimestamp(seconds, dt.UTC).date()
    return None


def clock_hits(result: Any, today: dt.date, *, created: bool, current: bool = False,
               stamps: re.Pattern[str] | None = None) -> list[Hit]:
    """Write timestamps (for a create) that are not the session's today, and "as of" dates
    that lie after today (or, for a tool that reports current data, are not today).
    ``stamps``: the top-level fields a write stamps with "now" (``write_stamps``)."""
    hits = _stamp_hits(result, today, stamps) if stamps is not None and isinstance(result, dict) else []
    for path, key, value in walk_fields(result):
        name = key.lower()
        if name in CURRENT_FIELDS or (created and name in CREATED_FIELDS):
            # "As of now" fields count as ISO text only; write timestamps also as Unix time.
            day = _date_of(value) if name in CREATED_FIELDS or isinstance(value, str) else None
            if day is None:
                continue
            stamped = created and name in CREATED_FIELDS
            if (stamped or current) and day != today:
                hits.append((path, f"{key}={value!r} is not the session's today ({today.isoformat()})"))
            elif day > today:
                hits.append((path, f"{key}={value!r} lies after the session's today ({today.isoformat()})"))
    return hits


def _stamp_hits(result: dict[str, Any], today: dt.date, stamps: re.Pattern[str]) -> list[Hit]:
    hits: list[Hit] = []
    for key, value in result.items():
        day = _date_of(value) if isinstance(value, (str, int)) and stamps.match(snake(str(key))) else None
        if day is not None and day != today:
            hits.append((f"$.{key}", f"{key}={value!r} is not the session's today ({today.isoformat()}): "
                                     "the write stamps it"))
    return hits


# -- search rows, determinism --------------------------------------------------------------


def collection_rows(spec: ToolSpec, result: Any) -> list[Any] | None:
    """The search/list result's collection array, or None when it has none."""
    coll = spec.profile.collection
    if not coll or not isinstance(result, dict) or not isinstance(result.get(coll), list):
        return None
    return result[coll]


def row_ids(spec: ToolSpec, rows: list[Any], limit: int = 2) -> list[tuple[str, Any]]:
    """``(path, id)`` of the first ``limit`` rows with an id: ``id_field``, ``<entity>_id`` or ``id``."""
    names = [n for n in (spec.profile.id_field, f"{spec.profile.entity}_id", "id") if n]
    found: list[tuple[str, Any]] = []
    bare = (spec.profile.collection or "").lower().endswith("ids")
    for i, row in enumerate(rows):
        if bare and isinstance(row, (str, int)) and not isinstance(row, bool):
            found.append((f"$.{spec.profile.collection}[{i}]", row))
            if len(found) >= limit:
                break
            continue
        if not isinstance(row, dict):
            continue
        key = next((n for n in names if row.get(n) is not None), None)
        if key is not None and not isinstance(row[key], (bool, dict, list)):
            found.append((f"$.{spec.profile.collection}[{i}].{key}", row[key]))
        if len(found) >= limit:
            break
    return found


def first_difference(a: Any, b: Any, path: str = "$") -> str | None:
    """Path of the first place two JSON values differ, or None when they are equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}"
            hit = first_difference(a[key], b[key], f"{path}.{key}")
            if hit:
                return hit
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):  # lengths compared below
            hit = first_difference(x, y, f"{path}[{i}]")
            if hit:
                return hit
        return None if len(a) == len(b) else f"{path}[{min(len(a), len(b))}]"
    return None if canonical(a) == canonical(b) else path
