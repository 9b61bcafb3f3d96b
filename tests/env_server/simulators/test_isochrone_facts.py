"""An isochrone answer is centred on the call's locations and echoes its ranges."""

from __future__ import annotations

from env_server import ToolEnvironment
from env_server.simulators.reference import haversine_km
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

BERLIN, PARIS = [13.405, 52.52], [2.3522, 48.8566]


def test_isochrones_have_a_feature_per_location_and_range_centred_on_it(env: ToolEnvironment):
    got = call(env, "openrouteservice_get_isochrones", profile="driving-car", locations=[BERLIN, PARIS],
               range=[300, 900])["features"]
    assert [(f["group_index"], f["value"], f["center"]) for f in got] == [
        (0, 300, BERLIN), (0, 900, BERLIN), (1, 300, PARIS), (1, 900, PARIS)]
    for feature in got:
        ring = feature["geometry"]["coordinates"][0]
        lon, lat = feature["center"]
        reach = [haversine_km(lat, lon, p[1], p[0]) for p in ring]
        assert ring[0] == ring[-1] and max(reach) < 25 * feature["value"] / 900  # a car, 15 minutes: < 25 km
    assert got[1]["area"] > got[0]["area"]
