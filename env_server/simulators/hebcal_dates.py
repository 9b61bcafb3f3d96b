"""Hebcal's date converter and its zmanim (halachic times) for the date and place asked.

A conversion turns the call's Gregorian date (``g2h``, today by default) or Hebrew date
(``h2g``) into the other with ``pyluach``, with the date in Hebrew letters and the day's
holidays as its events. Zmanim are the day's times at the place of the call's ``geonameid``
(Jerusalem when it names none), in its local time: dawn (the sun 16.1° below the horizon),
sunrise, the latest Shema and Tefilla (3 and 4 seasonal hours after sunrise), midday, the
earliest Mincha (6½ hours), Plag HaMincha (10¾ hours), sunset and nightfall (7.083° below),
so dawn < sunrise < noon < sunset < nightfall. Both steps are chosen once per object schema
(``record_steps``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from env_server.simulators.hebcal_facts import holiday_items, month_names, place_of
from env_server.simulators.sun import sun_times

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_CONVERTED = ("gy", "gm", "gd", "hy", "hm", "hd")
# Seasonal hours after sunrise (a twelfth of the daylight each), by Hebcal's names.
_HOURS = {"sofZmanShma": 3.0, "sofZmanTfilla": 4.0, "chatzot": 6.0, "minchaGedola": 6.5, "minchaKetana": 9.5,
          "plagHaMincha": 10.75}
_BELOW = {"alotHaShachar": (16.1, 0), "misheyakir": (11.5, 0), "tzeit7083deg": (7.083, 1), "tzeit85deg": (8.5, 1),
          "sunrise": (0.833, 0), "sunset": (0.833, 1)}


def _int(args: Mapping[str, Any], key: str) -> int | None:
    value = args.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def converted(args: Mapping[str, Any], today: dt.date) -> dict[str, Any] | None:
    """The call's date on both calendars, or None for a Hebrew date that does not exist."""
    from pyluach import dates

    if args.get("direction") == "h2g":
        names = {v: k for k, v in month_names().items()}
        month = next((n for n in range(1, 14) if dates.HebrewDate(5784, n, 1).month_name() == names.get(
            str(args.get("hm")), str(args.get("hm")))), None)
        year, day = _int(args, "hy"), _int(args, "hd")
        if month is None or year is None or day is None:
            return None
        try:
            heb = dates.HebrewDate(year, month, day)
        except ValueError:
            return None
        greg = heb.to_greg()
    else:
        y, m, d = (_int(args, k) for k in ("gy", "gm", "gd"))
        try:
            greg = dates.GregorianDate(y or today.year, m or today.month, d or today.day)
        except ValueError:
            return None
        heb = greg.to_heb()
    name = month_names().get(heb.month_name(), heb.month_name())
    day_ = dt.date(greg.year, greg.month, greg.day)
    return {"gy": greg.year, "gm": greg.month, "gd": greg.day, "hy": heb.year, "hm": name, "hd": heb.day,
            "hebrew": heb.hebrew_date_string(), "events": [i["title"] for i in holiday_items(day_)]}


def convert_step(props: Mapping[str, Any]) -> Step | None:
    """The step that answers a Hebcal date conversion, or None for other records."""
    if not set(_CONVERTED) <= set(props):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        found = converted(gen.snaked_args, gen.today)
        if found is not None:
            record.update({k: v for k, v in found.items() if k in props})

    return step


def zmanim(day: dt.date, place: tuple[str, float, float, str]) -> dict[str, str]:
    """The day's zmanim at ``place`` as local ISO times, by Hebcal's names ({} in polar day or night)."""
    _, lat, lon, zone = place
    sun = sun_times(lat, lon, day)
    if sun is None:
        return {}
    rise, set_ = sun
    hour = (set_ - rise) / 12
    moments = {name: rise + hour * n for name, n in _HOURS.items()}
    for name, (below, end) in _BELOW.items():
        found = sun_times(lat, lon, day, below)
        if found is not None:
            moments[name] = found[end]
    tz = ZoneInfo(zone)
    return {name: when.replace(tzinfo=dt.UTC).astimezone(tz).replace(microsecond=0).isoformat()
            for name, when in moments.items()}


def zmanim_step(props: Mapping[str, Any]) -> Step | None:
    """The step that gives a zmanim record the asked day's times at the asked place, or None."""
    times = props.get("times")
    inner = times.get("properties") if isinstance(times, dict) else None
    if not isinstance(inner, dict) or not {"sunrise", "sunset", "chatzot"} <= set(inner):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        sent = gen.snaked_args.get("date")
        try:
            day = dt.date.fromisoformat(sent) if isinstance(sent, str) else gen.today
        except ValueError:
            day = gen.today
        found = zmanim(day, place_of(gen))
        if isinstance(record.get("times"), dict) and found:
            record["times"] = {k: found[k] for k in inner if k in found}
        if "date" in record:
            record["date"] = day.isoformat()

    return step
