"""Time as data: which fields of a record bound an interval, which arguments bound a call's
window, and how to read a value as a moment.

Shared by the generator (``plans`` enforces the order of a record's intervals and draws
dates inside the call's window) and by the audit's time checks (``specs/time_checks``),
so a rule is written once. Names are matched as snake_case words: ``startDate`` and
``endDate`` pair because swapping ``start`` for ``end`` turns one into the other.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# A start word, and the end words that close an interval opened by it.
_CLOSERS: dict[str, tuple[str, ...]] = {
    "start": ("end", "finish", "stop"), "starts": ("ends",), "started": ("ended", "finished", "completed"),
    "begin": ("end",), "from": ("to", "until", "till"), "since": ("until", "till"), "first": ("last",),
    "earliest": ("latest",), "oldest": ("newest",), "opened": ("closed", "resolved", "merged"), "departure": ("arrival",),
    "depart": ("arrive",), "departs": ("arrives",), "checkin": ("checkout",), "check_in": ("check_out",),
    "issued": ("expires", "expiry", "due"), "created": ("updated", "modified", "closed", "resolved", "expires",
                                                        "completed", "deleted", "merged", "ended"),
    "min": ("max",), "minimum": ("maximum",), "sunrise": ("sunset",), "dawn": ("dusk",), "onset": ("expires", "ends"),
    "effective": ("expires",), "valid_from": ("valid_to", "valid_until"), "published": ("updated", "modified"),
}
# Fields whose moment lies before the response: things that happened.
PAST_WORDS = frozenset({"created", "updated", "modified", "published", "posted", "born", "birth", "founded",
                        "established", "joined", "registered", "last_seen", "last_login", "first_seen",
                        "uploaded", "submitted", "observed", "recorded", "pushed",
                        # the nouns of the same events: ``creationDate``, ``publication_date``
                        "creation", "publication", "registration", "submission", "upload", "signup",
                        "resolved", "merged", "closed", "completed",
                        # what a data set last holds, and when it was last fetched
                        "oldest", "newest", "refreshed", "retrieved", "fetched"})
_ISO_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$")


def moment(value: Any, name: str = "") -> dt.datetime | None:
    """``value`` as a naive UTC moment: ISO text, Unix seconds/milliseconds when the field
    name says time, or a year when it says year. None for anything else."""
    if isinstance(value, str):
        match = _ISO_RE.match(value.strip())
        if match is None:
            return None
        try:
            parsed = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00").replace(" ", "T"))
        except ValueError:
            return None
        if parsed.tzinfo is not None:
            parsed = parsed.astimezone(dt.UTC).replace(tzinfo=None)
        return parsed
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    words = set(snake(name).split("_"))
    if "year" in words or snake(name).endswith("year"):
        return dt.datetime(int(value), 1, 1) if 1000 <= value <= 2300 else None
    if words & {"time", "timestamp", "ts", "dt", "at", "epoch", "date", "unix"}:
        seconds = value / 1000 if 1e12 <= value < 1e14 else value
        if 1e8 <= seconds < 1e10:
            return dt.datetime.fromtimestamp(seconds, dt.UTC).replace(tzinfo=None)
    return None


@functools.lru_cache(maxsize=8192)
def _words(name: str) -> tuple[str, ...]:
    low = snake(name)
    for joined in ("check_in", "check_out", "valid_from", "valid_to", "valid_until"):
        low = low.replace(joined, joined.replace("_", ""))
    return tuple(low.split("_"))


def _canon(word: str) -> str:
    return {"checkin": "check_in", "checkout": "check_out", "validfrom": "valid_from", "validto": "valid_to",
            "validuntil": "valid_until"}.get(word, word)


def pairs(fields: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """``(start, end)`` field pairs among ``fields``: names one start word apart from an end word."""
    by_words = {tuple(_canon(w) for w in _words(f)): f for f in fields}
    found: list[tuple[str, str]] = []
    for words, start in by_words.items():
        for i, word in enumerate(words):
            for closer in _CLOSERS.get(word, ()):
                end = by_words.get(words[:i] + (closer,) + words[i + 1:])
                if end is not None and end != start and (start, end) not in found:
                    found.append((start, end))
    return tuple(found)


def _as_date(value: Any) -> dt.date | None:
    if isinstance(value, str) and len(value) >= 10:
        found = moment(value[:10])
        return found.date() if found else None
    return None


def window(args: Mapping[str, Any]) -> tuple[dt.date | None, dt.date | None]:
    """The days a call's arguments bound (either side may be open): a start/end pair of
    dates, or a ``since``/``until`` alone."""
    if not any(isinstance(v, str) and len(v) >= 10 for v in args.values()):
        return None, None  # no argument is long enough to hold a date (see ``_as_date``): most calls
    lo = hi = None
    for start, end in pairs(args):
        a, b = _as_date(args[start]), _as_date(args[end])
        if a is not None or b is not None:
            lo, hi = a, b
            break
    if lo is None and hi is None:
        snaked = {snake(k): v for k, v in args.items()}
        lo = next((d for k in ("since", "after", "start_date", "date_from", "from_date") if (d := _as_date(snaked.get(k)))), None)
        hi = next((d for k in ("until", "before", "end_date", "date_to", "to_date") if (d := _as_date(snaked.get(k)))), None)
    if lo is not None and hi is not None and hi < lo:
        lo, hi = hi, lo
    return lo, hi


def within(value: Any, lo: dt.date | None, hi: dt.date | None) -> bool:
    """Whether a moment falls inside a window of days (a value that is no moment does)."""
    when = moment(value)
    if when is None:
        return True
    day = when.date()
    return not (lo is not None and day < lo or hi is not None and day > hi)


def year_window(args: Mapping[str, Any]) -> tuple[int, int] | None:
    """The years a call's arguments bound (``min_year``/``max_year``, ``start_year``/``end_year``)."""
    for start, end in pairs(args):
        if "year" in _words(start) and "year" in _words(end):
            a, b = args[start], args[end]
            if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool) and not isinstance(b, bool):
                return (a, b) if a <= b else (b, a)
    return None


def is_past_field(name: str) -> bool:
    """Whether a field names something that already happened (``created_at``, ``last_seen``)."""
    words = _words(name)
    low = "_".join(words)
    return bool(PAST_WORDS.intersection(words)) or any(w in low for w in ("last_seen", "last_login", "first_seen"))


def render_like(template: Any, when: dt.datetime, name: str = "") -> Any:
    """``when`` written as ``template`` is: a date, ISO text with ``Z`` or an offset, Unix
    seconds or milliseconds, or a year."""
    if isinstance(template, str):
        text = template.strip()
        if len(text) == 10:
            return when.date().isoformat()
        sep = text[10] if len(text) > 10 else "T"
        seconds = len(text) >= 19 and text[16:17] == ":"
        body = when.strftime(f"%Y-%m-%d{sep}%H:%M" + (":%S" if seconds else ""))
        tail = text[19:] if seconds else text[16:]
        tail = tail[tail.index("Z"):] if "Z" in tail else tail[tail.find("+"):] if "+" in tail else ""
        if tail and tail != "Z":  # an offset: keep the wall time it states
            stated = moment(template)
            local = moment(text[:19 if seconds else 16])
            if stated is not None and local is not None:
                body = (when + (local - stated)).strftime(f"%Y-%m-%d{sep}%H:%M" + (":%S" if seconds else ""))
        return body + tail
    if isinstance(template, int) and not isinstance(template, bool):
        words = set(snake(name).split("_"))
        if "year" in words or snake(name).endswith("year"):
            return when.year
        stamp = int(when.replace(tzinfo=dt.UTC).timestamp())
        return stamp * 1000 if template >= 1e12 else stamp
    return template


def order_times(record: dict[str, Any], bounds: tuple[tuple[str, str], ...], now: dt.datetime) -> None:
    """Move each interval's end after its start, as far after it as it was before; an end
    that names something past (closed, resolved, last seen) stays at or before ``now``."""
    for start, end in bounds:
        if start not in record or end not in record:
            continue
        a, b = moment(record[start], start), moment(record[end], end)
        if a is None or b is None or b >= a:
            continue
        if isinstance(record[end], int) and a.year > b.year and (a.month, a.day) == (b.month, b.day) == (1, 1):
            record[start], record[end] = record[end], record[start]  # years: both within the schema's bounds
            continue
        moved = a + (a - b)
        if is_past_field(end) or end_is_past(end):
            moved = max(a, min(moved, now))
        record[end] = render_like(record[end], moved, end)


_PAST_ENDS = frozenset({"closed", "resolved", "merged", "ended", "finished", "completed", "last", "latest", "updated",
                        "modified", "deleted", "newest"})


def end_is_past(name: str) -> bool:
    return bool(_PAST_ENDS.intersection(_words(name)))


# The kind of a record's own stamp ("time", "timestamp" hinted as the current time): a moment
# inside the call's window when it sets one, else just before the session's now.
STAMPED = "stamped_time"
# Kinds a field's own words give a moment, whatever its name's broader kind says.
_KEPT_KINDS = frozenset({"holiday_date", "departure_time", "arrival_time", "current_time", "now", "today"})
_MOMENT_KINDS = frozenset({None, "date", "datetime", "time", "future_date", "past_date", "year"})
DRAWN_KINDS = frozenset({"birth_date", "past_datetime"})
BIRTH_WORDS = frozenset({"birth", "born", "dob", "birthday", "birthdate"})


def moment_kind(name: str, kind: str | None, fmt: str | None) -> str | None:
    """The kind of a field that holds a moment, once per schema node: a birth date for
    ``date_of_birth``, a past moment for ``created_at``/``published``; else ``kind``."""
    if kind == "current_time" and snake(name) in WHEN_FIELDS:
        return STAMPED  # a record's own "timestamp": inside the call's window, else just before now
    if kind in _KEPT_KINDS or kind not in _MOMENT_KINDS:
        return kind
    words = set(_words(name))
    dated = fmt in ("date", "date-time") or kind in ("date", "datetime", "past_date", "future_date")
    if words & BIRTH_WORDS and (dated or kind == "year"):
        return "birth_year" if kind == "year" else "birth_date"
    if is_past_field(name) and dated:
        return "past_date" if fmt == "date" or (fmt is None and kind in ("date", "past_date")) else "past_datetime"
    return kind


def as_format(text: str, fmt: str | None) -> str:
    """A drawn date or date-time written as a field's format wants it."""
    if fmt == "date":
        return text[:10]
    if fmt == "date-time" and len(text) == 10:
        return f"{text}T00:00:00Z"
    return text


# -- series: where a record sits on the time axis -------------------------------------------

# Fields that place a record of a series (or a found item) on the time axis.
WHEN_FIELDS = frozenset({"date", "day", "datetime", "time", "timestamp", "dt", "valid_date", "forecast_date",
                         "date_time", "start", "start_date", "start_time", "starts_at", "observation_date",
                         "event_date", "period_start", "obs_time", "valid_time"})
TIDE_STEP = dt.timedelta(hours=6, minutes=12, seconds=30)  # half a lunar day: high to low to high
_STEPS = ((frozenset({"tide", "tides", "extreme", "extremes"}), TIDE_STEP),
          (frozenset({"hour", "hours", "hourly"}), dt.timedelta(hours=1)),
          (frozenset({"week", "weeks", "weekly"}), dt.timedelta(days=7)))


def when_key(fields: Iterable[str]) -> str | None:
    """The field that places an item on the time axis (``date``, ``start_time``; else when it
    was published or created, as feeds sort), if any."""
    names = list(fields)
    return next((f for f in names if snake(f) in WHEN_FIELDS), None) or next(
        (f for f in names if set(_words(f)) & _FEED_WORDS), None)


_FEED_WORDS = frozenset({"published", "posted", "created", "uploaded", "submitted"})


# The time axis of a series item: these names always; a moment named with a qualifier
# ("timestamp_utc", "dt_txt", "forecast_time", a bare "ts") in an array that is a series by its
# name or entity ("forecast", "hourly", "values").
SERIES_FIELDS = frozenset({"date", "time", "day", "datetime", "timestamp", "hour", "valid_date", "forecast_date", "dt"})
_AXIS_WORDS = frozenset({"date", "time", "day", "datetime", "timestamp", "hour", "dt", "ts"})
_AXIS_QUALIFIERS = frozenset({"utc", "gmt", "iso", "txt", "unix", "epoch", "valid", "forecast"})
_SERIES_WORDS = frozenset({"forecast", "forecasts", "hourly", "daily", "series", "history", "historical", "values",
                           "value", "readings", "reading", "timeline", "timelines", "trend", "outlook"})
_MOMENT_AXIS_WORDS = frozenset({"timestamp", "ts"})  # a moment, not a day: items lie hours apart
_DAY_WORDS = frozenset({"day", "days", "daily", "date", "week", "weekly"})


@functools.lru_cache(maxsize=8192)
def _qualified_axis(name: str) -> bool:
    words = snake(name).split("_")
    return any(w in _AXIS_WORDS for w in words) and all(w in _AXIS_WORDS or w in _AXIS_QUALIFIERS for w in words)


@functools.lru_cache(maxsize=8192)
def is_series_array(array: str, entity: str) -> bool:
    """Whether an array's name or its records' entity says it is a series over time ("forecast",
    "hourly", "values"), not a list of things found."""
    return not (set(snake(array).split("_")) | set(snake(entity).split("_"))).isdisjoint(_SERIES_WORDS)


@functools.lru_cache(maxsize=8192)
def is_series_axis(name: str, array: str, entity: str) -> bool:
    """Whether field ``name`` places an item of array ``array`` (of records of ``entity``) on a
    series' time axis, so the items step along it."""
    if name.lower() in SERIES_FIELDS:
        return True
    return _qualified_axis(name) and is_series_array(array, entity)
ONE_DAY = dt.timedelta(days=1)
# A call's count of days (a forecast's, a history's trailing days); a daily series has that many.
DAYS_ARGS = ("days", "lastdays", "last_days", "forecast_days", "past_days", "num_days")
MAX_SERIES_DAYS = 60  # a longer window answers its first 60 days, to keep answers small


def days_asked(args: Mapping[str, Any]) -> int | None:
    """How many days of a daily series the call asks for, if it says."""
    value = next((v for k in DAYS_ARGS if isinstance(v := args.get(k), int) and not isinstance(v, bool)), None)
    return min(value, MAX_SERIES_DAYS) if value is not None and value > 0 else None


@functools.lru_cache(maxsize=4096)
def cadence(parent: str, entity: str, axis: str = "") -> dt.timedelta:
    """How far apart the items of a series lie: tides half a lunar day, hourly data an hour,
    a series stamped with moments ("timestamp_utc") an hour unless it says days, anything else a day."""
    words = set(snake(parent).split("_")) | set(snake(entity).split("_"))
    if "hour" in parent.lower():
        return dt.timedelta(hours=1)
    found = next((step for names, step in _STEPS if words & names), None)
    if found is not None:
        return found
    if axis and axis.lower() not in SERIES_FIELDS and not _MOMENT_AXIS_WORDS.isdisjoint(snake(axis).split("_")) \
            and words.isdisjoint(_DAY_WORDS):
        return dt.timedelta(hours=1)
    return dt.timedelta(days=1)


def series_room(first: dt.date, last: dt.date | None, step: dt.timedelta) -> int | None:
    """How many steps fit between two days (both included), or None when open-ended."""
    if last is None or last < first:
        return None
    return int((dt.timedelta(days=(last - first).days + 1) - dt.timedelta(microseconds=1)) / step) + 1


def sort_by_time(items: list[Any], key: str, now: dt.datetime, *, series: bool = False) -> list[Any]:
    """Items in time order: a series (and anything not all past, a calendar) soonest first;
    found items that all lie in the past newest first (a feed, a ledger)."""
    if len(items) < 2 or not all(isinstance(i, dict) for i in items):
        return items
    times = [moment(i.get(key), key) for i in items]
    if any(t is None for t in times):
        return items
    past = not series and all(t <= now for t in times)  # type: ignore[operator]
    order = sorted(range(len(items)), key=lambda i: times[i], reverse=past)  # type: ignore[arg-type,return-value]
    return [items[i] for i in order]


def alternate_tides(items: list[Any]) -> None:
    """Tide extremes alternate high and low; a high stands above the datum, a low below."""
    first = items[0].get("type") if items and isinstance(items[0], dict) else None
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        high = (i % 2 == 0) == (first != "low")
        item["type"] = "high" if high else "low"
        height = item.get("height")
        if isinstance(height, (int, float)) and not isinstance(height, bool):
            item["height"] = abs(height) if high else -abs(height)


def label_period(record: dict[str, Any]) -> None:
    """A period labelled with a year ("2019", "2019-03") names the record's own year."""
    period, year = record.get("period"), record.get("year")
    if isinstance(period, str) and isinstance(year, int) and not isinstance(year, bool):
        record["period"] = _YEAR_RE.sub(str(year), period, count=1)


_YEAR_RE = re.compile(r"(?<!\d)(1[89]\d\d|2[01]\d\d)(?!\d)")


def draw_year(gen: Generation) -> int:
    """A year: inside the call's ``min_year``..``max_year`` when it sets them (a list of
    years counts up from the first), else within the last forty."""
    years = gen.call_years
    if years is None:
        return gen.today.year - gen.rng.randint(0, 40)
    lo, hi = years
    scope = gen.scope
    if scope.in_list and lo + scope.index <= hi:
        return lo + scope.index
    return gen.rng.randint(lo, hi)
