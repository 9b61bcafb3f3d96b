"""The audit's time checks: an answer's moments agree with each other, with the question and
with the session clock.

* ``order``: an interval's end is not before its start (``start``/``end``, ``min_year``/
  ``max_year``, ``created_at``/``updated_at``, ``sunrise``/``sunset``; see ``timeline.pairs``);
* ``window``: the days and years of a series lie inside the window the call's arguments
  set (``start``/``end``, ``date_from``/``date_to``, ``min_year``/``max_year``);
* ``past``: what already happened (created, published, born, last seen) is not after today;
* ``series``: a series steps one way, and tide extremes alternate high and low about
  6 h 12 min apart;
* ``zone``: a UTC offset, a DST flag and a local time agree with the record's IANA zone
  at the session's now;
* ``period``: a period labelled with a year (``"2019"``, ``"2019-03"``) is that record's year.

Each returns ``(path, detail)`` pairs; ``audit.py`` files them under ``CheckKind.TIME``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator, Mapping
from typing import Any

from env_server.simulators.naming import snake
from env_server.simulators.timeline import WHEN_FIELDS, is_past_field, moment, pairs, window, year_window
from env_server.simulators.zones import offset_seconds_of, zone_of
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]

_TIDE_SPACING_H = (5.0, 7.5)
_YEAR_RE = re.compile(r"(?<!\d)(1[89]\d\d|2[01]\d\d)(?!\d)")


def _lists(value: Any, path: str = "$") -> Iterator[tuple[str, list[Any]]]:
    if isinstance(value, dict):
        for key, sub in value.items():
            yield from _lists(sub, f"{path}.{key}")
    elif isinstance(value, list):
        yield path, value
        for i, sub in enumerate(value):
            yield from _lists(sub, f"{path}[{i}]")


def order_hits(result: Any) -> list[Hit]:
    hits: list[Hit] = []
    for path, record in walk_records(result):
        for start, end in pairs(record):
            a, b = moment(record[start], start), moment(record[end], end)
            if a is not None and b is not None and b < a:
                hits.append((f"{path}.{end}", f"{end}={record[end]!r} is before {start}={record[start]!r}"))
    return hits


def window_hits(result: Any, args: Mapping[str, Any]) -> list[Hit]:
    lo, hi = window(args)
    years = year_window(args)
    if lo is None and hi is None and years is None:
        return []
    hits: list[Hit] = []
    for path, record in walk_records(result):
        for key, value in record.items():
            detail = _outside(snake(key), value, lo, hi, years)
            if detail is not None:
                hits.append((f"{path}.{key}", f"{key}={value!r} is outside the requested {detail}"))
    return hits


def _outside(low: str, value: Any, lo: dt.date | None, hi: dt.date | None, years: tuple[int, int] | None) -> str | None:
    """What requested range a record's field falls outside of, or None."""
    if years is not None and (low == "year" or low.endswith("_year")) and isinstance(value, int):
        return None if years[0] <= value <= years[1] else f"years {years[0]}..{years[1]}"
    if low not in WHEN_FIELDS or lo is None and hi is None:
        return None
    when = moment(value, low)
    day = when.date() if when else None
    if day is not None and (lo is not None and day < lo or hi is not None and day > hi):
        return f"window {lo or '…'}..{hi or '…'}"
    return None


def past_hits(result: Any, today: dt.date) -> list[Hit]:
    hits: list[Hit] = []
    for path, record in walk_records(result):
        for key, value in record.items():
            if not is_past_field(key):
                continue
            when = moment(value, key)
            if isinstance(value, int) and value < 10_000:
                continue  # a bare year: fiction has its own (a Star Trek character born in 2233)
            if when is not None and when.date() > today:
                hits.append((f"{path}.{key}", f"{key}={value!r} has not happened yet on {today.isoformat()}"))
    return hits


def _series_key(items: list[Any]) -> str | None:
    if len(items) < 3 or not all(isinstance(i, dict) for i in items):
        return None
    return next((k for k in items[0] if snake(k) in WHEN_FIELDS and all(moment(i.get(k), k) for i in items)), None)


def series_hits(result: Any) -> list[Hit]:
    hits: list[Hit] = []
    for path, items in _lists(result):
        key = _series_key(items)
        if key is None:
            continue
        times = [moment(i[key], key) for i in items]
        steps = [b - a for a, b in zip(times, times[1:], strict=False)]  # type: ignore[operator]
        if any(s < dt.timedelta(0) for s in steps) and any(s > dt.timedelta(0) for s in steps):
            hits.append((path, f"the series' {key} values go back and forth in time"))
        kinds = [i.get("type") for i in items]
        if all(k in ("high", "low") for k in kinds):
            if any(a == b for a, b in zip(kinds, kinds[1:], strict=False)):
                hits.append((path, "tide extremes do not alternate high and low"))
            hours = [s.total_seconds() / 3600 for s in steps]
            if any(not _TIDE_SPACING_H[0] <= h <= _TIDE_SPACING_H[1] for h in hours):
                hits.append((path, f"tide extremes are {min(hours):.1f}-{max(hours):.1f} h apart, not about 6.2 h"))
    return hits


_OFFSET_WORDS = ("offset", "utc_offset", "gmt_offset", "gmt", "utc")
_DST_NAMES = frozenset({"dst", "is_dst", "is_daylight_saving_time", "daylight_saving", "in_dst", "isdst", "dst_active"})
_LOCAL_NAMES = frozenset({"local_time", "localtime", "time_local", "local_datetime", "current_local_time",
                          "local_date_time", "datetime_local", "formatted"})


def _offset_claim(key: str, value: Any) -> int | None:
    """Seconds east of UTC that an offset field states (text, seconds or hours)."""
    low = snake(key)
    if "offset" not in low and low not in _OFFSET_WORDS:
        return None
    if isinstance(value, str):
        return offset_seconds_of(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if "second" in low or abs(value) > 14 * 60:
        return int(value)
    if "minute" in low:
        return int(value * 60)
    return int(value * 3600)


def zone_hits(result: Any, now: dt.datetime) -> list[Hit]:
    hits: list[Hit] = []
    for path, record in walk_records(result):
        zone = next((z for v in record.values() if isinstance(v, str) and (z := zone_of(v)) is not None), None)
        if zone is None:
            continue
        here = now.replace(tzinfo=dt.UTC).astimezone(zone)
        offset = int(here.utcoffset().total_seconds())  # type: ignore[union-attr]
        standard = offset - int(here.dst().total_seconds())  # type: ignore[union-attr]
        for key, value in record.items():
            low = snake(key)
            claim = _offset_claim(key, value)
            allowed = (standard,) if "raw" in low or "std" in low or "standard" in low else (offset,)
            if "dst" in low:
                allowed = (offset - standard,)
            if claim is not None and claim not in allowed:
                hits.append((f"{path}.{key}", f"{key}={value!r} is not {zone.key}'s UTC offset ({offset} s)"))
            if low in _DST_NAMES and isinstance(value, bool) and value != bool(here.dst()):
                hits.append((f"{path}.{key}", f"{key}={value} but {zone.key} is {'' if here.dst() else 'not '}on DST"))
            if low in _LOCAL_NAMES and isinstance(value, str):
                hits += _local_hits(f"{path}.{key}", key, value, here)
    return hits


def _local_hits(path: str, key: str, value: str, here: dt.datetime) -> list[Hit]:
    text = value.strip()
    when = moment(text)
    if when is None:
        return []
    if text.endswith("Z") and here.utcoffset():
        return [(path, f"{key}={value!r} is in UTC, not local time in {here.tzinfo}")]
    stated = offset_seconds_of(text[19:]) if len(text) > 19 and text[19:20] in "+-" else None
    if stated is not None and stated != int(here.utcoffset().total_seconds()):  # type: ignore[union-attr]
        return [(path, f"{key}={value!r} states an offset other than {here.tzinfo}'s")]
    naive = dt.datetime.fromisoformat(text[:19].replace(" ", "T")) if stated is None and not text.endswith("Z") else None
    if naive is not None and abs(naive - here.replace(tzinfo=None)) > dt.timedelta(hours=3):
        return [(path, f"{key}={value!r} is not the local time in {here.tzinfo} ({here:%Y-%m-%d %H:%M})")]
    return []


def period_hits(result: Any) -> list[Hit]:
    hits: list[Hit] = []
    for path, record in walk_records(result):
        period, year = record.get("period"), record.get("year")
        if not isinstance(period, str) or not isinstance(year, int) or isinstance(year, bool):
            continue
        found = _YEAR_RE.search(period)
        if found is not None and int(found.group(1)) != year:
            hits.append((f"{path}.period", f"period={period!r} is labelled with another year than year={year}"))
    return hits


def time_hits(result: Any, args: Mapping[str, Any], today: dt.date, now: dt.datetime) -> list[Hit]:
    """Every time finding of one result."""
    return (order_hits(result) + window_hits(result, args) + past_hits(result, today) + series_hits(result)
            + zone_hits(result, now) + period_hits(result))
