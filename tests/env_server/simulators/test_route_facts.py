"""A directions answer follows the waypoints the call sent: its box, length, time and turns."""

from __future__ import annotations

import datetime as dt

from env_server.environment import ToolEnvironment
from env_server.simulators.generate import Generation
from env_server.simulators.reference import haversine_km
from env_server.simulators.route_facts import route_step
from env_server.specs.route_checks import INSTRUCTION, route_hits
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)

LAGOS, ABUJA, KANO = [3.3792, 6.5244], [7.4951, 9.0579], [8.5167, 12.0]  # [lon, lat]
PARIS, ARC = [2.3522, 48.8566], [2.2950, 48.8738]


def _crow(*points: list[float]) -> float:
    return sum(haversine_km(a[1], a[0], b[1], b[0]) for a, b in zip(points, points[1:], strict=False))


def test_a_nigerian_route_has_its_box_in_nigeria_and_turns_that_add_up(env: ToolEnvironment):
    route = call(env, "openrouteservice_get_directions", profile="driving-car", coordinates=[LAGOS, ABUJA, KANO])
    west, south, east, north = route["bbox"]
    for lon, lat in (LAGOS, ABUJA, KANO):
        assert west <= lon <= east and south <= lat <= north
    assert east - west < 6 and north - south < 6  # the waypoints' box, not Korea's
    km = route["distance"] / 1000
    assert 1.1 * _crow(LAGOS, ABUJA, KANO) <= km <= 1.5 * _crow(LAGOS, ABUJA, KANO)
    assert 40 <= km / (route["duration"] / 3600) <= 90
    steps = route["steps"]
    assert abs(sum(s["distance"] for s in steps) - route["distance"]) < 1
    assert abs(sum(s["duration"] for s in steps) - route["duration"]) < 1
    assert all(INSTRUCTION.match(s["instruction"]) for s in steps)
    assert steps[0]["instruction"].startswith("Head ") and steps[0]["type"] == 11
    assert steps[-1]["instruction"].startswith("Arrive at your destination") and steps[-1]["type"] == 10
    assert sum(s["instruction"].startswith("Arrive at waypoint 1") for s in steps) == 1


def test_speed_follows_the_profile_and_units_follow_the_call(env: ToolEnvironment):
    walk = call(env, "openrouteservice_get_directions", profile="foot-walking", coordinates=[PARIS, ARC], units="km")
    assert 1.1 * _crow(PARIS, ARC) <= walk["distance"] <= 1.5 * _crow(PARIS, ARC)
    assert 4 <= walk["distance"] / (walk["duration"] / 3600) <= 6
    bike = call(env, "openrouteservice_get_directions", profile="cycling-regular", coordinates=[PARIS, ARC])
    assert 15 <= bike["distance"] / 1000 / (bike["duration"] / 3600) <= 20
    assert route_hits({"profile": "foot-walking", "coordinates": [PARIS, ARC], "units": "km"}, walk) == []


def test_graphhopper_paths_are_metres_and_milliseconds_along_the_points(env: ToolEnvironment):
    paths = call(env, "graphhopper_calculate_route", points=[LAGOS, ABUJA], profile="bike")["paths"]
    for path in paths:
        assert abs(sum(i["distance"] for i in path["instructions"]) - path["distance"]) < 1
        assert abs(sum(i["time"] for i in path["instructions"]) - path["time"]) <= len(path["instructions"])
        assert 15 <= path["distance"] / 1000 / (path["time"] / 3_600_000) <= 20
        assert path["instructions"][-1]["sign"] == 4
    assert route_hits({"points": [LAGOS, ABUJA], "profile": "bike"}, {"paths": paths}) == []


def test_an_imported_route_names_the_places_of_its_lat_lon_strings():
    step = route_step("route", {"origin": {"type": "string"}, "distance_km": {"type": "number"},
                                "duration_minutes": {"type": "integer"},
                                "steps": {"type": "array", "items": {"type": "string"}, "maxItems": 8}})
    assert step is not None
    gen = Generation(1, dt.date(2026, 12, 7), {"start": "48.8566,2.3522", "end": "48.8738,2.2950", "mode": "walking"})
    record = {"origin": "x", "distance_km": 1.0, "duration_minutes": 1, "steps": ["Yoga class moved to 6:30."]}
    step(record, gen, None)
    assert record["origin"] == "Paris, France"
    assert 1.1 * _crow(PARIS, ARC) <= record["distance_km"] <= 1.5 * _crow(PARIS, ARC)
    assert 3 <= len(record["steps"]) <= 8 and all(INSTRUCTION.match(s) for s in record["steps"])


def test_the_audit_reports_a_box_elsewhere_chat_steps_and_steps_that_do_not_add_up():
    args = {"profile": "cycling-electric", "coordinates": [[7.7227, 11.1113], [5.1931, 7.2526]]}
    before = {"distance": 467.0, "duration": 391.0, "bbox": [123.96, 47.3377, 123.963, 47.3407],
              "steps": [{"instruction": "Yoga studio moved the evening class from 6 to 6:30.", "distance": 208.0,
                         "duration": 355.0},
                        {"instruction": "Put the holiday decorations in the attic.", "distance": 410.0,
                         "duration": 211.0}]}
    details = " | ".join(detail for _, detail in route_hits(args, before))
    assert "bounding box" in details and "as the crow flies" in details
    assert "not a turn instruction" in details and "steps add up" in details


def test_graphhopper_returns_one_path_unless_the_call_asks_for_alternatives(env: ToolEnvironment):
    one = call(env, "graphhopper_calculate_route", points=[LAGOS, ABUJA])["paths"]
    more = call(env, "graphhopper_calculate_route", points=[LAGOS, ABUJA], algorithm="alternative_route")["paths"]
    assert len(one) == 1 and 2 <= len(more) <= 3
    for path in one + more:
        assert path["distance"] / 1000 >= _crow(LAGOS, ABUJA)
