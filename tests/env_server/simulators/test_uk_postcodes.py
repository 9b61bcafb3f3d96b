"""A UK postcode lookup answers with a UK place: its area's nation, region, town and coordinates."""

from __future__ import annotations

from env_server.environment import ToolEnvironment
from env_server.simulators.uk_postcodes import area_of, in_uk
from env_server.specs.lookup_checks import postcode_hits
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)


def test_a_postcode_lookup_gives_its_areas_town_nation_and_region(env: ToolEnvironment):
    found = call(env, "postcodes_io_lookup_postcode", postcode="M1 1AE")
    assert (found["country"], found["region"], found["admin_district"]) == ("England", "North West", "Manchester")
    assert (found["outcode"], found["incode"]) == ("M1", "1AE")
    assert abs(found["latitude"] - 53.48) < 0.1 and abs(found["longitude"] + 2.24) < 0.1
    assert call(env, "postcodes_io_lookup_postcode", postcode="EH1 1YZ")["country"] == "Scotland"


def test_a_bulk_lookup_answers_each_postcode_sent_in_its_order(env: ToolEnvironment):
    rows = call(env, "postcodes_io_bulk_lookup", postcodes=["SW1A 2AA", "BT1 5GS", "CF10 1EP"])["result"]
    assert [r["query"] for r in rows] == ["SW1A 2AA", "BT1 5GS", "CF10 1EP"]
    assert [r["country"] for r in rows] == ["England", "Northern Ireland", "Wales"]


def test_a_reverse_lookup_lists_postcodes_near_the_point(env: ToolEnvironment):
    rows = call(env, "postcodes_io_reverse_geocode", longitude=-0.12, latitude=51.5)["result"]
    assert rows and all(in_uk(r["latitude"], r["longitude"]) and area_of(r["postcode"]) for r in rows)
    assert all(abs(r["latitude"] - 51.5) < 0.05 for r in rows)


def test_autocomplete_completes_the_partial_postcode(env: ToolEnvironment):
    assert all(p.startswith("SW1A ") for p in call(env, "postcodes_io_autocomplete_postcode", postcode="SW1A")["result"])


def test_the_audit_reports_a_uk_postcode_in_another_country():
    assert postcode_hits("$", {"postcode": "M1 1AE", "country": "Scotland", "latitude": -29.6, "longitude": 30.4})
