"""An earthquake reads as the USGS catalog reports one: a place named from the real town nearest
its epicentre, a title of its magnitude and place, its own event page, a time before now, and a
tsunami flag only for a great quake out at sea."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from env_server.catalog import Catalog
from env_server.simulators.base import DEFAULT_TODAY
from env_server.simulators.quake_places import bearing, compass, destination
from env_server.simulators.records import default_facts
from env_server.simulators.reference import haversine_km
from tests.env_server.free_play import catalog, ok, session  # noqa: F401  (a fixture)

_PLACE = re.compile(r"^(?:(\d+) km ([NSEW]{1,3}) of )?(.+), (.+)$")
_ID = re.compile(r"^(ci|nc|nn|ak|hv|uw|ok|pr|uu|tx|mb|us)([0-9a-z]+)$")
_END_OF_TODAY_MS = int(dt.datetime.combine(DEFAULT_TODAY, dt.time(23, 59), dt.UTC).timestamp() * 1000)


def _features(catalog: Catalog, tool: str, **args: object) -> list[dict]:
    return ok(session(catalog, tool), tool, **args)["features"]


def _town_matches(feature: dict) -> None:
    """The place's town lies the stated distance and direction from the epicentre."""
    match = _PLACE.match(feature["place"])
    assert match, feature["place"]
    km, direction, town_name = match.group(1), match.group(2), match.group(3)
    ref = default_facts().reference
    towns = [p for p in ref.places if p.name == town_name]
    assert towns, town_name
    lat, lon = feature["latitude"], feature["longitude"]
    town = min(towns, key=lambda p: haversine_km(lat, lon, p.latitude, p.longitude))
    if km is not None:
        assert abs(haversine_km(lat, lon, town.latitude, town.longitude) - int(km)) <= 1.5
        assert compass(bearing(town.latitude, town.longitude, lat, lon)) == direction


@pytest.mark.parametrize("seed_args", [{}, {"minmagnitude": 5.0}, {"latitude": 35.7, "longitude": -117.5, "maxradiuskm": 80}])
def test_a_searched_quake_is_named_from_the_town_near_its_epicentre(catalog: Catalog, seed_args):
    features = _features(catalog, "usgsearthquake_search_events", limit=6, **seed_args)
    assert features
    for feature in features:
        _town_matches(feature)
        assert feature["title"] == f"M {feature['mag']:.1f} - {feature['place']}"
        assert _ID.match(feature["id"]), feature["id"]
        assert feature["url"] == f"https://earthquake.usgs.gov/earthquakes/eventpage/{feature['id']}"
        assert feature["tsunami"] in (0, 1)
        assert isinstance(feature["time"], int) and 0 < feature["time"] <= _END_OF_TODAY_MS


def test_a_search_keeps_the_magnitudes_window_and_circle_asked(catalog: Catalog):
    features = _features(catalog, "usgsearthquake_search_events", limit=8, minmagnitude=4.0, maxmagnitude=6.0,
                         latitude=35.7, longitude=-117.5, maxradiuskm=100,
                         starttime="2025-12-01T00:00:00Z", endtime="2025-12-20T00:00:00Z")
    start = int(dt.datetime(2025, 12, 1, tzinfo=dt.UTC).timestamp() * 1000)
    end = int(dt.datetime(2025, 12, 20, tzinfo=dt.UTC).timestamp() * 1000)
    for feature in features:
        assert 4.0 <= feature["mag"] <= 6.0
        assert start <= feature["time"] <= end
        assert haversine_km(35.7, -117.5, feature["latitude"], feature["longitude"]) <= 100
    times = [f["time"] for f in features]
    assert times == sorted(times, reverse=True)  # newest first, as orderby=time


def test_a_summary_feed_is_titled_counted_and_above_its_threshold(catalog: Catalog):
    out = ok(session(catalog, "usgsearthquake_get_summary_feed"), "usgsearthquake_get_summary_feed",
             magnitude="4.5", period="day")
    assert out["title"] == "USGS Magnitude 4.5+ Earthquakes, Past Day"
    assert out["count"] == len(out["features"])
    day_ago = _END_OF_TODAY_MS - 2 * 86_400_000
    assert all(f["mag"] >= 4.5 and f["time"] >= day_ago for f in out["features"])


def test_only_a_great_quake_raises_the_tsunami_flag(catalog: Catalog):
    small = _features(catalog, "usgsearthquake_search_events", limit=20, maxmagnitude=6.0)
    assert small and all(f["tsunami"] == 0 for f in small)


def test_an_event_read_by_id_is_reported_by_that_network(catalog: Catalog):
    event = ok(session(catalog, "usgsearthquake_get_event"), "usgsearthquake_get_event", eventid="ci40123456")
    assert event["id"] == "ci40123456"
    assert event["place"].endswith(", CA")
    assert event["mag"] < 5.5 and event["mag_type"] in ("ml", "md")
    assert event["detail"].endswith("eventid=ci40123456&format=geojson")


def test_compass_points_and_destinations_agree():
    lat, lon = destination(35.6225, -117.6709, 202.5, 12.0)
    assert round(haversine_km(35.6225, -117.6709, lat, lon)) == 12
    assert compass(bearing(35.6225, -117.6709, lat, lon)) == "SSW"
