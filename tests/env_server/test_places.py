"""Places, countries and time zones: facts true, fields agreeing, answers fitting the question."""

from __future__ import annotations

import datetime as dt
from typing import Any

import anyio
import pycountry
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp import Client

from env_server import ToolEnvironment
from env_server.simulators.addresses import LOCALES
from env_server.simulators.records import default_facts
from env_server.simulators.reference import haversine_km
from env_server.specs.geo_checks import geo_hits
from state import Database
from tests.servers import running_server

TODAY = dt.date(2026, 1, 15)


@pytest.fixture(scope="module")
def env(builtin_catalog) -> ToolEnvironment:
    return ToolEnvironment(builtin_catalog, Database())


def call(env: ToolEnvironment, tool_name: str, **args: Any) -> Any:
    outcome = env.call_tool("free", tool_name, args)
    assert not outcome.is_error, outcome.message
    return outcome.result


def test_every_country_fact_sheet_agrees_with_iso_3166():
    index = default_facts().reference.countries
    assert len(index.facts) > 230
    for fact in index.facts:
        iso = pycountry.countries.get(alpha_2=fact.cca2)
        if iso is not None:
            assert (fact.cca3, fact.ccn3) == (iso.alpha_3, iso.numeric), fact.name
        assert fact.capital.country_code == fact.cca2
        assert fact.flag_png == f"https://flagcdn.com/w320/{fact.cca2.lower()}.png"
    swiss = index.find("Swiss Confederation")
    assert swiss is not None and swiss.cca2 == "CH" and swiss.capital.name == "Bern"
    assert (swiss.region, swiss.subregion, swiss.calling_code) == ("Europe", "Western Europe", "+41")


def test_a_country_read_by_code_holds_that_countrys_facts(env: ToolEnvironment):
    for code in ("CH", "CHE", "756"):
        got = call(env, "rest_countries_get_by_code", code=code)
        assert got["name"]["common"] == "Switzerland" and got["name"]["official"] == "Swiss Confederation"
        assert (got["cca2"], got["cca3"], got["capital"]) == ("CH", "CHE", ["Bern"])
        assert (got["region"], got["subregion"]) == ("Europe", "Western Europe")
        assert [c["currency_code"] for c in got["currencies"]] == ["CHF"]
        assert set(got["languages"]) == {"de", "fr", "it", "rm"} and got["timezones"] == ["Europe/Zurich"]
        assert "DEU" in got["borders"] and haversine_km(*got["latlng"], 46.95, 7.45) < 5
        assert geo_hits(got, {"code": code}, TODAY) == []


def test_a_country_read_by_an_unknown_code_still_answers_a_real_country(env: ToolEnvironment):
    got = call(env, "rest_countries_get_by_code", code="ERDX48EK")
    assert len(got["cca3"]) == 3 and geo_hits(got, {}, TODAY) == []


@pytest.mark.parametrize(("tool", "args", "holds"), [
    ("rest_countries_list_by_currency", {"currency": "EUR"}, lambda f: f.currency_code == "EUR"),
    ("rest_countries_list_by_region", {"region": "Oceania"}, lambda f: f.region == "Oceania"),
    ("rest_countries_list_by_language", {"lang": "ko"}, lambda f: "ko" in f.languages),
    ("rest_countries_search_by_name", {"name": "united"}, lambda f: "united" in f.name.lower()
     or "united" in f.official_name.lower()),
], ids=["currency", "region", "language", "name"])
def test_a_country_list_answers_the_filter_with_distinct_countries(env: ToolEnvironment, tool, args, holds):
    rows = call(env, tool, **args)["countries"]
    index = default_facts().reference.countries
    assert rows and len({r["cca2"] for r in rows}) == len(rows)
    for row in rows:
        fact = index.get(row["cca2"])
        assert fact is not None and holds(fact), row
        assert row["flag_png"].startswith("https://flagcdn.com/") and row["population"] == fact.population
    assert geo_hits(rows, args, TODAY) == []


def test_a_time_zone_by_location_follows_the_places_iana_zone(env: ToolEnvironment):
    seoul = call(env, "bigdatacloud_get_timezone_by_location", latitude=37.5665, longitude=126.978)
    assert seoul["ianaTimeId"] == "Asia/Seoul" and seoul["utcOffset"] == "+09:00"
    assert seoul["utcOffsetSeconds"] == 32400 and seoul.get("isDaylightSavingTime") in (None, False)
    assert seoul["localTime"].endswith("+09:00") and seoul["displayName"] == "Korean Standard Time"
    india = call(env, "geonames_get_timezone", lat=22.8, lng=86.18)
    assert (india["timezoneId"], india["gmtOffset"], india["countryCode"]) == ("Asia/Kolkata", 5.5, "IN")
    google = call(env, "google_maps_get_timezone", location="41.0082,28.9784", timestamp=1768478400)
    assert (google["timeZoneId"], google["rawOffset"], google["dstOffset"]) == ("Europe/Istanbul", 10800, 0)


def test_a_reverse_geocode_answers_an_address_at_the_point_in_its_country(env: ToolEnvironment):
    got = call(env, "nominatim_reverse", lat=19.4326, lon=-99.1332)
    assert got["address"]["country_code"] == "MX" and got["display_name"].endswith(", Mexico")
    assert got["address"]["road"] in got["display_name"] and got["address"]["postcode"] in got["display_name"]
    pool = default_facts().reference.addresses.pool("MX")
    assert pool is not None and got["address"]["road"] in pool.names  # a Mexican street, not a US one
    assert geo_hits(got, {"lat": 19.4326, "lon": -99.1332}, TODAY, reverse=True) == []


def test_a_place_search_boxes_each_point_and_tags_it_as_osm_does(env: ToolEnvironment):
    rows = call(env, "nominatim_search", q="Lisbon")["results"]
    pairs = {(r["type"], r["class"]) for r in default_facts().vocab.get("osm_feature").records}
    for row in rows:
        south, north, west, east = row["boundingbox"]
        assert south <= row["lat"] <= north and west <= row["lon"] <= east
        assert 0 <= row["importance"] <= 1
        if "class" in row:
            assert (row["type"], row["class"]) in pairs
    located = call(env, "locationiq_search", q="Lisbon")["results"]
    assert all((r["type"], r["class"]) in pairs for r in located)


@pytest.mark.parametrize("countries", [("MX", "DE", "US"), pytest.param(tuple(sorted(LOCALES)), marks=pytest.mark.slow)],
                         ids=["three", "all"])
def test_street_locales_make_streets_and_postcodes(countries: tuple[str, ...]):
    book = default_facts().reference.addresses
    for country in countries:
        pool = book.pool(country)
        assert pool is not None and all(pool.names) and all(pool.postcodes), country


def test_the_geo_check_reports_what_a_geographer_would_not_believe():
    assert geo_hits({"cca2": "CH", "cca3": "CHN"}, {}, TODAY) == [("$", "cca3='CHN' but cca2='CH' is CHE")]
    assert geo_hits({"cca2": "CH", "cca3": "CH"}, {}, TODAY)[0][1] == "cca3='CH' is not an alpha-3 code"
    assert "lies in Europe" in geo_hits({"cca2": "CH", "region": "Oceania"}, {}, TODAY)[0][1]
    assert "capital of Switzerland is Bern" in geo_hits({"cca2": "CH", "region": "Europe", "capital": ["Zug"]},
                                                       {}, TODAY)[0][1]
    assert "not the country" in geo_hits({"countryCode": "KR", "countryName": "Japan"}, {}, TODAY)[0][1]
    assert "observes" in geo_hits({"timezone": "Asia/Seoul", "gmtOffset": 1.52}, {}, TODAY)[0][1]
    assert "observes" in geo_hits({"ianaTimeId": "Asia/Seoul", "utcOffsetSeconds": 5480}, {}, TODAY)[0][1]
    assert geo_hits({"timezone": "Europe/Berlin", "gmtOffset": 2.0}, {}, TODAY) == []  # summer time
    box = {"lat": 10.0, "lon": 20.0, "boundingbox": [798.16, 799.0, 19.0, 21.0]}
    assert "outside its boundingbox" in geo_hits(box, {}, TODAY)[0][1]
    far = {"lat": 48.85, "lon": 2.35}
    assert "km from the one asked about" in geo_hits(far, {"lat": 40.4, "lon": -3.7}, TODAY, reverse=True)[0][1]
    assert geo_hits(far, {"latlng": "48.86,2.34"}, TODAY, reverse=True) == []


@given(seed=st.integers(0, 2**31), region=st.sampled_from(["Europe", "Asia", "Africa", "Americas", "Oceania"]))
@settings(max_examples=25, deadline=None)
def test_any_session_lists_a_regions_countries_with_coherent_facts(env: ToolEnvironment, seed: int, region: str):
    sid = f"geo_{seed}_{region}"
    env.create_session(tools=["rest_countries_list_by_region"], seed=seed, session_id=sid)
    try:
        outcome = env.call_tool(sid, "rest_countries_list_by_region", {"region": region})
    finally:
        env.release_session(sid)
    rows = outcome.result["countries"]  # type: ignore[index]
    assert rows and all(r["region"] == region for r in rows)
    assert geo_hits(rows, {"region": region}, TODAY) == []


def test_a_country_read_over_mcp_and_http_is_the_fact_sheet(builtin_catalog):
    env = ToolEnvironment(builtin_catalog, Database())

    async def read(url: str) -> dict[str, Any]:
        async with Client(url) as client:
            result = await client.call_tool("rest_countries_get_by_code", {"code": "jp"})
            assert not result.is_error
            return dict(result.structured_content or {})

    with running_server(env) as base:
        got = anyio.run(read, f"{base}/mcp")
    assert (got["cca3"], got["capital"], got["subregion"]) == ("JPN", ["Tokyo"], "Eastern Asia")
