"""Issue 14's headline reads: a create's unsent fields, a nearby search's rows, a list of
every breed, a decoded VIN, a city's current weather - as a person who knows the API reads them."""

from __future__ import annotations

import datetime as dt
from typing import Any

import anyio
import pytest
from mcp import Client

from env_server import ToolEnvironment
from env_server.simulators.feels_like import feels_like_c
from env_server.simulators.records import default_facts
from env_server.simulators.reference import haversine_km
from env_server.simulators.sky import RARE, band, plausible
from env_server.specs.headline_checks import headline_hits
from tests.env_server.free_play import call, env  # noqa: F401  (fixtures)
from tests.servers import running_server

TODAY = dt.date(2026, 1, 15)


# -- 1. a create shows what was sent, and the API's defaults for the rest ---------------


def test_an_outlook_event_created_with_a_subject_and_times_has_no_invented_body_or_place(env: ToolEnvironment):
    async def create() -> dict[str, Any]:
        async with Client(url) as client:
            result = await client.call_tool("outlook_calendar_create_event", {
                "subject": "Team sync", "start": "2026-03-20T09:00:00", "end": "2026-03-20T10:00:00"})
            assert not result.is_error
            return dict(result.structured_content or {})

    with running_server(env) as base:
        url = f"{base}/mcp"
        got = anyio.run(create)
    assert (got["subject"], got["bodyPreview"], got["location_displayName"]) == ("Team sync", "", "")
    assert (got["timeZone"], got["isReminderOn"], got["reminderMinutesBeforeStart"]) == ("UTC", True, 15)
    assert got["webLink"].endswith("/team-sync")


@pytest.mark.parametrize(("tool", "args", "blank"), [
    ("google_calendar_create_event", {"summary": "Dentist", "start": "2026-02-03T08:00:00Z",
                                      "end": "2026-02-03T09:00:00Z"}, ("description", "location")),
    ("github_create_issue", {"owner": "octo", "repo": "tools", "title": "Crash on start"}, ("body",)),
    ("asana_create_task", {"name": "Book venue"}, ("notes",)),
    ("google_keep_create_note", {"title": "Groceries"}, ("text",)),
])
def test_other_creates_leave_unsent_text_fields_empty(env: ToolEnvironment, tool: str, args: dict[str, Any],
                                                      blank: tuple[str, ...]):
    got = call(env, tool, **args)
    assert all(got[field] in ("", []) for field in blank), got
    assert list(headline_hits(env.catalog.get(tool), args, got)) == []


def test_a_sent_body_is_shown_and_a_reminder_without_a_default_is_a_calendar_choice(env: ToolEnvironment):
    got = call(env, "outlook_calendar_create_event", subject="Review", start="2026-03-20T09:00:00",
               end="2026-03-20T10:00:00", body={"content": "Quarterly numbers"}, location={"displayName": "Room 4"},
               reminderMinutesBeforeStart=30)
    assert (got["location_displayName"], got["bodyPreview"]) == ("Room 4", "Quarterly numbers")
    assert got["reminderMinutesBeforeStart"] == 30
    from env_server.simulators.naming import resolve_kind

    assert resolve_kind("reminderMinutesBeforeStart", "event", "", {}) == "reminder_minutes"


# -- 2. a nearby search's rows lie where they are ---------------------------------------


def test_nearby_places_have_their_own_coordinates_and_distances_from_the_centre(env: ToolEnvironment):
    args = {"lat": 48.8566, "lng": 2.3522, "radius": 10}
    rows = call(env, "geonames_find_nearby_place_name", **args)["geonames"]
    assert len(rows) >= 2
    points = {(r["lat"], r["lng"]) for r in rows}
    assert len(points) == len(rows) and (48.8566, 2.3522) not in points
    for row in rows:
        assert abs(haversine_km(48.8566, 2.3522, row["lat"], row["lng"]) - row["distance"]) <= 0.11
        assert row["distance"] <= 10
    assert list(headline_hits(env.catalog.get("geonames_find_nearby_place_name"), args, {"geonames": rows})) == []


def test_the_audit_flags_rows_sitting_at_the_centre():
    rows = {"geonames": [{"name": "Paris 01", "lat": 48.8566, "lng": 2.3522, "distance": 0.8}]}
    from env_server.specs.headline_checks import _nearby_hits

    assert [p for p, _ in _nearby_hits({"lat": 48.8566, "lng": 2.3522}, rows)] == ["$.geonames[0]"]


# -- 3. a list of every breed lists every breed ------------------------------------------


def test_listing_all_dog_breeds_gives_the_whole_list_in_order(env: ToolEnvironment):
    breeds = call(env, "dog_ceo_list_all_breeds")["breeds"]
    records = default_facts().vocab.get("dog_breed").records
    assert [b["breed"] for b in breeds] == [r["breed"] for r in records] and len(breeds) > 100
    hound = next(b for b in breeds if b["breed"] == "hound")
    assert {"afghan", "basset"} <= set(hound["sub_breeds"])
    assert call(env, "dog_ceo_list_all_breeds") == {"status": "success", "breeds": breeds}  # deterministic


def test_a_filtered_search_of_a_vocabulary_is_not_the_whole_list(env: ToolEnvironment):
    got = call(env, "the_dog_api_search_breeds", q="terrier")
    rows = next(v for v in got.values() if isinstance(v, list)) if isinstance(got, dict) else got
    assert len(rows) < 50


# -- 4. a decoded VIN names a model its make sold that year -------------------------------


@pytest.mark.parametrize(("vin", "make", "model", "year"), [
    ("1HGCM82633A004352", "Honda", "Accord", 2003),
    ("2HGFA16588H000001", "Honda", "Civic", 2008),
    ("5YJ3E1EA7KF000001", "Tesla", "Model 3", 2019),
    ("1FTFW1ET5DFC10312", "Ford", "F-150", 2013),
])
def test_a_vin_decodes_to_its_model_line_with_an_engine_of_that_line(env: ToolEnvironment, vin: str, make: str,
                                                                     model: str, year: int):
    got = call(env, "nhtsa_decode_vin", vin=vin)
    assert (got["make"], got["model"], got["model_year"]) == (make, model, year)
    line = next(r for r in default_facts().vocab.get("car_lineup").records
                if r["model"] == model and r["first_year"] <= year <= r["last_year"])
    assert [got["engine_cylinders"], got["displacement_l"]] in line["engines"]
    assert got["body_class"] == line["body_class"] and got["fuel_type_primary"] == line["fuel_type_primary"]


def test_the_audit_flags_a_model_the_make_did_not_sell():
    bad = {"make": "Honda", "model": "Civic Tourer", "model_year": 2003}
    from env_server.specs.headline_checks import _vin_hits

    assert list(_vin_hits({"vin": "1HGCM82633A004352"}, bad)) == [("$.model", "Honda sold no 'Civic Tourer' in 2003")]


# -- 5. the weather in Berlin in January ---------------------------------------------------


def test_berlin_weather_names_its_state_feels_the_wind_and_shows_a_winter_sky(env: ToolEnvironment):
    got = call(env, "weatherapi_get_realtime_weather", q="Berlin")
    assert (got["location"]["region"], got["location"]["country"]) == ("Berlin", "Germany")
    now = got["current"]
    assert now["feelslike_c"] == round(feels_like_c(now["temp_c"], now["wind_kph"], now["humidity"]), 1)
    values = default_facts().vocab.get("weather_condition").values
    assert now["condition"]["text"] in plausible(values, band(now["temp_c"]))


def test_cities_name_their_first_level_region():
    ref = default_facts().reference
    regions = {name: ref.find_place(name).region for name in ("Berlin", "Paris", "Munich", "Vienna", "Sydney")}
    assert regions == {"Berlin": "Berlin", "Paris": "Ile-de-France", "Munich": "Bayern", "Vienna": "Wien",
                       "Sydney": "New South Wales"}


def test_feels_like_is_wind_chill_in_cold_wind_and_heat_index_in_humid_heat():
    assert feels_like_c(-5.3, 27.8, 71) == pytest.approx(-13.1, abs=0.1)
    assert feels_like_c(15.0, 30.0, 50) == 15.0
    assert feels_like_c(32.0, 10.0, 70) == pytest.approx(40.4, abs=0.5)


def test_no_band_draws_a_rare_extreme_and_frost_allows_no_rain():
    values = default_facts().vocab.get("weather_condition").values
    for temp in (-12.0, 0.0, 8.0, 20.0, 33.0):
        kept = plausible(values, band(temp))
        assert kept and not any(word in v.lower() for v in kept for word in RARE)
    frozen = plausible(values, band(-5.0))
    assert "Smoke" not in frozen and not any(v.lower().endswith("rain") for v in frozen)
    from env_server.specs.headline_checks import _sky_hits

    assert [p for p, _ in _sky_hits({"temp_c": -5.3, "condition": {"text": "Smoke"}})] == ["$"]
