"""A search or list answers the question it was asked.

``answer_rows`` makes freshly generated rows agree with the call: the search term appears
in each row (woven into its title, name or tags where it does not), filters hold (a status
asked for is the status shown, a category is among the row's categories, a number lies
within ``min_*``/``max_*``, a date within ``start_date``..``end_date``). ``order_rows`` sorts
and caps rows as ``sort``/``order``/``limit`` ask, on every call (remembered rows too), and
``answer_pages`` (both in ``paging``) make the paging fields agree with the rows and the
arguments (the page asked for, a total no smaller than what is shown, pages = ceil(total /
per page)).

The audit's ``env_server/specs/audit_lists.py`` checks the same rules from the outside.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterator, Mapping
from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators import invariants, timeline
from env_server.simulators.answer_dates import (
    LOWER_DATE_RE,
    UPPER_DATE_RE,
    date_window,
    first_date_field,
    into_window,
    parse_day,
)
from env_server.simulators.arg_fields import field_for_arg, is_name_filter, named_like, shows_name
from env_server.simulators.echoes import LONG_ECHO_CHARS, fits_schema
from env_server.simulators.naming import snake
from env_server.simulators.paging import (
    DIRECTION_ARGS,
    ISO_RE,
    LIMIT_ARGS,
    OFFSET_ARGS,
    PAGE_ARGS,
    SORT_ARGS,
    answer_pages,
    order_rows,
)
from env_server.simulators.plans import singular
from env_server.simulators.term_weave import takes_term, title_shows
from env_server.simulators.term_weave import weave_term as _weave_term

QUERY_ARGS = ("q", "query", "search", "keywords", "keyword", "term", "search_query", "search_term", "text",
              "phrase", "query_string", "searchterm", "search_text")
_STOPWORDS = frozenset({"the", "and", "or", "not", "of", "for", "in", "on", "at", "to", "a", "an", "with", "by",
                        "from", "is", "are", "all", "any"})
_NOT_FILTERS = frozenset(QUERY_ARGS + LIMIT_ARGS + PAGE_ARGS + OFFSET_ARGS + SORT_ARGS + DIRECTION_ARGS + (
    "fields", "format", "api_key", "apikey", "cursor", "page_token", "callback", "key", "token",
    # A coordinate is the centre a search looks around, not a value its rows share.
    "lat", "latitude", "lng", "lon", "long", "longitude",
    # A radius is how far a search looks (Petfinder's ``distance`` miles), not a distance its rows share.
    "radius", "radius_km", "radius_miles", "max_distance", "distance", "miles"))
_TIMED_RE = re.compile(r"(^|_)(date|time|timestamp|epoch|year|day|month|season|since|until|before|after)(_|$)")
_RANGE_RE = re.compile(r"^(?:(min|max)_(.+)|(.+)_(min|max|gte|lte|gt|lt|from|to))$")


# -- what the call asks ------------------------------------------------------------------


def search_term(args: Mapping[str, Any]) -> str | None:
    """The free-text term of a search (``q``, ``query``, ``keywords`` …), if the call gives one."""
    for key, value in args.items():
        if snake(key) in QUERY_ARGS and isinstance(value, str) and value.strip():
            return value.strip()
    return None


def term_words(term: str) -> list[str]:
    """The words a row must show: field prefixes (``ti:``) and operators dropped."""
    text = re.sub(r"\b[a-z_]+:", " ", term.lower())
    words = [w for w in re.findall(r"[^\W_]+", text) if len(w) > 1 and w not in _STOPWORDS]
    return list(dict.fromkeys(words))


def row_text(row: Any) -> str:
    """Every string of a row, lowercased and joined (what a search term must appear in)."""
    parts: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            parts.append(value)
        elif isinstance(value, dict):
            for sub in value.values():
                walk(sub)
        elif isinstance(value, list):
            for sub in value:
                walk(sub)

    walk(row)
    return " ".join(parts).lower()


def shows_term(row: Any, words: list[str], props: Mapping[str, Any] | None = None) -> bool:
    """Whether a row shows one of the term's words; a row with no text to show it in (only
    codes, numbers, places, names) is not judged. ``props``: the rows' item schema's
    properties, when known."""
    if not words or isinstance(row, dict) and not carries_text(row, props):
        return True
    text = row_text(row)
    return any(w in text for w in words)


def carries_text(row: Mapping[str, Any], props: Mapping[str, Any] | None = None) -> bool:
    """A title, name, free tags or a line of prose about the row of three words or more: a
    place the term can show in (``term_weave.takes_term``). A row of names, addresses and
    codes only is not judged."""
    props = props or {}
    return any(takes_term(key, value, props.get(key)) for key, value in row.items())


def normal(value: Any) -> str:
    """A filter value as compared: lowercase, ``-``/``_`` as spaces, a plural as its singular."""
    text = re.sub(r"[-_\s]+", " ", str(value).strip().lower())
    return singular(text) if len(text) > 3 else text


def enum_match(want: Any, schema: Mapping[str, Any]) -> Any:
    """The value of ``schema`` that ``want`` asks for: itself when it fits, else the enum value
    it names loosely ("turb" -> "TURB", "generic-meals" -> "Generic meals"); None if none."""
    if fits_schema(want, dict(schema)):
        return want
    enum = schema.get("enum")
    if isinstance(enum, list):
        wanted = normal(want)
        return next((e for e in enum if normal(e) == wanted), None)
    return None


def answer_search(out: dict[str, Any], spec: ToolSpec, args: Mapping[str, Any]) -> None:
    """A freshly generated search/list answer, made to agree with the call (in place)."""
    coll = spec.profile.collection
    rows = out.get(coll or "")
    if not coll or not isinstance(rows, list):
        return
    coll_schema = (spec.output_schema.get("properties") or {}).get(coll)
    items = coll_schema.get("items") if isinstance(coll_schema, dict) else None
    if isinstance(items, dict):
        answer_rows(rows, args, items, spec.profile.entity or "", by_title=searches_titles(spec))
    out[coll] = order_rows(rows, args)
    answer_pages(out, spec.output_schema, args, len(out[coll]))


def filter_misses(row: Mapping[str, Any], args: Mapping[str, Any], props: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Equal-valued filters: a filter named like a row field (a value the field's schema can
    hold) is that field's value, or among its values."""
    fields = {snake(k): k for k in row if not k.startswith("_")}
    for key, want in args.items():
        judged = _judged_filter(key, want, fields, props)
        if judged is None:
            continue
        field, wanted = judged
        have = row[field]
        if is_name_filter(snake(key), snake(field)):
            if isinstance(have, str) and not shows_name(have, want):
                yield field, f"{field}={have!r} does not show the requested {key}={want!r}"
            continue
        if isinstance(have, list):
            if have and not {normal(h) for h in have} & wanted:
                yield field, f"{field}={have!r} holds none of the requested {key}={want!r}"
        elif isinstance(have, (str, int, float)) and not isinstance(have, bool) and normal(have) not in wanted:
            yield field, f"{field}={have!r} but the call filtered {key}={want!r}"


def _judged_filter(key: str, want: Any, fields: Mapping[str, str],
                   props: Mapping[str, Any]) -> tuple[str, set[str]] | None:
    """(the row field a filter argument names, the values it accepts, normalized), or None
    when the argument is no equality filter or asks for a value the field cannot hold (a
    group such as status=closed)."""
    name = snake(key)
    if name in _NOT_FILTERS or name == "id" or key.startswith("_") or _window_arg(name, want):
        return None
    field = field_for_arg(name, fields)
    if field is None or want is None or isinstance(want, (dict, bool)):
        return None
    options = want if isinstance(want, list) else str(want).split(",") if isinstance(want, str) else [want]
    schema = props.get(field)
    if isinstance(schema, dict) and schema.get("type") == "array":
        schema = schema.get("items")
    if not isinstance(schema, dict) or all(enum_match(o, schema) is None for o in options):
        return None
    whole = {normal(want)} if isinstance(want, str) else set()  # "Armenia, Colombia" is one place, not two
    return field, {normal(o) for o in options} | whole


def _window_arg(name: str, value: Any) -> bool:
    """A bound of a window (``start_date``, ``endDate``, ``published_after``, ``from``), not
    a value to equal."""
    if not (LOWER_DATE_RE.search(name) or UPPER_DATE_RE.search(name)):
        return False
    if isinstance(value, str):
        return bool(ISO_RE.match(value))
    # A number bounds a window when it is a moment (an epoch, a year), not an amount (price_max).
    return not isinstance(value, (int, float)) or bool(_TIMED_RE.search(name)) or abs(value) >= 1e9


def question_args(args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments ``fits_question`` judges by: the search term and the date window."""
    return {k: v for k, v in args.items() if snake(k) in QUERY_ARGS or isinstance(v, str) and ISO_RE.match(v)
            and _window_arg(snake(k), v)}


def fits_question(row: Mapping[str, Any], args: Mapping[str, Any], when: str | None = None) -> bool:
    """Whether a stored row answers the call's term and date window (a list of the user's
    own rows filters them by these; equal-valued filters are ``rows.matches``). The window
    judges the row's time-axis field ``when`` (a date, or epoch seconds), else its first date."""
    term = search_term(args)
    if term and not shows_term({k: v for k, v in row.items() if not k.startswith("_")}, term_words(term)):
        return False
    lo, hi = date_window(args)
    if lo is None and hi is None:
        return True
    day = _row_day(row, when)
    return day is None or (lo is None or day >= lo) and (hi is None or day <= hi)


def _row_day(row: Mapping[str, Any], when: str | None) -> dt.date | None:
    """The day a row happened on: its ``when`` field's, else its first date field's."""
    value = row.get(when) if when else None
    if isinstance(value, str) and ISO_RE.match(value):
        return parse_day(value)
    moment = timeline.moment(value, when or "") if value is not None else None
    if moment is not None:
        return moment.date()
    first = first_date_field(row)
    return parse_day(row[first]) if first is not None else None


# -- fresh rows --------------------------------------------------------------------------


def searches_titles(spec: ToolSpec) -> bool:
    """Whether a search matches its term against titles ("Movie title to search", "search
    films by title"): its hits are titled with the term, not described around it."""
    props = spec.input_schema.get("properties") or {}
    asked = next((sub for key, sub in props.items() if snake(key) in QUERY_ARGS and isinstance(sub, dict)), None)
    said = str(asked.get("description") or "") if asked is not None else ""
    return asked is not None and (_TITLE_WORD.search(said) is not None or _BY_TITLE.search(spec.description) is not None)


_TITLE_WORD = re.compile(r"\btitles?\b", re.IGNORECASE)
_BY_TITLE = re.compile(r"\bby (?:its |their )?titles?\b", re.IGNORECASE)


def answer_rows(rows: list[Any], args: Mapping[str, Any], item_schema: Mapping[str, Any], entity: str = "",
                by_title: bool = False) -> None:
    """Make freshly generated ``rows`` (of ``entity``) agree with the call's term and filters, in
    place; a search by title titles its hits with the term (``searches_titles``)."""
    props = item_schema.get("properties")
    if not isinstance(props, dict) or not rows or not args:
        return
    filters = _filter_plan(args, props)
    term = search_term(args)
    words = term_words(term) if term else []
    window = date_window(args)
    if not filters and not words and window == (None, None):
        return
    rules = invariants.rules_for(props) if window != (None, None) else ()
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            continue
        _apply_filters(row, filters, props, i)
        if rules or window != (None, None):
            into_window(row, props, window)
            invariants.enforce(row, args, rules)
        if words and not (title_shows(row, words) if by_title else shows_term(row, words, props)):
            _weave_term(row, term or "", props, entity, by_title=by_title)


def _apply_filters(row: dict[str, Any], filters: list[tuple[str, Any, bool | str | None]], props: dict[str, Any],
                   i: int) -> None:
    """The row holds each filter's value, name or bound."""
    for field, want, lower in filters:
        if field not in row:
            continue
        if lower is None:
            _match_value(row, field, props[field], want, i)
        elif lower == "name":
            _show_name(row, field, props[field], want)
        else:
            _into_range(row, field, props[field], lower is True, want)


def _filter_plan(args: Mapping[str, Any], props: dict[str, Any]) -> list[tuple[str, Any, bool | str | None]]:
    """(field, wanted value, None) for a filter to equal; (field, bound, lower?) for a
    ``min_*``/``max_*`` bound; (field, name, "name") for a name to show (``arg_fields``).
    Paging, sorting, the term and date windows are not filters."""
    by_snake = {snake(k): k for k in props}
    plan: list[tuple[str, Any, bool | str | None]] = []
    for key, want in args.items():
        name = snake(key)
        if name in _NOT_FILTERS or name == "id" or want is None or _window_arg(name, want) or isinstance(
                want, str) and len(want) > LONG_ECHO_CHARS:
            continue  # a long value is echoed into the call's own record only (``plans``)
        ranged = _RANGE_RE.match(name)
        target = (ranged.group(2) or ranged.group(3)) if ranged and name not in by_snake else None
        field = field_for_arg(name, by_snake) if target not in by_snake else None
        if field is not None:
            plan.append((field, want, "name" if is_name_filter(name, snake(field)) else None))
            continue
        if ranged and target in by_snake and isinstance(want, (int, float)) and not isinstance(want, bool):
            plan.append((by_snake[target], want, (ranged.group(1) or ranged.group(4)) in ("min", "gte", "gt", "from")))
    return plan


def _match_value(row: dict[str, Any], field: str, schema: Any, want: Any, i: int) -> None:
    if not isinstance(schema, dict):
        return
    have = row[field]
    options = want if isinstance(want, list) else _split(want) if isinstance(want, str) else [want]
    options = [o for o in options if isinstance(o, (str, int, float, bool))]
    if not options:
        return
    if isinstance(have, list):
        items: dict[str, Any] = schema["items"] if isinstance(schema.get("items"), dict) else {}
        if any(_same(o, h) for o in options for h in have):
            return
        pick = enum_match(options[i % len(options)], items)
        if pick is not None:
            row[field] = [pick, *have[: max(0, int(schema.get("maxItems", 99)) - 1)]]
        return
    if isinstance(have, (dict, list)) or any(_same(o, have) for o in options):
        return
    pick = enum_match(options[i % len(options)], schema)
    if pick is not None:
        row[field] = pick


def _show_name(row: dict[str, Any], field: str, schema: Any, want: Any) -> None:
    """The row's name shows the name asked for (a search by part of a name)."""
    have = row[field]
    if isinstance(have, str) and isinstance(want, str) and want.strip() and not shows_name(have, want):
        named = named_like(have, want)
        if isinstance(schema, dict) and fits_schema(named, schema):
            row[field] = named


def _split(text: str) -> list[str]:
    parts = [p.strip() for p in text.split(",")] if "," in text else [text.strip()]
    return [p for p in parts if p]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return normal(a) == normal(b)
    return bool(a == b) and type(a) is not bool or a is b


def _into_range(row: dict[str, Any], field: str, schema: Any, lower: bool, bound: float) -> None:
    value = row.get(field)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return
    if (value >= bound) if lower else (value <= bound):
        return
    span = max(abs(bound) * 0.5, 1.0)
    moved = bound + (abs(value - bound) % span) if lower else bound - (abs(value - bound) % span)
    moved = max(moved, 0) if bound >= 0 else moved
    new: int | float = int(math.ceil(moved) if lower else math.floor(moved)) if isinstance(value, int) else round(moved, 2)
    if isinstance(schema, dict) and fits_schema(new, schema):
        row[field] = new


# -- the term ----------------------------------------------------------------------------
