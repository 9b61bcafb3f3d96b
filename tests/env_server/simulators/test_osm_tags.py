"""An OSM geocoder's result is a real class/type pair that fits what its display name names."""

from __future__ import annotations

from env_server import ToolEnvironment
from env_server.simulators.osm_tags import osm_tags
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)


def test_a_house_a_street_and_a_town_get_their_own_osm_pairs():
    assert osm_tags("108 Tyrrell Street, Dublin, Ireland") == ("place", "house", "node")
    assert osm_tags("Tyrrell Street, Dublin, Ireland") == ("highway", "residential", "way")
    assert osm_tags("Pointe-Noire, Republic of the Congo") == ("place", "city", "node")


def test_nominatim_results_are_tagged_by_their_display_name(env: ToolEnvironment):
    rows = call(env, "nominatim_search", q="Dublin")["results"]
    assert rows
    for row in rows:
        assert (row.get("type"), row["osm_type"]) == osm_tags(row["display_name"])[1:], row
