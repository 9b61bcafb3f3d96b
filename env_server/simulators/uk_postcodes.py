"""A UK postcode is a UK place: its area's town, nation, region and coordinates.

postcodes.io answers ``M1 1AE`` with Manchester, England, North West, near 53.48 N 2.24 W;
never with a Chinese city. The postcode areas (the letters that open a postcode) are
reference data (``tool_specs/reference/uk_postcode_areas.json``). ``postcode_step(entity,
props)`` is chosen once per object schema of a postcode record whose ``country`` lists the
UK's nations; on each record it reads the record's postcode (the one asked, or, for a
drawn one, a postcode of the area nearest the record's point, the call's or the UK's
middle) and writes the area's nation, region, district, coordinates a little off the
town's (fixed per postcode) and the postcode's outward and inward codes.
"""

from __future__ import annotations

import functools
import math
import re
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from env_server.simulators.reference_tables import reference_table

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

NATIONS = frozenset({"England", "Scotland", "Wales", "Northern Ireland"})
POSTCODE = re.compile(r"^\s*([A-Z]{1,2})(\d[A-Z\d]?)\s*(\d[A-Z]{2})?\s*$", re.IGNORECASE)
_INWARD_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"  # the letters an inward code uses
_UK_MIDDLE = (53.0, -1.8)
_DISTRICT_KEYS = ("admin_district", "district", "admin_county", "parliamentary_constituency", "post_town")
_REGION_KEYS = ("region",)


@dataclass(frozen=True)
class PostcodeArea:
    area: str
    post_town: str
    country: str
    region: str
    latitude: float
    longitude: float
    districts: int = 20


@functools.lru_cache(maxsize=1)
def postcode_areas() -> dict[str, PostcodeArea]:
    """Every area of the reference table, by its letters."""
    rows = reference_table("uk_postcode_areas.json")["areas"]
    return {row["area"]: PostcodeArea(**row) for row in rows}


def area_of(postcode: str) -> PostcodeArea | None:
    """The area of a UK postcode (full or outward only), or None for text that is none."""
    match = POSTCODE.match(postcode)
    return postcode_areas().get(match.group(1).upper()) if match else None


def nearest_area(lat: float, lon: float) -> PostcodeArea:
    return min(postcode_areas().values(),
               key=lambda a: (a.latitude - lat) ** 2 + ((a.longitude - lon) * math.cos(math.radians(lat))) ** 2)


def in_uk(lat: float, lon: float) -> bool:
    return 49.8 <= lat <= 60.95 and -8.7 <= lon <= 1.8


def made_postcode(area: PostcodeArea, key: str) -> str:
    """A well-formed postcode of ``area``, fixed per ``key``."""
    h = zlib.crc32(key.encode())
    district = 1 + h % area.districts
    letters = _INWARD_LETTERS[(h >> 8) % 20] + _INWARD_LETTERS[(h >> 13) % 20]
    return f"{area.area}{district} {(h >> 5) % 10}{letters}"


def spot(area: PostcodeArea, postcode: str) -> tuple[float, float]:
    """A point within about 4 km of the area's town, fixed per postcode."""
    h = zlib.crc32(postcode.upper().replace(" ", "").encode())
    dlat, dlon = ((h % 1000) / 1000 - 0.5) * 0.07, (((h >> 10) % 1000) / 1000 - 0.5) * 0.11
    return round(area.latitude + dlat, 6), round(area.longitude + dlon, 6)


def draw_uk_postcode(gen: Generation) -> str:
    """A postcode that completes the call's partial one (``SW1A`` -> ``SW1A 2BX``), else one of
    the area nearest the call's point."""
    asked = gen.snaked_args.get("postcode")
    match = POSTCODE.match(asked) if isinstance(asked, str) else None
    area = postcode_areas().get(match.group(1).upper()) if match else None
    if area is None or match is None:
        point = gen.call_point
        return made_postcode(nearest_area(*(point if point and in_uk(*point) else _UK_MIDDLE)), str(gen.rng.random()))
    made = made_postcode(area, str(gen.rng.random()))
    return f"{match.group(1).upper()}{match.group(2).upper()} {match.group(3).upper() if match.group(3) else made[-3:]}"


UK_POSTCODE_KINDS: dict[str, Callable[[Generation], Any]] = {"uk_postcode": draw_uk_postcode}


def _uk_country_enum(props: Mapping[str, Any]) -> bool:
    sub = props.get("country")
    enum = set(sub.get("enum") or ()) if isinstance(sub, dict) else set()
    return len(enum & NATIONS) >= 2


def _own_point(record: Mapping[str, Any]) -> tuple[float, float] | None:
    """The record's own coordinates when they lie in the UK."""
    lat, lon = record.get("latitude"), record.get("longitude")
    if isinstance(lat, (int, float)) and isinstance(lon, (int, float)) and in_uk(lat, lon):
        return float(lat), float(lon)
    return None


def _near(record: dict[str, Any], around: tuple[float, float], index: int) -> None:
    """The record a few hundred metres from ``around``, farther for later items."""
    step = 0.0018 * (index + 1)
    angle = index * 2.4
    record["latitude"] = round(around[0] + step * math.cos(angle), 6)
    record["longitude"] = round(around[1] + step * math.sin(angle) / math.cos(math.radians(around[0])), 6)
    if isinstance(record.get("distance"), (int, float)):
        record["distance"] = round(111_195 * step, 1)  # metres, as postcodes.io gives them


def _point(record: Mapping[str, Any], gen: Generation) -> tuple[float, float]:
    """Where a drawn postcode lies: the record's point, else the call's, when in the UK; else the UK's middle."""
    point = _own_point(record) or gen.call_point
    return point if point is not None and in_uk(*point) else _UK_MIDDLE


def postcode_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a postcode record a UK place, or None for other records."""
    if "postcode" not in props or not _uk_country_enum(props):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        code = _asked(record, gen, index)
        area = area_of(code) if code is not None else None
        keep = False
        if area is None or code is None:
            around = gen.call_point if gen.call_point is not None and in_uk(*gen.call_point) else None
            if around is not None and _own_point(record) is not None:  # a reverse lookup's postcodes are near its point
                _near(record, around, index or 0)
            lat, lon = _point(record, gen)
            area = nearest_area(lat, lon)
            code = record["postcode"] = made_postcode(area, f"{gen.seed}|{index}|{lat}|{lon}")
            keep = _own_point(record) is not None  # a postcode at the record's own (UK) point
        write_area(record, area, code, keep_point=keep)

    return step


def _asked(record: dict[str, Any], gen: Generation, index: int | None) -> str | None:
    """The postcode the call asks about for this record (a bulk lookup's at this index, its
    ``query``), or None when the record's postcode is the engine's own draw."""
    asked = gen.snaked_args.get("postcodes")
    if isinstance(asked, list) and asked and "query" in record:
        query = asked[(index or 0) % len(asked)]
        if isinstance(query, str):
            record["query"] = query  # one that is no UK postcode gets a real one of its nearest area
            return query if area_of(query) is not None else None
    code = record.get("postcode")
    return code if isinstance(code, str) and code == gen.snaked_args.get("postcode") else None


def write_area(record: dict[str, Any], area: PostcodeArea, code: str, keep_point: bool = False) -> None:
    """The area's facts in the record's own fields (those it has)."""
    match = POSTCODE.match(code)
    if match is not None and match.group(3):
        record["postcode"] = f"{match.group(1).upper()}{match.group(2).upper()} {match.group(3).upper()}"
        if "outcode" in record:
            record["outcode"] = f"{match.group(1).upper()}{match.group(2).upper()}"
        if "incode" in record:
            record["incode"] = match.group(3).upper()
    if "country" in record:
        record["country"] = area.country
    for key in _REGION_KEYS:
        if key in record:
            record[key] = area.region
    for key in _DISTRICT_KEYS:
        if key in record:
            record[key] = area.post_town
    if not keep_point and ("latitude" in record or "longitude" in record):
        lat, lon = spot(area, code)
        if "latitude" in record:
            record["latitude"] = lat
        if "longitude" in record:
            record["longitude"] = lon
