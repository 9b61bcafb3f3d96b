"""Order, limit and pages: a list answer sorted, cut and counted as its call asks.

``order_rows`` sorts rows by the field a ``sort``/``order_by`` key names (a date for
"newest", a count for "popular"), in the ``order``/``direction`` asked, and cuts them to
the limit (``limit``, ``per_page``, ``pageSize`` …); ``page_of`` takes the page a call asks
for out of all the rows a stored list holds. The paging figures (page, per page, offset,
total, pages, a page's count) agree with the rows shown and the call everywhere through
one rule, ``_page_fields``: ``answer_pages`` applies it to a search or list answer (and
its ``pagination``/``meta`` holder), ``page_record`` to any generated record that holds a
list (``plans``), and ``page_violations`` reports where a result breaks it (the audit).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from env_server.simulators import echoes
from env_server.simulators.naming import snake

LIMIT_ARGS = ("limit", "per_page", "page_size", "max_results", "size", "count", "rows", "top", "first", "max_rows",
              "page_limit", "num_results", "results", "n", "max", "num")
PAGE_ARGS = ("page", "page_number", "current_page", "p")
OFFSET_ARGS = ("offset", "start", "skip", "start_index", "from_index")
SORT_ARGS = ("sort", "sort_by", "order_by", "ordering", "sort_field", "orderby", "sortby", "sort_key")
DIRECTION_ARGS = ("order", "direction", "dir", "sort_order", "sort_direction", "sort_dir")
_NEAREST_FIRST = re.compile(r"(^|_)(distance|dist)(_|$)")
_ASC = frozenset({"asc", "ascending", "up", "oldest", "a-z", "az", "lowest", "cheapest"})
_DESC = frozenset({"desc", "descending", "down", "newest", "latest", "recent", "z-a", "za", "highest", "top",
                   "popular", "most_popular", "popularity"})
_DATE_SORTS = frozenset({"date", "newest", "latest", "recent", "new", "oldest", "created", "published", "updated",
                         "time", "created_at", "updated_at", "published_at", "date_desc", "date_asc"})
_POPULAR_RE = re.compile(r"popular|stars|rating|score|vote|view|download|like|follower|count|rank|hits|plays")
ISO_RE = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?")
END_FIELD_RE = re.compile(r"(^|_)(end|ends|ended|until|stop|finish|finished|expires|expiry|due|return)(_|$)")


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
        return next((k for k, v in sample.items() if isinstance(v, str) and ISO_RE.match(v)
                     and not END_FIELD_RE.search(snake(k))), None)
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
    rows = sort_rows(rows, args)
    limit = requested_limit(args)
    return rows[:limit] if limit is not None else rows


def sort_rows(rows: list[Any], args: Mapping[str, Any]) -> list[Any]:
    """Rows sorted as the call asks, when its key names a field they all carry."""
    asked = sort_request(args)
    if asked is None or len(rows) < 2:
        return rows
    field = sort_field(rows, asked[0])
    keys = sort_keys(rows, field) if field is not None else None
    if keys is None:
        return rows
    first = rows[0][field]
    # Unsaid, numbers and dates come highest first, distances nearest first.
    desc = asked[1] if asked[1] is not None else (not isinstance(first, str) and not _NEAREST_FIRST.search(
        snake(field))) or (isinstance(first, str) and bool(ISO_RE.match(first)))
    order = sorted(range(len(rows)), key=lambda i: keys[i], reverse=desc)
    return [rows[i] for i in order]


def page_of(rows: list[Any], args: Mapping[str, Any]) -> list[Any]:
    """The page a call asks for out of all the rows of a stored list: ``limit`` rows from
    the offset (or from ``(page - 1) * limit``). Without a limit or an offset the list is one page."""
    limit = requested_limit(args)
    offset = _arg_int(args, OFFSET_ARGS)
    if limit is None and offset is None:
        return rows
    start = offset if offset is not None else ((_arg_int(args, PAGE_ARGS) or 1) - 1) * (limit or 0)
    return rows[start: start + limit] if limit is not None else rows[start:]


# Totals by name, those that say so first; "found", "hits" and "count" are a total only
# where nothing else is (``_SURE_TOTALS`` leaves them out).
_SURE_TOTALS = ("total", "total_results", "total_count", "total_hits", "total_items", "total_records",
                "total_result_count", "num_found", "nb_hits", "number_of_results", "result_total", "results_count",
                "record_count", "result_count", "count_total")
_TOTAL = (*_SURE_TOTALS, "found", "hits", "num_results", "count")
_PAGE = frozenset({"page", "current_page", "page_number", "page_num"})
_PER_PAGE = frozenset({"per_page", "page_size", "limit", "items_per_page", "hits_per_page", "size", "rows"})
_PAGES = frozenset({"total_pages", "pages", "page_count", "num_pages", "last_page", "nb_pages"})
_OFFSET = frozenset({"offset", "start", "start_index", "skip", "from"})
PAGINATION_HOLDERS = frozenset({"pagination", "paging", "meta", "page_info", "info", "search_information",
                                "search_metadata", "links"})


# Paging figures a generated record must hold (with a list) for ``page_record`` to bind it
# (and the audit to judge it): a total of results or a page number. A ``count`` or a
# dataset's ``record_count`` beside a list of tags, or a document's ``page_count`` beside its
# signers, is no page's figure unless the record pages.
_RESULT_TOTALS = ("total", "total_results", "total_count", "total_items", "num_found", "total_hits", "nb_hits",
                  "result_count", "count_total")
_BINDING = frozenset(_RESULT_TOTALS) | _PAGE


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


def binds_pages(props: Iterable[str], has_list: bool) -> bool:
    """Whether records of a schema with these properties page a list (decided once per schema)."""
    return has_list and any(snake(k) in _BINDING for k in props)


def page_record(record: dict[str, Any], args: Mapping[str, Any], props: Mapping[str, Any]) -> None:
    """The paging figures of a generated record agree with its (longest) list and the call (in place)."""
    rows = _longest_list(record)
    if rows is not None:
        _page_fields(record, props, args, len(rows))


def page_violations(record: Mapping[str, Any], args: Mapping[str, Any]) -> list[str]:
    """Where a record's paging figures disagree with its (longest) list and the call."""
    rows = _longest_list(record)
    if rows is None:
        return []
    n = len(rows)
    page, per_page, offset = _page_request(args, n)
    ints = {snake(k): k for k, v in record.items() if type(v) is int}
    total_key = next((ints[name] for name in _RESULT_TOTALS if name in ints), None)
    total = record[total_key] if total_key else None
    found: list[str] = []
    if total is not None and total < offset + n:
        found.append(f"{total_key}={total} is less than the {n} rows of page {page} and those before it")
    for name, key in ints.items():
        if name in _PAGES and total is not None and record[key] != max(page, math.ceil(total / per_page)):
            found.append(f"{key}={record[key]} but {total} results at {per_page} a page make "
                         f"{max(page, math.ceil(total / per_page))}")
        elif name in _PAGE and record[key] != page:
            found.append(f"{key}={record[key]}, though the call asked for page {page}")
    limit = requested_limit(args)
    if limit is not None and limit < n:
        found.append(f"{n} rows, though the call asked for at most {limit}")
    return found


def _longest_list(record: Mapping[str, Any]) -> list[Any] | None:
    lists = [v for v in record.values() if isinstance(v, list)]
    return max(lists, key=len) if lists else None


def _page_request(args: Mapping[str, Any], shown: int) -> tuple[int, int, int]:
    """(the page asked for, rows a page, the offset of this page's first row): the first page
    when none was asked; without a limit, the page shown is a full one."""
    page = _arg_int(args, PAGE_ARGS) or 1
    per_page = requested_limit(args) or max(shown, 1)
    offset = _arg_int(args, OFFSET_ARGS)
    return page, per_page, (page - 1) * per_page if offset is None else offset


def _page_fields(out: dict[str, Any], props: Mapping[str, Any], args: Mapping[str, Any], shown: int) -> None:
    ints = {snake(k): k for k, v in out.items() if type(v) is int and k in props}
    if not ints:
        return
    page, per_page, offset = _page_request(args, shown)
    total_key = next((ints[n] for n in _TOTAL if n in ints), None)
    total = _put_total(out, props, ints, total_key, offset, shown, shown < per_page) if total_key else None
    for name, key in ints.items():
        value = _page_value(name, out[key], page, per_page, offset, total) if key != total_key else None
        if value is not None:
            _put(out, key, value, props)


def _page_value(name: str, drawn: int, page: int, per_page: int, offset: int, total: int | None) -> int | None:
    """The value of one paging field (None: not a paging field, left as drawn)."""
    if name in _PAGE:
        return page
    if name in _PER_PAGE:
        return per_page
    if name in _OFFSET:  # a 1-based start index stays 1-based
        return offset + (1 if name == "start_index" and drawn >= 1 and offset == 0 else 0)
    if name in _PAGES:
        return max(page, math.ceil(total / per_page) if total is not None else min(drawn, page + 20))
    return None


def _put_total(out: dict[str, Any], props: Mapping[str, Any], ints: dict[str, str], key: str, offset: int,
               shown: int, last: bool) -> int:
    """The total: at least the rows up to this page; exactly them when this page is short
    (the last one). Beside a total, a ``count`` is this page's."""
    total = offset + shown if last else max(out[key], offset + shown)
    _put(out, key, total, props)
    if key != ints.get("count") and "count" in ints:
        _put(out, ints["count"], shown, props)
    return total


def _put(out: dict[str, Any], key: str, value: int, props: Mapping[str, Any]) -> None:
    sub = props.get(key)
    if isinstance(sub, dict) and echoes.fits_schema(value, sub):
        out[key] = value
