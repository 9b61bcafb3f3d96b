"""A search's date window, and rows moved inside it.

``date_window`` reads the days a search is limited to from its arguments
(``start_date``/``end_date``, ``from``/``to``, ``published_after``/``published_before``,
``*_gte``/``*_lte``); ``into_window`` moves a freshly drawn row's first date (and its end
dates with it) inside that window. ``answers.answer_rows`` applies them; the audit's
``specs/audit_lists.py`` reads the same window to judge rows from the outside.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from env_server.simulators.echoes import fits_schema
from env_server.simulators.naming import snake
from env_server.simulators.paging import END_FIELD_RE, ISO_RE

LOWER_DATE_RE = re.compile(r"(^|_)(start|from|since|after|begin|gte|gt|min)(_|$)")
UPPER_DATE_RE = re.compile(r"(^|_)(end|to|until|before|lte|lt|max)(_|$)")


def date_window(args: Mapping[str, Any]) -> tuple[dt.date | None, dt.date | None]:
    """The dates a search is limited to: ``start_date``/``end_date``, ``from``/``to``,
    ``published_after``/``published_before``, ``*_gte``/``*_lte`` …"""
    lo = hi = None
    for key, value in args.items():
        if not isinstance(value, str) or not ISO_RE.match(value):
            continue
        day = parse_day(value)
        name = snake(key)
        if day is None:
            continue
        if LOWER_DATE_RE.search(name) and lo is None:
            lo = day
        elif UPPER_DATE_RE.search(name) and hi is None:
            hi = day
    if lo is not None and hi is not None and hi < lo:
        return None, None  # a window that holds nothing: the rows are left as drawn
    return lo, hi


def first_date_field(row: Mapping[str, Any]) -> str | None:
    """The field a date filter judges a row by: its first date that is not an end."""
    return next((k for k, v in row.items() if not k.startswith("_") and isinstance(v, str) and ISO_RE.match(v)
                 and not END_FIELD_RE.search(snake(k))), None)


def parse_day(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError:
        return None


def into_window(row: dict[str, Any], props: dict[str, Any], window: tuple[dt.date | None, dt.date | None]) -> None:
    """The row's first date lies inside the window; its end dates move along with it."""
    lo, hi = window
    dated = [k for k, v in row.items() if isinstance(v, str) and ISO_RE.match(v) and k in props]
    first = first_date_field(row)
    if first is None or first not in props:
        return
    day = parse_day(row[first])
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
    day = parse_day(text)
    if day is None:
        return None
    return (day + days).isoformat() + text[10:]
