"""The area reachable from the points a call sends (openrouteservice isochrones, Geoapify
isolines and imported "reachable area" tools).

An isochrone answer has one feature per (location, range) the call gives, in the order
openrouteservice writes them: each location's ranges in turn. A feature's ``group_index``
is its location's index, its ``value`` is the range asked, its ``center`` is the location as
[longitude, latitude], and its polygon is a closed ring around the centre whose radius is
what the range reaches (a time at the profile's speed, about 0.7 of it through a road
network; a distance, about 0.8 of it). Its ``area`` is that ring's area in the call's
``area_units`` (square metres by default). ``isochrone_step(props)`` is asked once per
object schema (``record_steps``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake
from env_server.simulators.route_facts import speed_kmh
from env_server.simulators.route_words import mode_of, waypoint

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_RING_POINTS = 16
_AREA_UNIT_M2 = {"m": 1.0, "km": 1e6, "mi": 2_589_988.11}
_FEATURE_KEYS = ("center", "value")


def _feature_list(props: Mapping[str, Any]) -> str | None:
    key = next((k for k in props if snake(k) == "features"), None)
    items = props[key].get("items") if key is not None and isinstance(props[key], dict) else None
    inner = items.get("properties") if isinstance(items, dict) else None
    return key if isinstance(inner, dict) and all(k in inner for k in _FEATURE_KEYS) else None


def isochrone_step(props: Mapping[str, Any]) -> Step | None:
    """The step that centres an isochrone answer's features on the call's locations, or None."""
    key = _feature_list(props)
    if key is None:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        old = record.get(key)
        args = gen.snaked_args
        centres = [p for x in args.get("locations") or () if (p := waypoint(x, gen.facts.reference)) is not None] \
            if isinstance(args.get("locations"), list) else []
        ranges = [r for r in args.get("range") or () if isinstance(r, (int, float)) and not isinstance(r, bool)] \
            if isinstance(args.get("range"), list) else []
        if not isinstance(old, list) or not old or not centres or not ranges:
            return
        template = [f for f in old if isinstance(f, dict)] or [{}]
        record[key] = [_feature(template[n % len(template)], group, centre, value, gen)
                       for n, (group, centre, value) in enumerate(
                           (g, c, v) for g, c in enumerate(centres) for v in ranges)]

    return step


def reach_km(value: float, args: Mapping[str, Any]) -> float:
    """How far a range reaches from its centre: a time (seconds) at the profile's speed
    through a road network, or a distance (metres)."""
    if str(args.get("range_type", "time")).lower() == "distance":
        return value / 1000 * 0.8
    mode = mode_of(args, {})
    return speed_kmh(mode, 20.0) * value / 3600 * 0.7


def ring(lat: float, lon: float, km: float) -> list[list[float]]:
    """A closed ring of [lon, lat] points ``km`` around (lat, lon), slightly irregular."""
    points = []
    for i in range(_RING_POINTS):
        angle = 2 * math.pi * i / _RING_POINTS
        r = km * (0.85 + 0.15 * math.cos(3 * angle) ** 2)
        dlat = r / 111.0 * math.cos(angle)
        dlon = r / (111.0 * max(0.2, math.cos(math.radians(lat)))) * math.sin(angle)
        points.append([round(lon + dlon, 6), round(lat + dlat, 6)])
    return [*points, points[0]]


def _feature(template: dict[str, Any], group: int, centre: tuple[float, float], value: float,
             gen: Generation) -> dict[str, Any]:
    lat, lon = centre
    km = reach_km(value, gen.snaked_args)
    feature = dict(template)
    feature.update({"group_index": group, "value": float(value), "center": [round(lon, 6), round(lat, 6)]})
    if "area" in feature:
        unit = _AREA_UNIT_M2.get(str(gen.snaked_args.get("area_units", "m")), 1.0)
        feature["area"] = round(math.pi * (km * 0.93) ** 2 * 1e6 / unit, 2)
    geometry = feature.get("geometry")
    if isinstance(geometry, dict):
        feature["geometry"] = {**geometry, "type": "Polygon", "coordinates": [ring(lat, lon, km)]}
    return feature
