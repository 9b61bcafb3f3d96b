"""The waypoints a directions call sends, its travel mode, and the turns of each leg.

``points_of(gen)`` reads the call's waypoints as (lat, lon): lists of pairs in GeoJSON order
([lon, lat], openrouteservice, GraphHopper, OSRM, Mapbox), "lat,lon" strings (Google, HERE,
TomTom), {lat, lng} objects, or place names; a pair whose order is given away by a value
beyond ±90 is read that way. ``leg_steps`` writes each leg's turn instructions on streets of
its country (Faker's street names where it has the locale, else town roads such as
"Kaduna Road"), with the openrouteservice type or GraphHopper sign of each maneuver; its
wording and codes are data (``tool_specs/reference/route_words.json``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from env_server.simulators.reference_tables import reference_table

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation
    from env_server.simulators.reference import PlaceFact, ReferenceData

_LIST_ARGS = ("coordinates", "points", "waypoints", "locations", "stops", "point", "via", "path")
_START_ARGS = ("start", "origin", "from", "start_point", "source", "start_location", "from_location",
               "origin_coordinates", "departure", "start_coordinates", "origin_address")
_END_ARGS = ("end", "destination", "to", "end_point", "target", "end_location", "to_location",
             "destination_coordinates", "arrival", "end_coordinates", "destination_address")
_MODE_ARGS = ("profile", "mode", "vehicle", "travel_mode", "travelmode", "costing", "transport_mode",
              "transportation_mode", "route_type", "means_of_transport")
# Words of a mode argument, in the order they are tried ("driving-hgv" is a truck, not a car).
_MODE_WORDS = (("hgv", "hgv"), ("truck", "hgv"), ("wheelchair", "wheelchair"), ("hik", "hiking"),
               ("foot", "walking"), ("walk", "walking"), ("pedestrian", "walking"), ("bike", "cycling"),
               ("cycl", "cycling"), ("bicycl", "cycling"), ("mtb", "cycling"))


@dataclass(frozen=True)
class Leg:
    """One leg between consecutive waypoints: its ends (lat, lon), road length and speed."""

    start: tuple[float, float]
    end: tuple[float, float]
    km: float
    speed: float  # km/h


@functools.cache
def _words() -> dict[str, Any]:
    data: dict[str, Any] = reference_table("route_words.json")
    return data


def mode_of(args: Mapping[str, Any], record: Mapping[str, Any] | None = None) -> str:
    """The travel mode a call asks for (else the record's own ``mode``): driving, hgv, cycling,
    walking, hiking or wheelchair."""
    for source in (args, record or {}):
        for key in _MODE_ARGS:
            value = source.get(key)
            if isinstance(value, str):
                low = value.lower()
                return next((mode for word, mode in _MODE_WORDS if word in low), "driving")
    return "driving"


def _valid(lat: float, lon: float) -> tuple[float, float] | None:
    return (lat, lon) if -90 <= lat <= 90 and -180 <= lon <= 180 else None


def _pair(value: Any, lon_first: bool, ref: ReferenceData) -> tuple[float, float] | None:
    """One waypoint as (lat, lon), or None when ``value`` names none."""
    if isinstance(value, dict):
        lat = next((value[k] for k in ("lat", "latitude") if isinstance(value.get(k), (int, float))), None)
        lon = next((value[k] for k in ("lon", "lng", "long", "longitude") if isinstance(value.get(k), (int, float))),
                   None)
        return _valid(float(lat), float(lon)) if lat is not None and lon is not None else None
    if isinstance(value, str):
        parts = value.replace(";", ",").split(",")
        try:
            numbers = [float(p) for p in parts]
        except ValueError:
            place = ref.find_place(value) if value.strip() else None
            return (place.latitude, place.longitude) if place is not None else None
        return _ordered(numbers, lon_first=False) if len(numbers) == 2 else None
    if isinstance(value, (list, tuple)) and len(value) >= 2 and all(isinstance(v, (int, float)) for v in value[:2]):
        return _ordered([float(value[0]), float(value[1])], lon_first)
    return None


def waypoint(value: Any, ref: ReferenceData) -> tuple[float, float] | None:
    """One waypoint a call sends ([lon, lat], {"lat", "lng"}, "lat,lon" or a place name) as (lat, lon)."""
    return _pair(value, True, ref)


def _ordered(numbers: list[float], lon_first: bool) -> tuple[float, float] | None:
    a, b = numbers
    if abs(a) > 90:
        lon_first = True
    elif abs(b) > 90:
        lon_first = False
    return _valid(b, a) if lon_first else _valid(a, b)


def points_of(gen: Generation) -> list[tuple[float, float]]:
    """The call's waypoints in order, as (lat, lon); two made-up ones near its place if none."""
    found = call_points(gen.snaked_args, gen.facts.reference)
    if len(found) >= 2:
        return found
    return _made_up(gen, found[0] if found else None)


def call_points(args: dict[str, Any], ref: ReferenceData) -> list[tuple[float, float]]:
    """The waypoints that ``args`` (snake_case keys) send, in order, as (lat, lon)."""
    for key in _LIST_ARGS:
        value = args.get(key)
        if isinstance(value, list) and len(value) >= 2:
            found = [p for v in value if (p := _pair(v, True, ref)) is not None]
            if len(found) >= 2:
                return found
    start = next((p for k in _START_ARGS if (p := _pair(args.get(k), True, ref)) is not None), None)
    end = next((p for k in _END_ARGS if (p := _pair(args.get(k), True, ref)) is not None), None)
    if start is None or end is None:
        return [p for p in (start, end) if p is not None]
    via = next((v for k in ("waypoints", "via", "stops") if isinstance(v := args.get(k), list)), [])
    return [start, *[p for v in via if (p := _pair(v, True, ref)) is not None], end]


def _made_up(gen: Generation, anchor: tuple[float, float] | None) -> list[tuple[float, float]]:
    if anchor is None:
        place = gen.call_place() or gen.rng.choice(gen.facts.reference.drawable_places)
        anchor = (place.latitude, place.longitude)
    km, bearing = gen.rng.uniform(3.0, 25.0), math.radians(gen.rng.uniform(0, 360))
    lat = anchor[0] + km / 111.2 * math.cos(bearing)
    lon = anchor[1] + km / (111.2 * max(0.2, math.cos(math.radians(anchor[0])))) * math.sin(bearing)
    return [anchor, (round(max(-89.9, min(89.9, lat)), 6), round((lon + 540) % 360 - 180, 6))]


def _bearing(a: tuple[float, float], b: tuple[float, float]) -> float:
    la1, la2, dlon = math.radians(a[0]), math.radians(b[0]), math.radians(b[1] - a[1])
    x = math.sin(dlon) * math.cos(la2)
    y = math.cos(la1) * math.sin(la2) - math.sin(la1) * math.cos(la2) * math.cos(dlon)
    return (math.degrees(math.atan2(x, y)) + 360) % 360


def _streets(place: PlaceFact, gen: Generation) -> list[str]:
    """Street names of ``place``'s country: Faker's for its locale, else roads of its towns."""
    pool = gen.facts.reference.addresses.pool(place.country_code)
    if pool is not None:
        return list(pool.names)
    words = _words()
    return [*words["roads"], *(t.format(town=place.name) for t in words["town_roads"])]


def _counts(legs: list[Leg], lo: int, hi: int) -> list[int]:
    """Maneuvers per leg between its depart and arrive rows, fitted to ``lo``..``hi`` rows."""
    counts = [max(1, min(10, round(1 + 1.6 * math.log2(1 + leg.km)))) if leg.km > 0 else 0 for leg in legs]
    while sum(counts) + 2 * len(legs) > hi and max(counts, default=0) > 0:
        counts[counts.index(max(counts))] -= 1
    while sum(counts) + 2 * len(legs) < lo:
        counts[counts.index(min(counts))] += 1
    return counts


def leg_steps(legs: list[Leg], gen: Generation, lo: int, hi: int, sign: bool) -> list[dict[str, Any]]:
    """Every leg's rows: depart, its maneuvers, arrive; each with text, street, km, seconds, code."""
    rows: list[dict[str, Any]] = []
    legs = legs[: max(1, hi // 2)]  # a list too short for every leg keeps the first ones
    for number, (leg, count) in enumerate(zip(legs, _counts(legs, lo, hi), strict=True), start=1):
        rows += _one_leg(leg, count, gen, sign, final=number == len(legs), number=number)
    return rows


def _one_leg(leg: Leg, count: int, gen: Generation, sign: bool, *, final: bool, number: int) -> list[dict[str, Any]]:
    words, rng, code = _words(), gen.rng, "sign" if sign else "ors"
    ref = gen.facts.reference
    near = [_streets(ref.nearest_place(*leg.start), gen), _streets(ref.nearest_place(*leg.end), gen)]
    direction = words["directions"][round(_bearing(leg.start, leg.end) / 45) % 8]
    weights = [rng.uniform(0.2, 1.0) for _ in range(count + 1)]
    main = rng.randint(1, count) if leg.km > 3 and count else 0
    if main:  # most of a long leg is one main road, a highway to the leg's end town past 20 km
        weights[main] += sum(weights) * rng.uniform(1.5, 6.0) * min(1.0, math.log10(leg.km))
    town = ref.nearest_place(*leg.end).name
    share = [w / sum(weights) for w in weights]
    street = rng.choice(near[0])
    rows = [{"text": words["depart"]["text"].format(direction=direction, street=street), "street": street,
             "code": words["depart"][code], "km": leg.km * share[0]}]
    maneuvers = [m for m in words["maneuvers"] if leg.speed > 10 or not m.get("wheels")]
    for k in range(count):
        move = rng.choices(maneuvers, weights=[m["weight"] for m in maneuvers])[0]
        street = rng.choice(near[0 if k < count / 2 else 1])
        if k + 1 == main and leg.km > 20:
            street = rng.choice(words["highways"]).format(town=town)
        text = move["text"].format(street=street, exit=rng.choice(words["exits"]))
        rows.append({"text": text, "street": street, "code": move[code], "km": leg.km * share[k + 1]})
    end = words["arrive"] if final else words["via"]
    side = rng.choice(("right", "left"))
    rows.append({"text": end["text"].format(side=side, number=number), "street": street, "code": end[code],
                 "km": 0.0})
    _time_rows(rows, leg, gen)
    return rows


def _time_rows(rows: list[dict[str, Any]], leg: Leg, gen: Generation) -> None:
    """Seconds per row at a speed that varies by road and adds up to the leg's own time."""
    spread = 0.2 if leg.speed > 10 else 0.05
    raw = [r["km"] / (leg.speed * gen.rng.uniform(1 - spread, 1 + spread)) * 3600 for r in rows]
    total = leg.km / leg.speed * 3600 if leg.speed else 0.0
    scale = total / sum(raw) if sum(raw) > 0 else 0.0
    for row, seconds in zip(rows, raw, strict=True):
        row["seconds"] = seconds * scale
