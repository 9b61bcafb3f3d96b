"""UV index kinds that follow the sun: OpenUV-style readings a person can check.

The UV index of clear sky follows the sun's height: zero at night, highest at solar noon,
higher in the tropics and in summer. So a reading is computed, not drawn: the record's
place and moment give the sun's zenith angle (NOAA's solar position equations), and the
clear-sky index is ``12.5 · cos(zenith)^2.42`` scaled by the ozone column. A forecast steps
hour by hour from sunrise, in time order; the day's maximum is the value at solar noon and is
at least every reading of that day; a protection window opens and closes where the curve
crosses the call's threshold.

``UV_KINDS`` joins ``values.KINDS``.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.records import LAT_ARGS, LON_ARGS, arg_number
from env_server.simulators.sun import sun_times

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_ISO = "%Y-%m-%dT%H:%M:%S.000Z"
# Minutes to sunburn at UV index 1, by Fitzpatrick skin type (divided by the index).
_BURN_MINUTES = {"st1": 167, "st2": 200, "st3": 267, "st4": 333, "st5": 533, "st6": 1000}
_THRESHOLD_ARGS = ("from", "threshold", "uv_from")


def _solar(lat: float, lon: float, when: dt.datetime) -> tuple[float, float, float]:
    """(cos zenith, azimuth in radians from south, solar noon in UTC minutes) at ``when`` (UTC)."""
    doy = when.timetuple().tm_yday
    hours = when.hour + when.minute / 60 + when.second / 3600
    g = 2 * math.pi / 365 * (doy - 1 + (hours - 12) / 24)
    eqtime = 229.18 * (0.000075 + 0.001868 * math.cos(g) - 0.032077 * math.sin(g) - 0.014615 * math.cos(2 * g)
                       - 0.040849 * math.sin(2 * g))
    decl = (0.006918 - 0.399912 * math.cos(g) + 0.070257 * math.sin(g) - 0.006758 * math.cos(2 * g)
            + 0.000907 * math.sin(2 * g) - 0.002697 * math.cos(3 * g) + 0.00148 * math.sin(3 * g))
    true_solar = hours * 60 + eqtime + 4 * lon
    hour_angle = math.radians(true_solar / 4 - 180)
    phi = math.radians(lat)
    cos_zen = math.sin(phi) * math.sin(decl) + math.cos(phi) * math.cos(decl) * math.cos(hour_angle)
    azimuth = math.atan2(math.sin(hour_angle),
                         math.cos(hour_angle) * math.sin(phi) - math.tan(decl) * math.cos(phi))
    return max(-1.0, min(1.0, cos_zen)), azimuth, 720 - 4 * lon - eqtime


def _point(gen: Generation) -> tuple[float, float]:
    """The point asked about (every reading of a forecast is there), else the record's."""
    lat, lon = arg_number(gen.snaked_args, LAT_ARGS), arg_number(gen.snaked_args, LON_ARGS)
    if lat is not None and lon is not None and -90 <= lat <= 90 and -180 <= lon <= 180:
        return lat, lon
    return gen.scope.point


def ozone(gen: Generation) -> float:
    """The ozone column in Dobson units: thicker toward the poles, one value per point."""
    lat, lon = _point(gen)
    return round(260 + 1.2 * abs(lat) + 12 * math.sin(math.radians(lon * 7)), 1)


def uv_at(gen: Generation, when: dt.datetime) -> float:
    """The clear-sky UV index at the record's place at ``when`` (UTC, naive)."""
    lat, lon = _point(gen)
    cos_zen = _solar(lat, lon, when)[0]
    if cos_zen <= 0:
        return 0.0
    return round(12.5 * cos_zen ** 2.42 * (300 / ozone(gen)) ** 1.23, 2)


def _day(gen: Generation) -> dt.date:
    moment = _asked(gen)
    return moment.date() if moment is not None else gen.today


def _asked(gen: Generation) -> dt.datetime | None:
    value = gen.snaked_args.get("dt")
    if isinstance(value, str):
        try:
            return dt.datetime.fromisoformat(value.replace("Z", "+00:00")).replace(tzinfo=None)
        except ValueError:
            return None
    return None


def solar_noon(gen: Generation) -> dt.datetime:
    lat, lon = _point(gen)
    day = _day(gen)
    minutes = _solar(lat, lon, dt.datetime.combine(day, dt.time(12)))[2]
    return dt.datetime.combine(day, dt.time()) + dt.timedelta(minutes=round(minutes))


def _daylight(gen: Generation) -> tuple[dt.datetime, dt.datetime]:
    lat, lon = _point(gen)
    found = sun_times(lat, lon, _day(gen))
    noon = solar_noon(gen)
    return found if found is not None else (noon - dt.timedelta(hours=6), noon + dt.timedelta(hours=6))


def uv_time(gen: Generation) -> dt.datetime:
    """The record's moment: the hour after sunrise plus the item's index in a forecast, or
    the moment asked about (``dt``), or now."""

    def make() -> dt.datetime:
        if gen.scope.in_list:
            first = _daylight(gen)[0].replace(minute=0, second=0, microsecond=0) + dt.timedelta(hours=1)
            return first + dt.timedelta(hours=gen.scope.index)
        return _asked(gen) or gen.now.replace(tzinfo=None, microsecond=0)

    moment: dt.datetime = gen.scope.once("uv_time", make)
    return moment


def _sun_at(gen: Generation) -> tuple[float, float]:
    lat, lon = _point(gen)
    cos_zen, azimuth, _ = _solar(lat, lon, uv_time(gen))
    return round(math.asin(cos_zen), 4), round(azimuth, 4)


def exposure(gen: Generation, skin: str) -> int:
    """Minutes to sunburn for a skin type at the record's UV (the whole day's max when it is dark)."""
    uv = max(uv_at(gen, uv_time(gen)), uv_at(gen, solar_noon(gen)) if uv_at(gen, uv_time(gen)) < 0.5 else 0, 0.5)
    return min(600, round(_BURN_MINUTES[skin] / uv))


def protection_window(gen: Generation) -> tuple[dt.datetime, dt.datetime]:
    """The span of the day the UV index is at or above the call's threshold (default 3.5)."""

    def make() -> tuple[dt.datetime, dt.datetime]:
        threshold = next((float(v) for k in _THRESHOLD_ARGS if isinstance(v := gen.snaked_args.get(k), (int, float))),
                         3.5)
        noon = solar_noon(gen)
        if uv_at(gen, noon) < threshold:
            return noon, noon
        start, end = noon, noon
        while start > noon - dt.timedelta(hours=8) and uv_at(gen, start - dt.timedelta(minutes=10)) >= threshold:
            start -= dt.timedelta(minutes=10)
        while end < noon + dt.timedelta(hours=8) and uv_at(gen, end + dt.timedelta(minutes=10)) >= threshold:
            end += dt.timedelta(minutes=10)
        return start, end

    window: tuple[dt.datetime, dt.datetime] = gen.scope.once("uv_window", make)
    return window


# The kinds that are moments of the record (not points on a series axis; see ``plans``).
UV_MOMENTS = frozenset({"uv_time", "uv_max_time", "uv_sunrise", "uv_sunset", "ozone_time", "protection_from_time",
                        "protection_to_time"})

UV_KINDS: dict[str, Callable[[Generation], Any]] = {
    "uv_time": lambda g: uv_time(g).strftime(_ISO),
    "uv_now": lambda g: uv_at(g, uv_time(g)),
    "uv_max": lambda g: uv_at(g, solar_noon(g)),
    "uv_max_time": lambda g: solar_noon(g).strftime(_ISO),
    "uv_sunrise": lambda g: _daylight(g)[0].strftime(_ISO),
    "uv_sunset": lambda g: _daylight(g)[1].strftime(_ISO),
    "sun_altitude_rad": lambda g: _sun_at(g)[0],
    "sun_azimuth_rad": lambda g: _sun_at(g)[1],
    "ozone_du": ozone,
    "ozone_time": lambda g: uv_time(g).replace(minute=0, second=0).strftime(_ISO),
    "protection_from_time": lambda g: protection_window(g)[0].strftime(_ISO),
    "protection_to_time": lambda g: protection_window(g)[1].strftime(_ISO),
    "protection_from_uv": lambda g: uv_at(g, protection_window(g)[0]),
    "protection_to_uv": lambda g: uv_at(g, protection_window(g)[1]),
}
for _skin in _BURN_MINUTES:
    UV_KINDS[f"exposure_{_skin}"] = functools.partial(lambda skin, g: exposure(g, skin), _skin)
