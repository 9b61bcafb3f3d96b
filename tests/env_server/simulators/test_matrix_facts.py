"""A travel matrix follows the call's points: a row per source, a column per destination,
cells that grow with the straight-line distance, and 0 from a point to itself."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from env_server import ToolEnvironment
from env_server.simulators.reference import haversine_km
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

_CITIES = [[13.405, 52.52], [11.582, 48.135], [8.682, 50.11], [2.3522, 48.8566], [-3.7038, 40.4168]]


def test_an_ors_matrix_has_a_row_per_source_and_a_column_per_destination(env: ToolEnvironment):
    got = call(env, "openrouteservice_get_matrix", profile="driving-car", locations=_CITIES[:3],
               sources=[0], destinations=[0, 1, 2])
    assert len(got["durations"]) == 1 and len(got["durations"][0]) == 3
    assert got["durations"][0][0] == 0 and got["distances"][0][0] == 0
    assert [d["location"] for d in got["destinations"]] == _CITIES[:3]
    assert got["sources"][0]["name"] == "Berlin"


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from(range(len(_CITIES))), min_size=2, max_size=5, unique=True))
def test_matrix_cells_grow_with_the_straight_line_distance(env: ToolEnvironment, picks: list[int]):
    points = [_CITIES[i] for i in picks]
    got = call(env, "graphhopper_calculate_matrix", from_points=points[:1], to_points=points)
    crow = [haversine_km(points[0][1], points[0][0], p[1], p[0]) for p in points]
    order = sorted(range(len(points)), key=crow.__getitem__)
    for key in ("times", "distances"):
        row = got[key][0]
        assert len(got[key]) == 1 and len(row) == len(points)
        assert [row[i] for i in order] == sorted(row)
        assert all(row[i] >= crow[i] * 1000 for i in range(len(points))) if key == "distances" else True
