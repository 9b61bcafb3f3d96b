"""The audit's place checks: country records, time zones, boxes and reverse geocoding.

``geo_hits(result, args)`` reads every record of a result and reports what a person who
knows the world would not believe:

* a country's codes disagree (``cca2`` "CH" with ``cca3`` "CHN"), or an alpha-3 code is
  not three letters;
* a record's country name and code name different countries;
* a country record's region, subregion or capital is not the country's;
* a time-zone offset is not one the record's IANA zone observes;
* a record's point lies outside its own bounding box;
* a reverse geocode (the call gives a point) answers a place far from that point.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from env_server.simulators.countries import WORLD_REGIONS, CountryFact, CountryIndex
from env_server.simulators.geo_kinds import point_arg
from env_server.simulators.records import LAT_ARGS, LON_ARGS, arg_number, default_facts
from env_server.simulators.reference import haversine_km
from env_server.specs.audit_checks import read_number, walk_records

Hit = tuple[str, str]

ALPHA2 = ("cca2", "isoAlpha2", "iso2", "alpha2Code", "country_code", "countryCode", "country_code2")
ALPHA3 = ("cca3", "isoAlpha3", "iso3", "alpha3Code", "country_code3", "iso_a3")
NAMES = ("countryName", "country_name", "country", "isoName")
ZONES = ("timezone", "timeZoneId", "ianaTimeId", "timezoneId", "tz_id", "zone_id")
OFFSETS_HOURS = ("gmtOffset", "gmt_offset", "utc_offset", "timezone_offset", "utcOffset")
OFFSETS_SECONDS = ("utcOffsetSeconds", "utc_offset_seconds", "gmt_offset_seconds")
LATS = ("lat", "latitude")
LONS = ("lon", "lng", "longitude")
# A reverse geocode answers within this distance of the point it was given.
REVERSE_KM = 60.0


def _first(record: Mapping[str, Any], names: tuple[str, ...]) -> tuple[str, Any] | None:
    for name in names:
        value = record.get(name)
        if value is not None:
            return name, value
    return None


def _index() -> CountryIndex:
    return default_facts().reference.countries


def _country_of(record: Mapping[str, Any]) -> tuple[str, CountryFact] | None:
    found = _first(record, ALPHA2)
    if found is None or not isinstance(found[1], str) or len(found[1]) != 2:
        return None
    fact = _index().get(found[1])
    return (found[0], fact) if fact is not None else None


def _code_hits(record: Mapping[str, Any], fact: CountryFact, key: str) -> Iterator[str]:
    alpha3 = _first(record, ALPHA3)
    if alpha3 is not None and isinstance(alpha3[1], str):
        if len(alpha3[1]) != 3:
            yield f"{alpha3[0]}={alpha3[1]!r} is not an alpha-3 code"
        elif alpha3[1].upper() != fact.cca3:
            yield f"{alpha3[0]}={alpha3[1]!r} but {key}={fact.cca2!r} is {fact.cca3}"
    named = _first(record, NAMES)
    if named is not None and isinstance(named[1], str) and len(named[1]) > 3:
        other = _index().find(named[1])
        if other is not None and other is not fact:
            yield f"{named[0]}={named[1]!r} is not the country of {key}={fact.cca2!r}"


def _country_record_hits(record: Mapping[str, Any], fact: CountryFact) -> Iterator[str]:
    """Only for country records (they carry a world region)."""
    region = record.get("region")
    if not isinstance(region, str) or region not in WORLD_REGIONS:
        return
    if region != fact.region:
        yield f"region={region!r} but {fact.name} lies in {fact.region}"
    sub = record.get("subregion")
    if isinstance(sub, str) and sub != fact.subregion:
        yield f"subregion={sub!r} but {fact.name} lies in {fact.subregion}"
    capital = record.get("capital")
    names = capital if isinstance(capital, list) else [capital] if isinstance(capital, str) else []
    if names and fact.capital.name not in names:
        yield f"capital={capital!r} but the capital of {fact.name} is {fact.capital.name}"


def _zone_hits(record: Mapping[str, Any], today: dt.date) -> Iterator[str]:
    zone = _first(record, ZONES)
    if zone is None or not isinstance(zone[1], str) or "/" not in zone[1]:
        return
    try:
        tz = ZoneInfo(zone[1])
    except (ZoneInfoNotFoundError, ValueError):
        yield f"{zone[0]}={zone[1]!r} is not an IANA time zone"
        return
    seen = {tz.utcoffset(dt.datetime(today.year, month, 15)) for month in (1, 4, 7, 10)}
    hours = {o.total_seconds() / 3600 for o in seen if o is not None}
    found = _first(record, OFFSETS_HOURS)
    if found is not None and isinstance(found[1], (int, float)) and not isinstance(found[1], bool):
        if all(abs(found[1] - h) > 0.01 for h in hours):
            yield f"{found[0]}={found[1]} is not an offset {zone[1]} observes"
    secs = _first(record, OFFSETS_SECONDS)
    if secs is not None and isinstance(secs[1], int) and all(abs(secs[1] - h * 3600) > 1 for h in hours):
        yield f"{secs[0]}={secs[1]} is not an offset {zone[1]} observes"




def _point(record: Mapping[str, Any]) -> tuple[float, float] | None:
    lat, lon = _first(record, LATS), _first(record, LONS)
    if lat is None or lon is None:
        return None
    a, b = read_number(lat[1]), read_number(lon[1])
    return (a, b) if a is not None and b is not None else None


def _box_hits(record: Mapping[str, Any]) -> Iterator[str]:
    point = _point(record)
    box = record.get("boundingbox")
    if point is None or not isinstance(box, list) or len(box) != 4:
        return
    south, north, west, east = (read_number(v) for v in box)
    if None in (south, north, west, east):
        return
    lat, lon = point
    if not (south <= lat <= north and west <= lon <= east):  # type: ignore[operator]
        yield f"the point ({lat}, {lon}) lies outside its boundingbox {box}"


def _reverse_hits(record: Mapping[str, Any], asked: tuple[float, float], radius: float) -> Iterator[str]:
    point = _point(record)
    if point is None:
        return
    km = haversine_km(asked[0], asked[1], point[0], point[1])
    if km > radius:
        yield f"the point ({point[0]}, {point[1]}) is {km:.0f} km from the one asked about"


def asked_point(args: Mapping[str, Any]) -> tuple[float, float] | None:
    """The point a call asks about (lat/lon arguments or one "lat,lon" argument)."""
    lat, lon = arg_number(dict(args), LAT_ARGS), arg_number(dict(args), LON_ARGS)
    if lat is not None and lon is not None and -90 <= lat <= 90 and -180 <= lon <= 180:
        return lat, lon
    return point_arg(dict(args))


def geo_hits(result: Any, args: Mapping[str, Any], today: dt.date, *, reverse: bool = False) -> list[Hit]:
    """Place and country findings in ``result``; ``reverse`` checks points against the call's."""
    asked = asked_point(args) if reverse else None
    radius = max(REVERSE_KM, (arg_number(dict(args), ("radius", "radius_km")) or 0) * 1.05)
    found: list[Hit] = []
    for path, record in walk_records(result):
        details: list[str] = []
        country = _country_of(record)
        if country is not None:
            details += _code_hits(record, country[1], country[0])
            details += _country_record_hits(record, country[1])
        details += _zone_hits(record, today)
        details += _box_hits(record)
        if asked is not None:
            details += _reverse_hits(record, asked, radius)
        found += [(path, d) for d in details]
    return found


def is_reverse(name: str) -> bool:
    """Tools that answer for the point they are given (reverse geocoding, nearby search)."""
    low = name.lower()
    return "reverse" in low or "nearby" in low or "by_location" in low or "timezone" in low
