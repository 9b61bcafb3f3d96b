"""A route between the points a call sends: its length, its time, its box and its turns.

A directions record (openrouteservice, GraphHopper, OSRM/Mapbox-style and imported "plan a
route" tools) is finished as a whole from the call's waypoints: the distance is the sum of
the legs' great-circle lengths times a road detour factor (1.15–1.4; 1.1–1.3 on foot), the
duration follows the profile's speed (driving 40–85 km/h by trip length, cycling 15–20,
walking 5), the bounding box holds every waypoint, and the steps are turn instructions
("Head north on Rue de Rivoli", "Turn left onto Calle Mayor", "Arrive at your destination,
on the right") on streets of the country each leg is in, whose distances and durations add
up to the route's. ``route_step(entity, props)`` is asked once per object schema
(``record_steps``); ``route_layout`` is the same reading of a record for the audit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake
from env_server.simulators.reference import haversine_km
from env_server.simulators.route_words import Leg, leg_steps, mode_of, points_of

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_DISTANCES = ("distance", "distance_m", "distance_meters", "distance_km", "distance_mi", "distance_miles",
              "total_distance", "length", "length_m", "route_distance")
_DURATIONS = ("duration", "duration_s", "duration_seconds", "duration_minutes", "duration_min", "time",
              "time_ms", "travel_time", "total_time", "total_duration", "travel_time_seconds", "route_duration")
_STEP_LISTS = ("steps", "instructions", "maneuvers", "directions", "turn_by_turn", "route_steps")
_TEXTS = ("instruction", "text", "narrative", "html_instructions", "description", "maneuver_instruction")
_STREETS = ("name", "street_name", "street", "road", "road_name", "way_name")
_BOXES = ("bbox", "bounding_box", "boundingbox")
# The speed (km/h) a profile keeps, and the detour factor of its roads.
_SPEEDS = {"driving": 0.0, "hgv": 0.0, "cycling": 17.0, "walking": 5.0, "hiking": 4.5, "wheelchair": 4.0}
_DETOURS = {"walking": (1.1, 1.3), "hiking": (1.1, 1.3), "wheelchair": (1.1, 1.3)}
_ENDS = {"origin": "start", "start_address": "start", "from": "start", "destination": "end", "end_address": "end",
         "to": "end"}
_UNIT_KM = {"m": 0.001, "km": 1.0, "mi": 1.609344}


@dataclass(frozen=True)
class RouteLayout:
    """Which fields of a route record hold what, and in which units."""

    distance: str
    duration: str | None
    steps: str | None
    box: str | None
    km_per_unit: float  # of the distance fields (metres: 0.001); the call's ``units`` may override
    seconds_per_unit: float  # of the duration fields (milliseconds: 0.001)
    step_text: str | None
    step_street: str | None
    step_distance: str | None
    step_duration: str | None
    step_code: str | None  # ORS ``type`` (0-13) or GraphHopper ``sign`` (-8..8)


def _number(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") in ("number", "integer")


def _first(props: Mapping[str, Any], names: tuple[str, ...], test: Callable[[Any], bool]) -> str | None:
    by_snake = {snake(k): k for k in props}
    return next((by_snake[n] for n in names if n in by_snake and test(props[by_snake[n]])), None)


def _km_per_unit(field: str) -> float:
    low = snake(field)
    return 1.0 if low.endswith("_km") else 1.609344 if low.endswith(("_mi", "_miles")) else 0.001


def seconds_per_unit(field: str) -> float:
    low = snake(field)
    if low.endswith(("_minutes", "_min")):
        return 60.0
    return 0.001 if low in ("time", "time_ms") else 1.0  # GraphHopper's ``time`` is milliseconds


def route_layout(props: Mapping[str, Any]) -> RouteLayout | None:
    """The route fields of a record schema, or None when it is no route with steps or a box."""
    distance = _first(props, _DISTANCES, _number)
    steps = _first(props, _STEP_LISTS, lambda s: isinstance(s, dict) and s.get("type") == "array")
    box = _first(props, _BOXES, lambda s: isinstance(s, dict) and s.get("type") == "array")
    if distance is None or (steps is None and box is None):
        return None
    duration = _first(props, _DURATIONS, _number)
    items = (props[steps].get("items") or {}) if steps is not None else {}
    item_props: Mapping[str, Any] = items.get("properties") or {} if isinstance(items, dict) else {}
    text = _first(item_props, _TEXTS, lambda s: isinstance(s, dict) and s.get("type") == "string")
    if steps is not None and text is None and not (items.get("type") == "string" and "enum" not in items):
        steps = None  # steps that are not instructions (a list of codes, an enum of phrases)
    step_duration = _first(item_props, _DURATIONS, _number)
    return RouteLayout(
        distance=distance, duration=duration, steps=steps, box=box, km_per_unit=_km_per_unit(distance),
        seconds_per_unit=seconds_per_unit(duration) if duration else 1.0, step_text=text,
        step_street=_first(item_props, _STREETS, lambda s: isinstance(s, dict) and s.get("type") == "string"),
        step_distance=_first(item_props, _DISTANCES, _number), step_duration=step_duration,
        step_code=_first(item_props, ("type", "sign"), lambda s: isinstance(s, dict) and s.get("type") == "integer"))


def route_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a route record follow the call's waypoints, or None."""
    layout = route_layout(props)
    if layout is None:
        return None
    sign = layout.step_code is not None and snake(layout.step_code) == "sign"
    step_schema = props[layout.steps] if layout.steps else {}
    ends = {k: _ENDS[snake(k)] for k, v in props.items()
            if snake(k) in _ENDS and isinstance(v, dict) and v.get("type") == "string" and "enum" not in v}

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        points = points_of(gen)
        mode = mode_of(gen.snaked_args, {snake(k): v for k, v in record.items()})
        legs = _legs(points, mode, gen)
        km_unit = call_unit(gen.snaked_args, layout)
        _write_totals(record, layout, legs, km_unit)
        for key, end in ends.items():  # "origin": the place the route starts at, unless the call named it
            if key in record and snake(key) not in gen.snaked_args:
                place = gen.facts.reference.nearest_place(*points[0 if end == "start" else -1])
                record[key] = f"{place.name}, {place.country}"
        if layout.box is not None and layout.box in record:
            record[layout.box] = bounding_box(points)
        if layout.steps is not None and layout.steps in record:
            lo, hi = int(step_schema.get("minItems", 2)), int(step_schema.get("maxItems", 60))
            rows = leg_steps(legs, gen, max(lo, 2), hi, sign)
            record[layout.steps] = [_step_item(row, record[layout.steps], i, layout, km_unit)
                                    for i, row in enumerate(rows)]
            _write_totals(record, layout, legs, km_unit, rows)
        for key in (k for k in (layout.distance, layout.duration) if k is not None):  # a route to its start
            low = props[key].get("minimum")  # is as short as the schema allows
            if key in record and isinstance(low, (int, float)) and record[key] < low:
                record[key] = low

    return step


def call_unit(args: Mapping[str, Any], layout: RouteLayout) -> float:
    """Kilometres per unit of the route's distances: the call's ``units`` for a plain distance."""
    unit = args.get("units")
    plain = snake(layout.distance) in ("distance", "total_distance", "length", "route_distance")
    return _UNIT_KM[unit] if plain and isinstance(unit, str) and unit in _UNIT_KM else layout.km_per_unit


def _legs(points: list[tuple[float, float]], mode: str, gen: Generation) -> list[Leg]:
    legs: list[Leg] = []
    lo, hi = _DETOURS.get(mode, (1.15, 1.4))
    for (lat1, lon1), (lat2, lon2) in zip(points, points[1:], strict=False):
        crow = haversine_km(lat1, lon1, lat2, lon2)
        km = crow * gen.rng.uniform(lo, hi) if crow > 0 else 0.0
        legs.append(Leg((lat1, lon1), (lat2, lon2), km, speed_kmh(mode, km)))
    return legs


def speed_kmh(mode: str, km: float) -> float:
    """The average speed of a trip of ``km`` on ``mode``: a car gets faster on longer trips."""
    base = _SPEEDS.get(mode, 0.0)
    if base:
        return base
    car = 40.0 + 45.0 * (1.0 - math.exp(-km / 80.0))
    return car * (0.85 if mode == "hgv" else 1.0)


def bounding_box(points: list[tuple[float, float]]) -> list[float]:
    """[min lon, min lat, max lon, max lat] over ``points`` ((lat, lon) pairs), rounded outward."""
    lats, lons = [p[0] for p in points], [p[1] for p in points]
    return [math.floor(min(lons) * 1e6) / 1e6, math.floor(min(lats) * 1e6) / 1e6,
            math.ceil(max(lons) * 1e6) / 1e6, math.ceil(max(lats) * 1e6) / 1e6]


def _rounded(value: float, km_unit: float) -> float:
    return round(value, 1) if km_unit < 0.01 else round(value, 3)


def _write_totals(record: dict[str, Any], layout: RouteLayout, legs: list[Leg], km_unit: float,
                  rows: list[dict[str, Any]] | None = None) -> None:
    """The route's distance and duration: the legs', or the sum of the steps as they are shown."""
    km = sum(leg.km for leg in legs)
    seconds = sum(leg.km / leg.speed * 3600 for leg in legs if leg.speed)
    if rows:
        km = sum(r["km"] for r in rows)
        seconds = sum(r["seconds"] for r in rows)
        items = [i for i in record.get(layout.steps or "", []) if isinstance(i, dict)]
        if layout.step_distance is not None and items:
            km = sum(float(i[layout.step_distance]) for i in items) * km_unit
        if layout.step_duration is not None and items:
            seconds = sum(float(i[layout.step_duration]) for i in items) * seconds_per_unit(layout.step_duration)
    if layout.distance in record:
        record[layout.distance] = _shown(km / km_unit, record[layout.distance], km_unit)
    if layout.duration is not None and layout.duration in record:
        value = seconds / layout.seconds_per_unit
        record[layout.duration] = round(value) if isinstance(record[layout.duration], int) else round(value, 1)


def _shown(value: float, old: Any, km_unit: float) -> float | int:
    return round(value) if isinstance(old, int) and not isinstance(old, bool) else _rounded(value, km_unit)


def _step_item(row: dict[str, Any], old_items: Any, i: int, layout: RouteLayout, km_unit: float) -> Any:
    if layout.step_text is None:
        return row["text"]
    olds = [o for o in old_items if isinstance(o, dict)] if isinstance(old_items, list) else []
    item = dict(olds[i % len(olds)]) if olds else {}
    item[layout.step_text] = row["text"]
    if layout.step_street is not None:
        item[layout.step_street] = row["street"]
    if layout.step_distance is not None:
        item[layout.step_distance] = _rounded(row["km"] / km_unit, km_unit)
    if layout.step_duration is not None:
        value = row["seconds"] / seconds_per_unit(layout.step_duration)
        old = item.get(layout.step_duration)
        item[layout.step_duration] = round(value) if isinstance(old, int) and not isinstance(old, bool) \
            else round(value, 1)
    if layout.step_code is not None:
        item[layout.step_code] = row["code"]
    return item


_PATH_LISTS = ("paths", "routes")
_ALTERNATIVE_ARGS = ("alternatives", "alternative_routes", "alternative", "alternative_route_max_paths",
                     "max_paths", "number_of_alternatives")


def paths_step(props: Mapping[str, Any]) -> Step | None:
    """The step that keeps one route in a routing answer unless the call asks for alternatives
    (GraphHopper's ``algorithm=alternative_route``, ``alternatives=true``, a ``max_paths``)."""
    key = _first(props, _PATH_LISTS, lambda s: isinstance(s, dict) and s.get("type") == "array"
                 and isinstance(s.get("items"), dict) and route_layout(s["items"].get("properties") or {}) is not None)
    if key is None:
        return None
    low = max(1, int(props[key].get("minItems", 1)))

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        paths = record.get(key)
        if isinstance(paths, list) and len(paths) > low:
            record[key] = paths[: max(low, alternatives_asked(gen.snaked_args))]

    return step


def alternatives_asked(args: Mapping[str, Any]) -> int:
    """How many routes a call asks for: 1, or up to 3 when it asks for alternatives."""
    wanted = 1
    if str(args.get("algorithm", "")).lower() == "alternative_route":
        wanted = 2
    for name in _ALTERNATIVE_ARGS:
        value = args.get(name)
        if value is True:
            wanted = max(wanted, 2)
        elif isinstance(value, int) and not isinstance(value, bool) and value > 0:
            wanted = max(wanted, min(value + (name in ("alternatives", "number_of_alternatives")), 3))
    return wanted
