"""Numbers of one record that must agree: a page of results, and a min/avg/max summary.

* Pagination: ``total`` is at least what this page and the ones before it hold,
  ``pages = ceil(total / per_page)``, the current page is within ``pages``, and a page
  holds no more rows than ``per_page``.
* Statistics: of ``min_x``/``x_min``/``minx``, ``avg_x`` and ``max_x`` (one group per
  ``x``), the minimum is at most the average, the average at most the maximum.

Each part binds a record once per schema (``binds``), repairs a generated record
(``enforce``) and reports what a result breaks (``violations``) for the audit.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

TOTAL = ("total", "total_results", "totalResults", "total_count", "totalCount", "total_items", "totalItems",
         "num_found", "numFound", "total_hits", "totalHits", "nbHits", "result_count", "count_total")
PAGES = ("pages", "total_pages", "totalPages", "page_count", "pageCount", "num_pages", "nbPages", "last_page")
PAGE = ("page", "current_page", "currentPage", "page_number", "pageNumber")
PER_PAGE = ("per_page", "page_size", "pageSize", "perPage", "limit", "hitsPerPage", "rows")
_ARG_PER_PAGE = ("per_page", "page_size", "pageSize", "perPage", "limit", "hitsPerPage", "rows", "count",
                 "max_results", "size")
_STAT = re.compile(r"^(?:(min|max|avg|mean|average)_?(.*)|(.*?)_?(min|max|avg|mean|average))$")
_ROLE = {"min": "min", "max": "max", "avg": "avg", "mean": "avg", "average": "avg"}


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value)


def _key(record: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    return next((n for n in names if n in record and _int(record[n]) is not None), None)


def _rows(record: Mapping[str, Any]) -> list[Any] | None:
    lists = [v for v in record.values() if isinstance(v, list)]
    return max(lists, key=len) if lists else None


# -- pagination ------------------------------------------------------------------------------


def binds_pages(props: Iterable[str], has_list: bool) -> bool:
    names = set(props)
    return has_list and bool(names & (set(TOTAL) | set(PAGES) | set(PAGE)))


def _page_facts(record: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[int, int, int] | None:
    """(rows on this page, page number, page size) of a paged record, or None. The size is
    the one the call asked for; without one, the page shown is a full page."""
    rows = _rows(record)
    if rows is None:
        return None
    arg_size = _key(args, _ARG_PER_PAGE)
    size = _int(args[arg_size]) if arg_size else None
    # The page asked for (the first when none was): a page number echoes the question.
    arg_page = _key(args, ("page", "page_number", "pageNumber"))
    page = _int(args[arg_page]) if arg_page else 1
    return len(rows), max(1, page or 1), max(size or len(rows) or 1, len(rows), 1)


def _clamp(record: dict[str, Any], key: str | None, props: Mapping[str, Any]) -> None:
    """Keep ``record[key]`` within its schema's bounds, which win over the arithmetic."""
    sub = props.get(key) if key else None
    if not isinstance(sub, dict):
        return
    lo, hi = sub.get("minimum"), sub.get("maximum")
    if isinstance(hi, (int, float)) and record[key] > hi:  # type: ignore[index]
        record[key] = type(record[key])(hi)  # type: ignore[index]
    if isinstance(lo, (int, float)) and record[key] < lo:  # type: ignore[index]
        record[key] = type(record[key])(lo)  # type: ignore[index]


def enforce_pages(record: dict[str, Any], args: Mapping[str, Any], props: Mapping[str, Any] | None = None) -> None:
    """Make the page figures add up; ``props`` (the record's schema properties) keep each
    figure within its declared bounds."""
    facts = _page_facts(record, args)
    if facts is None:
        return
    bounds = props or {}
    n, page, size = facts
    total_key, pages_key, page_key = _key(record, TOTAL), _key(record, PAGES), _key(record, PAGE)
    size_key = _key(record, PER_PAGE)
    if size_key is not None:
        record[size_key] = size
        _clamp(record, size_key, bounds)
    if page_key is not None:
        record[page_key] = page
        _clamp(record, page_key, bounds)
    before = (page - 1) * size
    if total_key is not None:
        total = int(record[total_key])
        # A short page is the last one: the total is exactly what came before plus it.
        record[total_key] = before + n if n < size else max(total, before + n)
        _clamp(record, total_key, bounds)
        total = int(record[total_key])
    elif pages_key is not None:
        total = before + n if n < size else max(int(record[pages_key]), page) * size
    else:
        return
    if pages_key is not None:
        record[pages_key] = max(1, math.ceil(total / size))
        _clamp(record, pages_key, bounds)


def page_violations(record: Mapping[str, Any], args: Mapping[str, Any]) -> list[str]:
    facts = _page_facts(record, args)
    if facts is None:
        return []
    n, page, size = facts
    found: list[str] = []
    total_key, pages_key, page_key = _key(record, TOTAL), _key(record, PAGES), _key(record, PAGE)
    if total_key is not None and record[total_key] < (page - 1) * size + n:
        found.append(f"{total_key}={record[total_key]} is less than the {n} rows of page {page} and those before it")
    if total_key is not None and pages_key is not None and record[pages_key] != max(1, math.ceil(record[total_key] / size)):
        found.append(f"{pages_key}={record[pages_key]} but {record[total_key]} results at {size} a page make "
                     f"{max(1, math.ceil(record[total_key] / size))}")
    if page_key is not None and record[page_key] != page:
        found.append(f"{page_key}={record[page_key]}, though the call asked for page {page}")
    # An empty page past the end is what a real API answers; rows there are not.
    if pages_key is not None and page_key is not None and n and record[page_key] > max(1, record[pages_key]):
        found.append(f"{page_key}={record[page_key]} is beyond {pages_key}={record[pages_key]}")
    arg_size = _key(args, _ARG_PER_PAGE)
    if arg_size is not None and 0 < _int(args[arg_size]) < n:  # type: ignore[operator]
        found.append(f"{n} rows, though the call asked for at most {args[arg_size]}")
    return found


# -- min / avg / max -------------------------------------------------------------------------


def stat_groups(props: Iterable[str]) -> tuple[tuple[str | None, str | None, str | None], ...]:
    """(min, avg, max) field names of each summarised quantity with a min and a max."""
    groups: dict[str, dict[str, str]] = {}
    for name in props:
        low = name.lower()
        match = _STAT.match(low)
        if match is None:
            continue
        role = _ROLE[match.group(1) or match.group(4)]
        stem = (match.group(2) if match.group(1) else match.group(3)) or ""
        groups.setdefault(stem.strip("_"), {}).setdefault(role, name)
    bounded = [g for _, g in sorted(groups.items()) if "min" in g and "max" in g]
    lone_avgs = [g["avg"] for g in groups.values() if set(g) == {"avg"}]
    no_avg = [g for g in bounded if "avg" not in g]
    if len(lone_avgs) == 1 and len(no_avg) == 1:  # temp_avg with maxt and mint
        lone_stem, stem = _stem(lone_avgs[0]), _stem(no_avg[0]["max"])
        if lone_stem and stem and (lone_stem in stem or stem in lone_stem):
            no_avg[0]["avg"] = lone_avgs[0]
    return tuple((g.get("min"), g.get("avg"), g.get("max")) for g in bounded)


def _stem(name: str) -> str:
    match = _STAT.match(name.lower())
    if match is None:
        return ""
    return ((match.group(2) if match.group(1) else match.group(3)) or "").strip("_")


def _num(record: Mapping[str, Any], key: str | None) -> float | None:
    value = record.get(key) if key else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def enforce_stats(record: dict[str, Any], groups: tuple[tuple[str | None, str | None, str | None], ...]) -> None:
    for lo_key, avg_key, hi_key in groups:
        lo, avg, hi = _num(record, lo_key), _num(record, avg_key), _num(record, hi_key)
        if lo is None or hi is None:
            continue
        if lo > hi:
            record[lo_key], record[hi_key] = record[hi_key], record[lo_key]  # type: ignore[index]
            lo, hi = hi, lo
        if avg is not None and not lo <= avg <= hi:
            middle = (lo + hi) / 2
            record[avg_key] = int(round(middle)) if isinstance(record[avg_key], int) else round(middle, 1)  # type: ignore[index]


def stat_violations(record: Mapping[str, Any]) -> list[str]:
    found: list[str] = []
    for lo_key, avg_key, hi_key in stat_groups(record):
        lo, avg, hi = _num(record, lo_key), _num(record, avg_key), _num(record, hi_key)
        if lo is not None and hi is not None and lo > hi:
            found.append(f"{lo_key}={lo} is above {hi_key}={hi}")
        elif lo is not None and hi is not None and avg is not None and not lo <= avg <= hi:
            found.append(f"{avg_key}={avg} is outside {lo_key}..{hi_key} ({lo}..{hi})")
    return found
