"""Time zones from ``zoneinfo``: a place's UTC offset, DST flag and local time at a moment.

The generator draws none of these: they follow from the record's IANA zone and the
session's now (``Generation.local``), and the audit reads them back the same way.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import zoneinfo
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_OFFSET_RE = re.compile(r"^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$")


@functools.lru_cache(maxsize=1)
def _zone_names() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


@functools.lru_cache(maxsize=1024)
def zone_of(text: str) -> zoneinfo.ZoneInfo | None:
    """The zone an IANA name names ("Asia/Seoul"); None for anything else (including "UTC")."""
    if "/" not in text or text not in _zone_names():
        return None
    return zoneinfo.ZoneInfo(text)


def offset_seconds_of(text: str) -> int | None:
    """Seconds east of UTC in "+09:00", "+0900", "UTC+9", "GMT-05:30"; "Z" and "UTC" are 0."""
    stripped = text.strip()
    if stripped in ("Z", "UTC", "GMT"):
        return 0
    match = _OFFSET_RE.match(stripped)
    if match is None:
        return None
    sign, hours, minutes = match.groups()
    seconds = int(hours) * 3600 + int(minutes or 0) * 60
    return -seconds if sign == "-" else seconds


def offset_text(seconds: int, colon: bool = True) -> str:
    """``+09:00`` (or ``+0900``) for a number of seconds east of UTC."""
    sign = "-" if seconds < 0 else "+"
    hours, rest = divmod(abs(seconds) // 60, 60)
    return f"{sign}{hours:02d}{':' if colon else ''}{rest:02d}"


class LocalClock:
    """One zone at one UTC moment: what a time-zone lookup reports."""

    def __init__(self, zone_name: str, now_utc: dt.datetime) -> None:
        zone = zone_of(zone_name)
        self.zone_name = zone_name
        self.here = now_utc.replace(tzinfo=dt.UTC).astimezone(zone) if zone else now_utc.replace(tzinfo=dt.UTC)

    @property
    def offset_seconds(self) -> int:
        return int(self.here.utcoffset().total_seconds())  # type: ignore[union-attr]

    @property
    def raw_offset_seconds(self) -> int:
        return self.offset_seconds - int(self.here.dst().total_seconds())  # type: ignore[union-attr]

    @property
    def dst(self) -> bool:
        return bool(self.here.dst())

    def abbreviation(self) -> str:
        return self.here.tzname() or "UTC"

    def iso(self) -> str:
        """Local time with its offset: ``2026-01-15T18:00:00+09:00``."""
        return self.here.replace(microsecond=0).isoformat()

    def plain(self) -> str:
        """Local time as weather and time APIs print it: ``2026-01-15 18:00``."""
        return self.here.strftime("%Y-%m-%d %H:%M")


# -- kinds: a record's zone at the session's now ---------------------------------------------

_LOCAL_NAMES = frozenset({"local_time", "localtime", "time_local", "local_datetime", "current_local_time",
                          "local_date_time", "datetime_local"})
_ZONE_WORDS = frozenset({"utc", "gmt", "raw", "dst", "timezone", "tz", "zone"})


def zone_kind(name: str, parent: str, typ: str, schema: dict[str, Any]) -> str | None:
    """The zone kind of a field by its name (once per schema node), or None when it is not one."""
    low = snake(name)
    words = set(low.split("_"))
    if low in _LOCAL_NAMES and typ == "string":
        return "local_time_iso" if schema.get("format") == "date-time" else "local_time"
    dst = "dst" in words | {low} or low.startswith("is_daylight") or "daylight" in words
    if dst and typ == "boolean":
        return "is_dst"
    role = _offset_role(low, words, parent, typ, dst)
    if role is None:
        return None
    if typ == "string":
        return "utc_offset" if role == "utc" else None
    top = schema.get("maximum")
    hours = ("sec" not in words and "seconds" not in words) and (
        isinstance(top, (int, float)) and top <= 24 or top is None and ("gmt" in words or "savings" in words))
    return f"{role}_offset_{'hours' if hours else 'seconds'}"


def _offset_role(low: str, words: set[str], parent: str, typ: str, dst: bool) -> str | None:
    """Which offset a field states: the DST part, the standard ("raw") one or the current one."""
    numeric = typ in ("integer", "number")
    if dst:
        return "dst" if numeric and ("offset" in low or "savings" in words) else None
    if typ not in ("integer", "number", "string"):
        return None
    if "offset" in low and (words & _ZONE_WORDS or "sec" in words or set(snake(parent).split("_")) & _ZONE_WORDS):
        return "raw" if words & {"raw", "std", "standard"} else "utc"
    if low in ("timezone", "time_zone") and numeric:  # OpenWeather: seconds east of UTC
        return "utc"
    return None


def _clock(gen: Generation) -> LocalClock:
    clock: LocalClock = gen.scope.root.once("local_clock", lambda: LocalClock(gen.scope.place.timezone, gen.now))
    return clock


def _hours(seconds: int) -> float | int:
    hours = seconds / 3600
    return int(hours) if hours.is_integer() else hours


ZONE_KINDS: dict[str, Callable[[Generation], Any]] = {
    "utc_offset": lambda g: offset_text(_clock(g).offset_seconds),
    "utc_offset_seconds": lambda g: _clock(g).offset_seconds,
    "utc_offset_hours": lambda g: _hours(_clock(g).offset_seconds),
    "raw_offset_seconds": lambda g: _clock(g).raw_offset_seconds,
    "raw_offset_hours": lambda g: _hours(_clock(g).raw_offset_seconds),
    "dst_offset_seconds": lambda g: _clock(g).offset_seconds - _clock(g).raw_offset_seconds,
    "dst_offset_hours": lambda g: _hours(_clock(g).offset_seconds - _clock(g).raw_offset_seconds),
    "is_dst": lambda g: _clock(g).dst,
    "dst_flag": lambda g: int(_clock(g).dst),
    "local_time": lambda g: _clock(g).plain(),
    "local_time_iso": lambda g: _clock(g).iso(),
    "tz_abbreviation": lambda g: _clock(g).abbreviation(),
    "local_date": lambda g: _clock(g).here.date().isoformat(),
    "now_unix": lambda g: int(g.now.replace(tzinfo=dt.UTC).timestamp()),
}

