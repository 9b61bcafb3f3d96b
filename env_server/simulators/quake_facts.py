"""An earthquake record drawn as a whole, as the USGS catalog reports one.

A quake's magnitude follows Gutenberg-Richter (ten small ones for each one a unit larger) inside
the bounds the call sets (``minmagnitude``, a feed's threshold, a PAGER level asked); where it
happens, and how its place reads, is ``quake_places``. The rest follows from those: the id is
the reporting network's code and a number (``ci40123456``, ``us7000n4kb``), ``url`` its event
page and ``detail`` its GeoJSON, ``title`` is "M 4.2 - " and the place, the time lies in the
call's window and never after now (epoch milliseconds where the schema counts them), the depth
is shallow but for slabs, the tsunami flag is raised only for a great shallow quake out at
sea off a subduction coast, and the alert level, felt reports, intensities and significance grow with
the magnitude. A list of quakes stands in the order asked, counts what it holds and, for a
summary feed, is titled as the feed ("USGS Magnitude 4.5+ Earthquakes, Past Day").

``quake_step(entity, props)`` finishes a quake; ``quake_list_step(props)`` a list of them
(``record_steps``).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.quake_places import Zone, epicentre, place_of

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

EVENT_PAGE = "https://earthquake.usgs.gov/earthquakes/eventpage/"
DETAIL = "https://earthquake.usgs.gov/fdsnws/event/1/query?eventid={}&format=geojson"
FEED_FLOOR = {"significant": 6.3, "4.5": 4.5, "2.5": 2.5, "1.0": 1.0, "all": 0.5}
FEED_NAME = {"significant": "Significant", "4.5": "Magnitude 4.5+", "2.5": "Magnitude 2.5+", "1.0": "Magnitude 1.0+",
             "all": "All"}
PERIOD = {"hour": dt.timedelta(hours=1), "day": dt.timedelta(days=1), "week": dt.timedelta(days=7),
          "month": dt.timedelta(days=30)}
ALERT_MAGS = {"green": (-1.0, 10.0), "yellow": (6.6, 7.3), "orange": (7.3, 7.8), "red": (7.8, 9.3)}
_MD_NETWORKS = frozenset({"nc", "hv", "pr"})
_ORDER = {"time": ("time", True), "time-asc": ("time", False), "magnitude": ("mag", True),
          "magnitude-asc": ("mag", False)}


def _fields(record: dict[str, Any]) -> dict[str, Any]:
    """Where a quake's facts sit: a GeoJSON feature's ``properties``, else the record itself."""
    inner = record.get("properties")
    return inner if isinstance(inner, dict) else record


def _schema_fields(props: Mapping[str, Any]) -> Mapping[str, Any]:
    """A quake schema's fact fields: a GeoJSON feature's ``properties``, else its own."""
    inner = props.get("properties")
    nested = inner.get("properties") if isinstance(inner, dict) else None
    return nested if isinstance(nested, dict) else props


def is_quake(props: Mapping[str, Any]) -> bool:
    fields = _schema_fields(props)
    return "mag" in fields and "place" in fields


def quake_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that draws a quake record as a whole, or None for another record."""
    if not is_quake(props) or "quake" not in entity.lower() and "event" not in entity.lower():
        return None
    schema = _schema_fields(props)
    time_schema, flag_schema = schema.get("time"), schema.get("tsunami")
    millis = isinstance(time_schema, dict) and time_schema.get("type") == "integer"
    flag = isinstance(flag_schema, dict) and flag_schema.get("type") == "integer"

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        draw_quake(record, gen, millis=millis, int_flag=flag)

    return step


def quake_list_step(props: Mapping[str, Any]) -> Step | None:
    """The step that orders, counts and titles a list of quakes (``features``), or None."""
    items = props.get("features")
    item_props = items.get("items", {}).get("properties") if isinstance(items, dict) else None
    if not isinstance(item_props, dict) or not is_quake(item_props):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        features = record.get("features")
        if not isinstance(features, list):
            return
        key, newest = _ORDER.get(str(gen.snaked_args.get("orderby") or "time"), ("time", True))
        features.sort(key=lambda f: _fields(f).get(key) or 0 if isinstance(f, dict) else 0, reverse=newest)
        if isinstance(record.get("count"), int):
            record["count"] = len(features)
        if isinstance(record.get("generated"), str):
            record["generated"] = gen.now.strftime("%Y-%m-%dT%H:%M:%SZ")
        feed = str(gen.snaked_args.get("magnitude") or "")
        if isinstance(record.get("title"), str) and feed in FEED_NAME:
            span = str(gen.snaked_args.get("period") or "day")
            record["title"] = f"USGS {FEED_NAME[feed]} Earthquakes, Past {span.capitalize()}"

    return step


def draw_quake(record: dict[str, Any], gen: Generation, *, millis: bool, int_flag: bool) -> None:
    fields = _fields(record)
    sent_id = gen.snaked_args.get("eventid")
    network = _network_of(sent_id) if isinstance(sent_id, str) else None
    lo, hi = _mag_bounds(gen, network)
    mag = _gutenberg_richter(gen, lo, hi)
    spot = epicentre(gen, mag, _number(gen, "maxradiuskm"), network)
    lat, lon, zone = spot.lat, spot.lon, spot.zone
    mag = round(mag, 1 if zone.network == "us" else 2)
    depth = _depth(gen, zone)
    when = _moment(gen)
    eid = sent_id if isinstance(sent_id, str) and sent_id.strip() else _mint_id(gen, zone.network)
    place = place_of(gen, lat, lon)
    felt = _felt(gen, mag, zone)
    facts: dict[str, Any] = {
        "id": eid, "mag": mag, "place": place, "title": f"M {mag:.1f} - {place}",
        "time": int(when.timestamp() * 1000) if millis else when.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "updated": int(when.timestamp() * 1000) + gen.rng.randint(60_000, 3_600_000) if millis else None,
        "depth_km": depth, "depth": depth, "latitude": round(lat, 4), "longitude": round(lon, 4),
        "url": EVENT_PAGE + eid, "detail": DETAIL.format(eid), "alert": _alert(gen, mag),
        "tsunami": int(spot.offshore and mag >= 6.5 and depth <= 100.0), "mag_type": _mag_type(mag, zone.network),
        "felt": felt, "cdi": _cdi(gen, mag, felt), "mmi": round(min(10.0, max(1.0, 1.45 * mag - 1.4 - depth / 150)), 3),
        "status": "automatic" if zone.network != "us" and (_utc_now(gen) - when) < dt.timedelta(hours=2) else "reviewed",
        "sig": min(3000, round(max(0.0, mag) ** 2 * 100 / 6.5) + min(felt, 1000) // 10), "net": zone.network,
        "code": eid[len(zone.network):],
    }
    facts["magType"] = facts["mag_type"]
    for key, value in facts.items():
        if key in fields and value is not None:
            fields[key] = bool(value) if key == "tsunami" and not int_flag else value
    if "id" in record and record is not fields:
        record["id"] = eid
    geometry = record.get("geometry")
    if isinstance(geometry, dict) and isinstance(geometry.get("coordinates"), list):
        geometry["coordinates"] = [round(lon, 4), round(lat, 4), depth]


def _number(gen: Generation, key: str) -> float | None:
    value = gen.snaked_args.get(key)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _network_of(eid: str) -> str | None:
    head = "".join(ch for ch in eid[:2] if ch.isalpha()).lower()
    return head if len(head) == 2 else None


def _mag_bounds(gen: Generation, network: str | None) -> tuple[float, float]:
    """The magnitudes a call allows: its own bounds, a feed's floor or an alert level's range,
    within what the reporting network records (a regional one: small quakes; "us": M4.5+)."""
    lo, hi = (4.5, 9.1) if network == "us" else (0.5, 9.1) if network is None else (0.5, 5.5)
    lo = FEED_FLOOR.get(str(gen.snaked_args.get("magnitude") or ""), lo)
    asked_lo, asked_hi = _number(gen, "minmagnitude"), _number(gen, "maxmagnitude")
    level = gen.snaked_args.get("alertlevel")
    if isinstance(level, str) and level in ALERT_MAGS:
        lo, hi = max(lo, ALERT_MAGS[level][0]), min(hi if level == "green" else 9.3, ALERT_MAGS[level][1])
    lo = asked_lo if asked_lo is not None else lo
    hi = asked_hi if asked_hi is not None else max(hi, lo + 0.5)
    return (lo, hi) if lo <= hi else (hi, hi)


def _gutenberg_richter(gen: Generation, lo: float, hi: float) -> float:
    """A magnitude in [lo, hi] with b = 1: each unit up is ten times rarer."""
    span = max(0.0, hi - lo)
    u = gen.rng.random()
    return min(hi, lo - math.log10(1.0 - u * (1.0 - 10.0 ** -span)))


def _depth(gen: Generation, zone: Zone) -> float:
    lo, hi = _number(gen, "mindepth"), _number(gen, "maxdepth")
    if zone.network == "us":
        depth = 10.0 if gen.rng.random() < 0.25 else gen.rng.uniform(5.0, zone.deep_km)
        if zone.deep_km >= 100 and gen.rng.random() < 0.3:
            depth = gen.rng.uniform(zone.deep_km, min(660.0, zone.deep_km * 2))
    elif zone.network == "ak" and gen.rng.random() < 0.25:
        depth = gen.rng.uniform(30.0, 130.0)
    else:
        depth = gen.rng.uniform(0.3, 40.0 if zone.network == "hv" else 16.0)
    if (lo is not None and depth < lo) or (hi is not None and depth > hi):
        low, high = max(0.0, lo or 0.0), min(700.0, hi if hi is not None else 700.0)
        depth = gen.rng.uniform(low, max(low, high))
    return round(depth, 2)


def _window(gen: Generation) -> tuple[dt.datetime, dt.datetime]:
    now = _utc_now(gen)
    end = min(_moment_arg(gen, "endtime") or now, now)
    period = PERIOD.get(str(gen.snaked_args.get("period") or ""))
    start = _moment_arg(gen, "starttime") or end - (period or dt.timedelta(days=30))
    return (start, end) if start < end else (end - dt.timedelta(hours=1), end)


def _utc_now(gen: Generation) -> dt.datetime:
    return gen.now.replace(tzinfo=dt.UTC) if gen.now.tzinfo is None else gen.now


def _moment_arg(gen: Generation, key: str) -> dt.datetime | None:
    value = gen.snaked_args.get(key)
    if not isinstance(value, str):
        return None
    try:
        moment = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment.replace(tzinfo=dt.UTC) if moment.tzinfo is None else moment


def _moment(gen: Generation) -> dt.datetime:
    start, end = _window(gen)
    seconds = (end - start).total_seconds()
    return start + dt.timedelta(milliseconds=int(gen.rng.random() * seconds * 1000))


def _mint_id(gen: Generation, network: str) -> str:
    if network == "us":
        tail = "".join(gen.rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(4))
        return f"us{gen.rng.choice(('6000', '7000'))}{tail}"
    digits = 11 if network == "ak" else 8
    return network + str(gen.rng.randint(10 ** (digits - 1), 10 ** digits - 1))


def _alert(gen: Generation, mag: float) -> str:
    level = gen.snaked_args.get("alertlevel")
    if isinstance(level, str) and level in ALERT_MAGS:
        return level
    return next((name for name in ("red", "orange", "yellow") if mag >= ALERT_MAGS[name][0]), "green")


def _mag_type(mag: float, network: str) -> str:
    if network == "us":
        return "mb" if mag < 5.5 else "mww"
    return "md" if network in _MD_NETWORKS and mag < 3.5 else "ml"


def _felt(gen: Generation, mag: float, zone: Zone) -> int:
    if mag < 2.0:
        return 0 if gen.rng.random() < 0.8 else gen.rng.randint(1, 3)
    scale = 2.2 if zone.network != "us" else 3.6
    return int(10 ** (mag - scale) * gen.rng.uniform(0.2, 1.0)) if mag < 8.5 else gen.rng.randint(5_000, 40_000)


def _cdi(gen: Generation, mag: float, felt: int) -> float:
    if felt == 0:
        return 0.0
    return round(min(10.0, max(1.0, 1.3 * mag - 1.5 + gen.rng.uniform(-0.5, 0.5))), 1)
