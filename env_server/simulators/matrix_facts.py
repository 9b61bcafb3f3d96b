"""A travel-time matrix between the points a call sends (openrouteservice, GraphHopper and
imported "distance matrix" tools).

A matrix has one row per source and one column per destination the call gives: every
location, or those its ``sources``/``destinations`` indices pick, or its ``from_points`` and
``to_points``. A cell's distance is the great-circle distance between the two points times
one road detour for the call (1.15–1.4; 1.1–1.3 on foot), so the cells grow with the
straight-line distance, and its duration follows the profile's speed (``route_facts``); a
point to itself is 0. The matrix's ``sources`` and ``destinations`` echo the points, as
[longitude, latitude]. ``matrix_step(props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake
from env_server.simulators.reference import ReferenceData, haversine_km
from env_server.simulators.route_facts import speed_kmh
from env_server.simulators.route_words import mode_of, waypoint

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]
Point = tuple[float, float]

_DISTANCE_FIELDS = ("distances", "distance_matrix", "distances_m", "distances_km")
_DURATION_FIELDS = ("durations", "times", "duration_matrix", "travel_times", "durations_s")
_FROM_ARGS = ("from_points", "origins", "sources_points", "from_locations")
_TO_ARGS = ("to_points", "destinations", "destination_points", "to_locations")
_ECHOES = {"sources": "from", "destinations": "to"}
_DETOURS = {"walking": (1.1, 1.3), "hiking": (1.1, 1.3), "wheelchair": (1.1, 1.3)}
_UNIT_KM = {"m": 0.001, "km": 1.0, "mi": 1.609344}


@dataclass(frozen=True)
class MatrixLayout:
    distances: str | None
    durations: str | None
    echoes: tuple[str, ...]  # "sources"/"destinations" lists of {"location": [lon, lat]}
    integer_times: bool


def _is_matrix(schema: Any) -> bool:
    items = schema.get("items") if isinstance(schema, dict) and schema.get("type") == "array" else None
    inner = items.get("items") if isinstance(items, dict) and items.get("type") == "array" else None
    return isinstance(inner, dict) and inner.get("type") in ("number", "integer")


def matrix_layout(props: Mapping[str, Any]) -> MatrixLayout | None:
    """Where a matrix record keeps its cells, or None for a record with no numeric matrix."""
    distances = next((k for k in props if snake(k) in _DISTANCE_FIELDS and _is_matrix(props[k])), None)
    durations = next((k for k in props if snake(k) in _DURATION_FIELDS and _is_matrix(props[k])), None)
    if distances is None and durations is None:
        return None
    echoes = tuple(k for k in props if snake(k) in _ECHOES and isinstance(props[k], dict)
                   and props[k].get("type") == "array")
    cell = props[durations]["items"]["items"] if durations else {}
    return MatrixLayout(distances, durations, echoes, cell.get("type") == "integer")


def _picked(points: list[Point], indices: Any) -> list[Point]:
    if isinstance(indices, list) and indices and all(isinstance(i, int) and 0 <= i < len(points) for i in indices):
        return [points[i] for i in indices]
    return points


def matrix_ends(args: Mapping[str, Any], ref: ReferenceData) -> tuple[list[Point], list[Point]] | None:
    """The call's sources and destinations as (lat, lon), or None when it sends none."""
    starts = next((found for k in _FROM_ARGS if isinstance(v := args.get(k), list)
                   and (found := [p for x in v if (p := waypoint(x, ref)) is not None])), None)
    ends = next((found for k in _TO_ARGS if isinstance(v := args.get(k), list)
                 and (found := [p for x in v if (p := waypoint(x, ref)) is not None])), None)
    if starts and ends:
        return starts, ends
    locations = args.get("locations") or args.get("coordinates")
    points = [p for x in locations if (p := waypoint(x, ref)) is not None] if isinstance(locations, list) else []
    if not points:
        return None
    return _picked(points, args.get("sources")), _picked(points, args.get("destinations"))


def matrix_step(props: Mapping[str, Any]) -> Step | None:
    """The step that makes a matrix record follow the call's points, or None."""
    layout = matrix_layout(props)
    if layout is None:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        ends = matrix_ends(gen.snaked_args, gen.facts.reference)
        if ends is None:
            return
        starts, stops = ends
        mode = mode_of(gen.snaked_args, {})
        detour = gen.rng.uniform(*_DETOURS.get(mode, (1.15, 1.4)))
        km = [[haversine_km(*a, *b) * detour for b in stops] for a in starts]
        unit = _UNIT_KM.get(str(gen.snaked_args.get("units")), 0.001)
        if layout.distances in record:
            record[layout.distances] = [[round(d / unit, 1) for d in row] for row in km]
        if layout.durations in record:
            seconds = [[d / speed_kmh(mode, d) * 3600 if d else 0.0 for d in row] for row in km]
            record[layout.durations] = [[round(s) if layout.integer_times else round(s, 1) for s in row]
                                        for row in seconds]
        for key in layout.echoes:
            if isinstance(record.get(key), list):
                record[key] = _echo(record[key], starts if _ECHOES[snake(key)] == "from" else stops,
                                    gen.facts.reference)

    return step


def _echo(items: list[Any], points: list[Point], ref: ReferenceData) -> list[Any]:
    """One item per point, each saying the point's [lon, lat] and the place it is in."""
    template = [i for i in items if isinstance(i, dict)] or [{}]
    out = []
    for n, (lat, lon) in enumerate(points):
        item = dict(template[n % len(template)])
        item["location"] = [round(lon, 6), round(lat, 6)]
        if isinstance(item.get("name"), str):
            item["name"] = ref.nearest_place(lat, lon).name
        if isinstance(item.get("snapped_distance"), (int, float)):
            item["snapped_distance"] = round(min(float(item["snapped_distance"]), 25.0), 2)  # a snap is a few metres
        out.append(item)
    return out
