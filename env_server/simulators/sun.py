"""Sunrise and sunset from the place and the day (the sunrise equation, good to a minute or
two away from the poles), and whether it is day there at the session's now.

A record's day is the session's today, or for the n-th item of a daily series the n-th day
from the series' start, as ``Generation._dated`` steps it.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.zones import LocalClock

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_J2000 = dt.datetime(2000, 1, 1, 12, 0)
_HORIZON = math.radians(-0.833)  # refraction and the sun's radius
_TILT = math.radians(23.44)


def sun_times(lat: float, lon: float, day: dt.date, below: float = 0.833) -> tuple[dt.datetime, dt.datetime] | None:
    """Sunrise and sunset in UTC (naive), or None in polar day or night; with ``below``, the
    moments the sun's centre is that many degrees under the horizon (16.1: dawn, 7.083: nightfall)."""
    n = (day - _J2000.date()).days - lon / 360
    anomaly = math.radians((357.5291 + 0.98560028 * n) % 360)
    centre = 1.9148 * math.sin(anomaly) + 0.02 * math.sin(2 * anomaly) + 0.0003 * math.sin(3 * anomaly)
    ecliptic = math.radians((math.degrees(anomaly) + centre + 180 + 102.9372) % 360)
    transit = n + 0.0053 * math.sin(anomaly) - 0.0069 * math.sin(2 * ecliptic)
    declination = math.asin(math.sin(ecliptic) * math.sin(_TILT))
    phi = math.radians(lat)
    horizon = _HORIZON if below == 0.833 else math.radians(-below)
    cos_hour = (math.sin(horizon) - math.sin(phi) * math.sin(declination)) / (math.cos(phi) * math.cos(declination))
    if abs(cos_hour) > 1:
        return None
    half = math.degrees(math.acos(cos_hour)) / 360
    noon = _J2000 + dt.timedelta(days=transit)
    return (noon - dt.timedelta(days=half)).replace(microsecond=0), (noon + dt.timedelta(days=half)).replace(microsecond=0)


def _record_day(gen: Generation) -> dt.date:
    """The day asked about (the n-th of a daily series), or today."""
    scope = gen.scope
    return gen._anchor_date + dt.timedelta(days=scope.index if scope.in_list else 0)


def _times(gen: Generation) -> tuple[dt.datetime, dt.datetime]:
    def make() -> tuple[dt.datetime, dt.datetime]:
        lat, lon = gen.scope.point
        day = _record_day(gen)
        found = sun_times(lat, lon, day)
        if found is None:  # polar night or midnight sun: the API's own convention, a zero-length day
            noon = dt.datetime.combine(day, dt.time(12)) - dt.timedelta(hours=lon / 15)
            return noon, noon
        return found

    times: tuple[dt.datetime, dt.datetime] = gen.scope.once("sun_times", make)
    return times


def _local(gen: Generation, when: dt.datetime, pattern: str) -> str:
    return LocalClock(gen.scope.place.timezone, when).here.strftime(pattern)


SUN_KINDS: dict[str, Callable[[Generation], Any]] = {
    "sunrise_utc": lambda g: _times(g)[0].strftime("%Y-%m-%dT%H:%M:%SZ"),
    "sunset_utc": lambda g: _times(g)[1].strftime("%Y-%m-%dT%H:%M:%SZ"),
    "sunrise_local": lambda g: _local(g, _times(g)[0], "%Y-%m-%d %H:%M"),
    "sunset_local": lambda g: _local(g, _times(g)[1], "%Y-%m-%d %H:%M"),
    "sunrise_clock": lambda g: _local(g, _times(g)[0], "%H:%M"),
    "sunset_clock": lambda g: _local(g, _times(g)[1], "%H:%M"),
    "solar_noon_clock": lambda g: _local(g, _times(g)[0] + (_times(g)[1] - _times(g)[0]) / 2, "%H:%M"),
    "day_length": lambda g: _hours_minutes(_times(g)[1] - _times(g)[0]),
    "is_day": lambda g: int(_times(g)[0] <= g.now < _times(g)[1]),
    "is_daytime": lambda g: _times(g)[0] <= g.now < _times(g)[1],
}


def _hours_minutes(span: dt.timedelta) -> str:
    minutes = int(span.total_seconds() // 60)
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def sun_kind(low: str, typ: str, fmt: str | None) -> str | None:
    """The sun kind of a field by its snake_case name (``sunrise``, ``sun_set``, ``is_day``,
    ``solar_noon``, ``day_length``)."""
    if low in ("is_day", "isday", "daylight") and typ in ("integer", "boolean"):
        return "is_day" if typ == "integer" else "is_daytime"
    if typ == "string" and fmt is None and low in ("solar_noon", "day_length"):
        return "solar_noon_clock" if low == "solar_noon" else "day_length"
    event = low.replace("_", "")
    if event not in ("sunrise", "sunset") or typ != "string":
        return None
    return f"{event}_utc" if fmt == "date-time" else f"{event}_clock"
