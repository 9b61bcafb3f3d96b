"""The audit's checks of directions: a route follows the waypoints the call sent.

``route_hits(args, result)`` reports, in every record laid out as a route (``route_facts``):

* a bounding box that leaves out one of the call's waypoints;
* a distance shorter than the great-circle path through the waypoints, or more than twice it;
* an average speed outside the travel mode's (driving 25–110 km/h, cycling 10–25, walking 3–7);
* steps whose distances or durations do not add up to the route's;
* a step's text that is not a turn instruction ("Turn left onto …", "Arrive at …").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from env_server.simulators.naming import snake
from env_server.simulators.records import default_facts
from env_server.simulators.reference import haversine_km
from env_server.simulators.route_facts import RouteLayout, call_unit, route_layout, seconds_per_unit
from env_server.simulators.route_words import call_points, mode_of
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]

_SPEED_RANGES = {"driving": (25.0, 110.0), "hgv": (25.0, 100.0), "cycling": (10.0, 25.0), "walking": (3.0, 7.0),
                 "hiking": (3.0, 7.0), "wheelchair": (2.5, 7.0)}
INSTRUCTION = re.compile(r"^(Head|Turn|Continue|Keep|Enter|Arrive|Take|Merge|Make|Exit|At the|Go|Slight|Bear"
                         r"|Destination|You have|Leave|Cross|Follow)\b")


def _shape(record: Mapping[str, Any]) -> dict[str, Any]:
    """A schema-like view of a record's values, enough for ``route_layout``."""
    props: dict[str, Any] = {}
    for key, value in record.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            props[key] = {"type": "integer" if isinstance(value, int) else "number"}
        elif isinstance(value, str):
            props[key] = {"type": "string"}
        elif isinstance(value, list):
            first = value[0] if value else None
            items = {"type": "object", "properties": _shape(first)} if isinstance(first, dict) else {"type": "string"}
            props[key] = {"type": "array", "items": items}
    return props


def route_hits(args: Mapping[str, Any], result: Any) -> list[Hit]:
    """Findings of this module's checks in ``result``."""
    snaked = {snake(k): v for k, v in args.items()}
    points = call_points(snaked, default_facts().reference)
    found: list[Hit] = []
    for path, record in walk_records(result):
        layout = route_layout(_shape(record))
        if layout is None or not isinstance(record.get(layout.distance), (int, float)):
            continue
        found += _box_hits(path, record, layout, points)
        found += _length_hits(path, record, layout, points, snaked)
        found += _step_hits(path, record, layout)
    return found


def _box_hits(path: str, record: Mapping[str, Any], layout: RouteLayout,
              points: list[tuple[float, float]]) -> list[Hit]:
    box = record.get(layout.box or "")
    if not (isinstance(box, list) and len(box) == 4 and all(isinstance(v, (int, float)) for v in box)):
        return []
    west, south, east, north = box
    out = [p for p in points if not (south - 1e-5 <= p[0] <= north + 1e-5 and west - 1e-5 <= p[1] <= east + 1e-5)]
    return [(f"{path}.{layout.box}", f"bounding box {box} leaves out the waypoint (lat, lon) {out[0]}")] if out else []


def _length_hits(path: str, record: Mapping[str, Any], layout: RouteLayout, points: list[tuple[float, float]],
                 args: dict[str, Any]) -> list[Hit]:
    if len(points) < 2:
        return []
    crow = sum(haversine_km(*a, *b) for a, b in zip(points, points[1:], strict=False))
    km = float(record[layout.distance]) * call_unit(args, layout)
    where = f"{path}.{layout.distance}"
    if crow > 0.5 and not crow * 0.99 <= km <= crow * 2.0:
        return [(where, f"route of {km:.1f} km between waypoints {crow:.1f} km apart as the crow flies")]
    seconds = record.get(layout.duration or "")
    if crow <= 0.5 or not isinstance(seconds, (int, float)) or seconds <= 0:
        return []
    mode = mode_of(args)
    speed = km / (float(seconds) * layout.seconds_per_unit / 3600)
    lo, hi = _SPEED_RANGES[mode]
    return [] if lo <= speed <= hi else [(where, f"{mode} route averages {speed:.1f} km/h")]


def _step_hits(path: str, record: Mapping[str, Any], layout: RouteLayout) -> list[Hit]:
    steps = record.get(layout.steps or "")
    if not isinstance(steps, list) or not steps:
        return []
    found: list[Hit] = []
    items = [s for s in steps if isinstance(s, dict)]
    texts = [s.get(layout.step_text) for s in items] if layout.step_text else steps
    for i, text in enumerate(texts):
        if isinstance(text, str) and not INSTRUCTION.match(text):
            found.append((f"{path}.{layout.steps}[{i}]", f"step {text[:60]!r} is not a turn instruction"))
            break
    for field, total in ((layout.step_distance, layout.distance), (layout.step_duration, layout.duration)):
        if field is None or total is None or not isinstance(record.get(total), (int, float)) or len(items) < 2:
            continue
        added = sum(float(s.get(field) or 0) for s in items)
        whole = float(record[total])
        if field == layout.step_duration:
            added *= seconds_per_unit(field) / layout.seconds_per_unit
        if abs(added - whole) > 1.0 + whole * 0.005:
            found.append((f"{path}.{total}", f"steps add up to {added:.1f}, the route says {whole}"))
    return found
