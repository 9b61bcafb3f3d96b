"""A search or list answers the question it was asked.

``answer_rows`` makes freshly generated rows agree with the call: the search term appears
in each row (woven into its title, name or tags where it does not), filters hold (a status
asked for is the status shown, a category is among the row's categories, a number lies
within ``min_*``/``max_*``, a date within ``start_date``..``end_date``). ``order_rows`` sorts
and caps rows as ``sort``/``order``/``limit`` ask, on every call (remembered rows too), and
``answer_pages`` makes the paging fields agree with the rows and the arguments (the page
asked for, a total no smaller than what is shown, pages = ceil(total / per page)).

The audit's ``env_server/specs/audit_lists.py`` checks the same rules from the outside.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterator, Mapping
from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators import invariants
from env_server.simulators.naming import snake
from env_server.simulators.plans import LONG_ECHO_CHARS, fits_schema, singular

QUERY_ARGS = ("q", "query", "search", "keywords", "keyword", "term", "search_query", "search_term", "text",
              "phrase", "query_string", "searchterm", "search_text")
LIMIT_ARGS = ("limit", "per_page", "page_size", "max_results", "size", "count", "rows", "top", "first", "max_rows",
              "page_limit", "num_results", "results", "n", "max", "num")
PAGE_ARGS = ("page", "page_number", "current_page", "p")
OFFSET_ARGS = ("offset", "start", "skip", "start_index", "from_index")
SORT_ARGS = ("sort", "sort_by", "order_by", "ordering", "sort_field", "orderby", "sortby", "sort_key")
DIRECTION_ARGS = ("order", "direction", "dir", "sort_order", "sort_direction", "sort_dir")
_ASC = frozenset({"asc", "ascending", "up", "oldest", "a-z", "az", "lowest", "cheapest"})
_DESC = frozenset({"desc", "descending", "down", "newest", "latest", "recent", "z-a", "za", "highest", "top",
                   "popular", "most_popular", "popularity"})
_DATE_SORTS = frozenset({"date", "newest", "latest", "recent", "new", "oldest", "created", "published", "updated",
                         "time", "created_at", "updated_at", "published_at", "date_desc", "date_asc"})
_POPULAR_RE = re.compile(r"popular|stars|rating|score|vote|view|download|like|follower|count|rank|hits|plays")
_STOPWORDS = frozenset({"the", "and", "or", "not", "of", "for", "in", "on", "at", "to", "a", "an", "with", "by",
                        "from", "is", "are", "all", "any"})
_TITLE_FIELDS = ("title", "name", "headline", "display_name", "full_name", "term", "label", "subject", "caption",
                 "short_description", "description", "summary", "snippet", "abstract", "text", "content", "body")
_TAG_FIELDS = ("tags", "keywords", "topics", "categories", "subjects", "labels", "genres")
_PERSONAL = re.compile(r"(^|_)(user|author|owner|creator|first_name|last_name|login|email|handle|username|nickname)(_|$)")
_ISO_RE = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?")
_LOWER_DATE_RE = re.compile(r"(^|_)(start|from|since|after|begin|gte|gt|min)(_|$)")
_UPPER_DATE_RE = re.compile(r"(^|_)(end|to|until|before|lte|lt|max)(_|$)")
_END_FIELD_RE = re.compile(r"(^|_)(end|ends|ended|until|stop|finish|finished|expires|expiry|due|return)(_|$)")
_NOT_FILTERS = frozenset(QUERY_ARGS + LIMIT_ARGS + PAGE_ARGS + OFFSET_ARGS + SORT_ARGS + DIRECTION_ARGS + (
    "fields", "format", "api_key", "apikey", "cursor", "page_token", "callback", "key", "token"))
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


def requested_limit(args: Mapping[str, Any]) -> int | None:
    for key, value in args.items():
        if snake(key) in LIMIT_ARGS and type(value) is int and value > 0:
            return value
    return None


def _arg_int(args: Mapping[str, Any], names: tuple[str, ...]) -> int | None:
    for key, value in args.items():
        if snake(key) in names and type(value) is int and value >= 0:
            return value
    return None


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


def shows_term(row: Any, words: list[str]) -> bool:
    """Whether a row shows one of the term's words; a row with no text to show it in (only
    codes, numbers, places) is not judged."""
    if not words or isinstance(row, dict) and not carries_text(row):
        return True
    text = row_text(row)
    return any(w in text for w in words)


def carries_text(row: Mapping[str, Any]) -> bool:
    """A title, name, tags or a line of text of three words or more."""
    for key, value in row.items():
        name = snake(key)
        if (name in _TITLE_FIELDS or name in _TAG_FIELDS) and not _PERSONAL.search(name):
            return True
        if isinstance(value, str) and value.count(" ") >= 2 and "://" not in value:
            return True
    return False


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
        answer_rows(rows, args, items)
    out[coll] = order_rows(rows, args)
    answer_pages(out, spec.output_schema, args, len(out[coll]))


def filter_misses(row: Mapping[str, Any], args: Mapping[str, Any], props: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Equal-valued filters: a filter named like a row field (a value the field's schema can
    hold) is that field's value, or among its values."""
    fields = {snake(k): k for k in row if not k.startswith("_")}
    for key, want in args.items():
        name = snake(key)
        if name in _NOT_FILTERS or name == "id" or key.startswith("_") or _window_arg(name, want):
            continue
        field = fields.get(name) or fields.get(singular(name))
        if field is None or want is None or isinstance(want, (dict, bool)):
            continue
        have, schema = row[field], props.get(field)
        options = want if isinstance(want, list) else str(want).split(",") if isinstance(want, str) else [want]
        if isinstance(schema, dict) and schema.get("type") == "array":
            schema = schema.get("items")
        if not isinstance(schema, dict) or all(enum_match(o, schema) is None for o in options):
            continue  # a value the field cannot hold (a group such as status=closed): not judged
        wanted = {normal(o) for o in options}
        if isinstance(have, list):
            if have and not {normal(h) for h in have} & wanted:
                yield field, f"{field}={have!r} holds none of the requested {key}={want!r}"
        elif isinstance(have, (str, int, float)) and not isinstance(have, bool) and normal(have) not in wanted:
            yield field, f"{field}={have!r} but the call filtered {key}={want!r}"


def _window_arg(name: str, value: Any) -> bool:
    """A bound of a window (``start_date``, ``endDate``, ``published_after``, ``from``), not
    a value to equal."""
    return bool(_LOWER_DATE_RE.search(name) or _UPPER_DATE_RE.search(name)) and (
        not isinstance(value, str) or bool(_ISO_RE.match(value)))


def question_args(args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments ``fits_question`` judges by: the search term and the date window."""
    return {k: v for k, v in args.items() if snake(k) in QUERY_ARGS or isinstance(v, str) and _ISO_RE.match(v)
            and _window_arg(snake(k), v)}


def fits_question(row: Mapping[str, Any], args: Mapping[str, Any]) -> bool:
    """Whether a stored row answers the call's term and date window (a list of the user's
    own rows filters them by these; equal-valued filters are ``rows.matches``)."""
    term = search_term(args)
    if term and not shows_term({k: v for k, v in row.items() if not k.startswith("_")}, term_words(term)):
        return False
    lo, hi = date_window(args)
    if lo is None and hi is None:
        return True
    first = first_date_field(row)
    day = _day(row[first]) if first is not None else None
    return day is None or (lo is None or day >= lo) and (hi is None or day <= hi)


# -- fresh rows --------------------------------------------------------------------------


def answer_rows(rows: list[Any], args: Mapping[str, Any], item_schema: Mapping[str, Any]) -> None:
    """Make freshly generated ``rows`` agree with the call's term and filters, in place."""
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
        for field, want, lower in filters:
            if field not in row:
                continue
            if lower is None:
                _match_value(row, field, props[field], want, i)
            else:
                _into_range(row, field, props[field], lower, want)
        if rules or window != (None, None):
            _into_window(row, props, window)
            invariants.enforce(row, args, rules)
        if words and not shows_term(row, words):
            _weave_term(row, term or "", props)


def _filter_plan(args: Mapping[str, Any], props: dict[str, Any]) -> list[tuple[str, Any, bool | None]]:
    """(field, wanted value, None) for a filter to equal; (field, bound, lower?) for a
    ``min_*``/``max_*`` bound. Paging, sorting, the term and date windows are not filters."""
    by_snake = {snake(k): k for k in props}
    plan: list[tuple[str, Any, bool | None]] = []
    for key, want in args.items():
        name = snake(key)
        if name in _NOT_FILTERS or name == "id" or want is None or _window_arg(name, want) or isinstance(
                want, str) and len(want) > LONG_ECHO_CHARS:
            continue  # a long value is echoed into the call's own record only (``plans``)
        field = by_snake.get(name) or by_snake.get(singular(name)) or by_snake.get(name + "s")
        if field is not None:
            plan.append((field, want, None))
            continue
        ranged = _RANGE_RE.match(name)
        if ranged and isinstance(want, (int, float)) and not isinstance(want, bool):
            bound, target = (ranged.group(1), ranged.group(2)) if ranged.group(1) else (ranged.group(4), ranged.group(3))
            if target in by_snake:
                plan.append((by_snake[target], want, bound in ("min", "gte", "gt", "from")))
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


# -- dates -------------------------------------------------------------------------------


def date_window(args: Mapping[str, Any]) -> tuple[dt.date | None, dt.date | None]:
    """The dates a search is limited to: ``start_date``/``end_date``, ``from``/``to``,
    ``published_after``/``published_before``, ``*_gte``/``*_lte`` …"""
    lo = hi = None
    for key, value in args.items():
        if not isinstance(value, str) or not _ISO_RE.match(value):
            continue
        day = _day(value)
        name = snake(key)
        if day is None:
            continue
        if _LOWER_DATE_RE.search(name) and lo is None:
            lo = day
        elif _UPPER_DATE_RE.search(name) and hi is None:
            hi = day
    if lo is not None and hi is not None and hi < lo:
        return None, None  # a window that holds nothing: the rows are left as drawn
    return lo, hi


def first_date_field(row: Mapping[str, Any]) -> str | None:
    """The field a date filter judges a row by: its first date that is not an end."""
    return next((k for k, v in row.items() if not k.startswith("_") and isinstance(v, str) and _ISO_RE.match(v)
                 and not _END_FIELD_RE.search(snake(k))), None)


def _day(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError:
        return None


def _into_window(row: dict[str, Any], props: dict[str, Any], window: tuple[dt.date | None, dt.date | None]) -> None:
    """The row's first date lies inside the window; its end dates move along with it."""
    lo, hi = window
    dated = [k for k, v in row.items() if isinstance(v, str) and _ISO_RE.match(v) and k in props]
    first = first_date_field(row)
    if first is None or first not in props:
        return
    day = _day(row[first])
    if day is None or (lo is None or day >= lo) and (hi is None or day <= hi):
        return
    if lo is not None and hi is not None:
        target = lo + dt.timedelta(days=(day - lo).days % ((hi - lo).days + 1))
    elif lo is not None:
        target = lo + dt.timedelta(days=(lo - day).days % 30)
    elif hi is not None:
        target = hi - dt.timedelta(days=(day - hi).days % 30)
    else:
        return
    shift = target - day
    for key in dated:  # the record happened then: its dates move together
        moved = _shift(row[key], shift)
        if moved is not None and fits_schema(moved, props[key]):
            row[key] = moved


def _shift(text: str, days: dt.timedelta) -> str | None:
    day = _day(text)
    if day is None:
        return None
    return (day + days).isoformat() + text[10:]


# -- the term ----------------------------------------------------------------------------


def _weave_term(row: dict[str, Any], term: str, props: dict[str, Any]) -> None:
    """Put the term where a reader of the row sees it: in its title or name, else its tags,
    else its description."""
    by_snake = {snake(k): k for k in row}
    shown = term if len(term) <= 60 else term[:60].rsplit(" ", 1)[0]
    for name in _TITLE_FIELDS:
        key = by_snake.get(name)
        if key is None or _PERSONAL.search(name) or not isinstance(row[key], str):
            continue
        schema = props.get(key)
        if not isinstance(schema, dict) or "enum" in schema or schema.get("format"):
            continue
        value = row[key]
        woven = shown if name == "term" else f"{_titled(shown)}: {value}" if len(value) < 80 else f"{shown}. {value}"
        if fits_schema(woven, schema):
            row[key] = woven
            return
    for name in _TAG_FIELDS:
        key = by_snake.get(name)
        sub = props.get(key or "")
        items = sub.get("items") if isinstance(sub, dict) else None
        if (key is not None and isinstance(row[key], list) and all(isinstance(v, str) for v in row[key])
                and isinstance(items, dict) and fits_schema(shown, items)):
            row[key] = [shown, *row[key]]
            return
    for key, value in row.items():  # no title, no tags: the row's first line of text
        schema = props.get(key)
        if (isinstance(value, str) and " " in value.strip() and isinstance(schema, dict) and "enum" not in schema
                and not schema.get("format") and not _PERSONAL.search(snake(key)) and not _ISO_RE.match(value)
                and "://" not in value and fits_schema(woven := f"{_titled(shown)}: {value}", schema)):
            row[key] = woven
            return


def _titled(text: str) -> str:
    return " ".join(w[:1].upper() + w[1:] if w.islower() else w for w in text.split(" "))


# -- order, limit, pages -----------------------------------------------------------------


def sort_request(args: Mapping[str, Any]) -> tuple[str, bool | None] | None:
    """(what to sort by, descending?) from ``sort``/``order_by`` and ``order``/``direction``."""
    key = direction = None
    for name, value in args.items():
        s = snake(name)
        if not isinstance(value, str) or not value.strip():
            continue
        if s in SORT_ARGS and key is None:
            key = value.strip()
        elif s in DIRECTION_ARGS and direction is None:
            low = value.strip().lower()
            if low in _ASC or low in _DESC:
                direction = low in _DESC
            elif s == "order" and key is None:
                key = value.strip()
    if key is None:
        return None
    desc = direction
    if key.startswith("-"):
        key, desc = key[1:], True if desc is None else desc
    match = re.match(r"^(.+?)[\s:._-](asc|desc|ascending|descending)$", key, re.IGNORECASE)
    if match:
        key, desc = match.group(1), match.group(2).lower().startswith("desc") if desc is None else desc
    return snake(key.lstrip("+")), desc


def sort_field(rows: list[Any], wanted: str) -> str | None:
    """The row field a sort key names: itself, a date for "newest", a count for "popular"."""
    sample = next((r for r in rows if isinstance(r, dict)), None)
    if sample is None:
        return None
    fields = {snake(k): k for k, v in sample.items() if isinstance(v, (str, int, float)) and not isinstance(v, bool)}
    if wanted in fields:
        return fields[wanted]
    if wanted in _DATE_SORTS:
        return next((k for k, v in sample.items() if isinstance(v, str) and _ISO_RE.match(v)
                     and not _END_FIELD_RE.search(snake(k))), None)
    if _POPULAR_RE.search(wanted) or wanted in _DESC:
        return next((k for s, k in fields.items() if _POPULAR_RE.search(s) and isinstance(sample[k], (int, float))),
                    None)
    return None


def sort_keys(rows: list[Any], field: str) -> list[Any] | None:
    """The rows' values of ``field`` as sort keys (text lowercased), when all are numbers or all text."""
    values = [r.get(field) if isinstance(r, dict) else None for r in rows]
    if all(isinstance(v, str) for v in values):
        return [str(v).lower() for v in values]
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return values
    return None


def order_rows(rows: list[Any], args: Mapping[str, Any]) -> list[Any]:
    """Rows sorted as the call asks (when the key names a field) and cut to its limit."""
    asked = sort_request(args)
    if asked is not None and len(rows) > 1:
        field = sort_field(rows, asked[0])
        keys = sort_keys(rows, field) if field is not None else None
        if keys is not None:
            first = rows[0][field]
            desc = asked[1] if asked[1] is not None else not isinstance(first, str) or bool(_ISO_RE.match(first))
            order = sorted(range(len(rows)), key=lambda i: keys[i], reverse=desc)
            rows = [rows[i] for i in order]
    limit = requested_limit(args)
    return rows[:limit] if limit is not None else rows


_TOTAL = ("total", "total_results", "total_count", "total_hits", "total_items", "total_records", "total_result_count",
          "num_found", "nb_hits", "number_of_results", "result_total", "results_count", "record_count", "found",
          "hits", "num_results", "count")
_PAGE = frozenset({"page", "current_page", "page_number", "page_num"})
_PER_PAGE = frozenset({"per_page", "page_size", "limit", "items_per_page", "hits_per_page", "size", "rows"})
_PAGES = frozenset({"total_pages", "pages", "page_count", "num_pages", "last_page", "nb_pages"})
_OFFSET = frozenset({"offset", "start", "start_index", "skip", "from"})
PAGINATION_HOLDERS = frozenset({"pagination", "paging", "meta", "page_info", "info", "search_information",
                                "search_metadata", "links"})


def answer_pages(out: dict[str, Any], schema: Mapping[str, Any], args: Mapping[str, Any], shown: int) -> None:
    """The paging fields of a search answer agree with its rows and the call (in place)."""
    props = schema.get("properties")
    if not isinstance(props, dict):
        return
    _page_fields(out, props, args, shown)
    for key, sub in props.items():
        if snake(key) in PAGINATION_HOLDERS and isinstance(out.get(key), dict) and isinstance(sub, dict):
            inner = sub.get("properties")
            if isinstance(inner, dict):
                _page_fields(out[key], inner, args, shown)


def _page_fields(out: dict[str, Any], props: dict[str, Any], args: Mapping[str, Any], shown: int) -> None:
    ints = {snake(k): k for k, v in out.items() if type(v) is int and k in props}
    if not ints:
        return
    page = _arg_int(args, PAGE_ARGS)
    limit = requested_limit(args)
    per_page = limit or max(shown, 1)
    page = page if page is not None and page >= 1 else 1
    offset = _arg_int(args, OFFSET_ARGS)
    if offset is None:
        offset = (page - 1) * per_page
    total_key = next((ints[n] for n in _TOTAL if n in ints), None)
    total = None
    if total_key is not None:
        floor = offset + shown
        total = max(out[total_key], floor)
        if shown < per_page:  # a short page is the last one
            total = floor
        _put(out, total_key, total, props)
        if total_key != ints.get("count") and "count" in ints:
            _put(out, ints["count"], shown, props)  # beside a total, a count is this page's
    for name, key in ints.items():
        if name in _PAGE:
            _put(out, key, page, props)
        elif name in _PER_PAGE and key != total_key:
            _put(out, key, per_page, props)
        elif name in _OFFSET:
            _put(out, key, offset + (1 if name == "start_index" and out[key] >= 1 and offset == 0 else 0), props)
        elif name in _PAGES and total is not None:
            _put(out, key, max(page, math.ceil(total / per_page)), props)
        elif name in _PAGES:
            _put(out, key, max(page, min(out[key], page + 20)), props)


def _put(out: dict[str, Any], key: str, value: int, props: dict[str, Any]) -> None:
    sub = props.get(key)
    if isinstance(sub, dict) and fits_schema(value, sub):
        out[key] = value
