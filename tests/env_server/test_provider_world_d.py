"""Whole providers a person who knows the API believes: carbon estimates, named days,
exchange pairs."""

from __future__ import annotations

import datetime as dt

import pytest

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.simulators.records import default_facts
from state import Database
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

_ELECTRICITY = "electricity-supply_grid-source_supplier_mix"


def _factor(activity_id: str) -> dict:
    return default_facts().vocab.index("emission_activity")[activity_id]


def test_an_electricity_estimate_is_the_grid_factor_per_kwh_times_the_energy(env: ToolEnvironment):
    out = call(env, "climatiq_estimate_emissions",
               emission_factor={"activity_id": _ELECTRICITY, "data_version": "^21"},
               parameters={"energy": 500, "energy_unit": "kWh"})
    assert _factor(_ELECTRICITY)["unit"] == "kWh"
    assert out["co2e_unit"] == "kg"
    assert out["co2e"] == pytest.approx(500 * _factor(_ELECTRICITY)["factor"])
    assert out["emission_factor"]["activity_id"] == _ELECTRICITY
    assert out["emission_factor"]["category"] == "Electricity"
    assert out["constituent_gases"]["co2e_total"] == out["co2e"]


def test_an_estimate_in_megawatt_hours_converts_to_the_factors_kwh(env: ToolEnvironment):
    out = call(env, "climatiq_estimate_emissions",
               emission_factor={"activity_id": _ELECTRICITY, "data_version": "^21"},
               parameters={"energy": 2, "energy_unit": "MWh"})
    assert out["co2e"] == pytest.approx(2000 * _factor(_ELECTRICITY)["factor"])


def test_a_distance_picks_a_travel_factor_per_km(env: ToolEnvironment):
    out = call(env, "climatiq_estimate_emissions",
               emission_factor={"activity_id": "not-a-known-factor", "data_version": "^21"},
               parameters={"distance": 120, "distance_unit": "km"})
    row = _factor(out["emission_factor"]["activity_id"])
    assert row["unit_type"] == "Distance"
    assert out["co2e"] == pytest.approx(row["factor"] * (120 if row["unit"] == "km" else 120 / 1.609344), rel=1e-3)


def test_every_emission_factor_is_per_a_unit_that_fits_its_activity():
    units = {"Energy": {"kWh"}, "Distance": {"km", "mi"}, "PassengerOverDistance": {"passenger-km"},
             "WeightOverDistance": {"t-km"}, "Weight": {"kg"}, "Money": {"usd"}}
    for row in default_facts().vocab.get("emission_activity").records:
        assert row["unit"] in units[row["unit_type"]], row["activity_id"]
        if row["category"] == "Electricity":
            assert row["unit_type"] == "Energy" and 0 < row["factor"] < 1.2


def test_a_flight_estimate_follows_the_great_circle_between_its_airports(env: ToolEnvironment):
    out = call(env, "climatiq_estimate_flight",
               legs=[{"from": "LHR", "to": "JFK", "passengers": 2, "class": "economy"},
                     {"from": "JFK", "to": "LAX", "passengers": 2, "class": "business"}])
    first, second = out["legs"]
    assert 5400 < first["distance_km"] < 5700 and 3900 < second["distance_km"] < 4050
    assert second["co2e"] / second["distance_km"] > first["co2e"] / first["distance_km"]  # business costs more
    assert out["co2e"] == pytest.approx(first["co2e"] + second["co2e"], abs=0.01)


def test_carbon_masses_of_one_estimate_say_the_same_amount(env: ToolEnvironment):
    out = call(env, "carbon_interface_create_electricity_estimate", electricity_value=200, electricity_unit="kwh",
               country="US")
    assert out["type"] == "electricity"
    assert out["carbon_g"] == pytest.approx(out["carbon_kg"] * 1000, abs=1)
    assert out["carbon_lb"] == pytest.approx(out["carbon_kg"] * 2.20462, abs=0.01)
    assert out["carbon_mt"] == pytest.approx(out["carbon_kg"] / 1000, abs=0.0001)
    assert 40 < out["carbon_kg"] < 120  # 200 kWh of the US grid


def test_observances_of_a_date_are_the_named_days_that_fall_on_it(env: ToolEnvironment):
    names = [e["name"] for e in call(env, "checkiday_list_events_for_date", date="2026-02-09")["events"]]
    assert "National Pizza Day" in names
    assert "Black History Month" in names
    assert not {"Vendor meeting", "Massage", "Team lunch"} & set(names)


def test_observances_of_a_public_holiday_include_it(env: ToolEnvironment):
    names = [e["name"] for e in call(env, "checkiday_list_events_for_date", date="2026-07-04")["events"]]
    assert "Independence Day" in names


def test_an_observance_search_finds_the_days_it_names_or_none(env: ToolEnvironment):
    found = call(env, "checkiday_search_events", query="pizza")["events"]
    assert sorted(e["name"] for e in found) == ["National Pizza Day", "National Pizza Month"]
    assert call(env, "checkiday_search_events", query="quantum")["events"] == []


def test_a_years_holidays_are_that_years_all_of_them_in_order(env: ToolEnvironment):
    rows = call(env, "nager_date_get_public_holidays", year=2014, countryCode="DE")["holidays"]
    dates = [r["date"] for r in rows]
    assert dates == sorted(dates) and all(d.startswith("2014-") for d in dates)
    assert ("2014-10-03", "German Unity Day") in {(r["date"], r["name"]) for r in rows}
    assert len(rows) == 9


def test_the_next_holidays_start_at_the_session_date(builtin_catalog: Catalog):
    spring = ToolEnvironment(builtin_catalog, Database(), ServerSettings(today=dt.date(2026, 4, 20)))
    rows = call(spring, "nager_date_get_next_public_holidays", countryCode="JP")["holidays"]
    dates = [r["date"] for r in rows]
    assert dates and dates == sorted(dates)
    assert dates[0] == "2026-04-29"  # Showa Day; January's New Year is past
    assert all(d >= "2026-04-20" for d in dates)


@pytest.mark.parametrize(("symbol", "lo", "hi"), [("btcusd", 20_000, 300_000), ("ethusd", 800, 15_000)])
def test_an_exchange_pair_is_priced_from_the_market(env: ToolEnvironment, symbol: str, lo: float, hi: float):
    out = call(env, "gemini_get_pubticker", symbol=symbol)
    assert lo < out["last"] < hi
    assert out["bid"] <= out["last"] <= out["ask"]


def test_a_tube_journey_inside_zone_one_takes_minutes_not_hours(env: ToolEnvironment):
    journeys = call(env, "tfl_plan_journey", **{"from": "Oxford Circus", "to": "Bank"})["journeys"]
    assert journeys
    for j in journeys:
        assert 5 <= j["duration"] <= 35, j
        assert sum(leg["duration"] for leg in j["legs"]) == j["duration"]
        start, end = (dt.datetime.fromisoformat(j[k].replace("Z", "+00:00")) for k in ("startDateTime", "arrivalDateTime"))
        assert (end - start).total_seconds() / 60 == j["duration"]
        assert j["legs"][0]["departurePoint"] == "Oxford Circus" and j["legs"][-1]["arrivalPoint"] == "Bank"
    assert journeys[0]["legs"][0]["mode"] == "tube" and journeys[0]["fare_pence"] == 290


def test_a_journey_with_no_shared_line_changes_where_the_lines_meet(env: ToolEnvironment):
    legs = call(env, "tfl_plan_journey", **{"from": "Brixton", "to": "Camden Town"})["journeys"][0]["legs"]
    assert [leg["mode"] for leg in legs] == ["tube", "tube"]
    assert legs[0]["arrivalPoint"] == legs[1]["departurePoint"]
    assert legs[0]["instruction"].split(" line")[0] != legs[1]["instruction"].split(" line")[0]


def test_a_journey_leaves_when_the_call_asks(env: ToolEnvironment):
    first = call(env, "tfl_plan_journey", **{"from": "Paddington", "to": "Canary Wharf", "date": "2026-02-03",
                                            "time": "0830"})["journeys"][0]
    assert first["startDateTime"].startswith("2026-02-03T08:3")


def test_a_train_search_between_real_cities_finds_trains_that_take_the_distance(wtb_catalog: Catalog):
    wtb = ToolEnvironment(wtb_catalog, Database())
    rows = call(wtb, "getTrainTickets", starting_station="Amsterdam", destination_station="Utrecht",
                date="2026-01-20")["results"]
    assert rows, "Amsterdam to Utrecht has trains"
    for row in rows:
        leave, arrive = (dt.datetime.fromisoformat(row[k].replace("Z", "+00:00")) for k in ("departure_time", "arrival_time"))
        assert 15 <= (arrive - leave).total_seconds() / 60 <= 60  # about 35 km
        assert row["operator"] == "NS" and row["price"] < 30
        assert "Central Station" not in (row.get("origin") or "")


def test_openuv_sun_times_are_those_of_the_day_asked(env: ToolEnvironment):
    sun = call(env, "openuv_get_uv_index", lat=51.5, lng=-0.12, dt="2026-06-21T12:00:00Z")["sun_info"]
    assert sun["sunrise"].startswith("2026-06-21T03:4") and sun["sunset"].startswith("2026-06-21T20:2")


def test_a_product_search_lists_the_product_asked_for(env: ToolEnvironment):
    rows = call(env, "bestbuy_search_products", search="Pixel 9")["products"]
    assert rows and all("Pixel 9" in r["name"] for r in rows)
    assert not any(":" in r["name"] or "Cat" in r["name"] for r in rows)


def test_a_product_search_for_a_known_kind_of_product_lists_those(env: ToolEnvironment):
    rows = call(env, "ebaybrowse_search_items", q="kettle")["itemSummaries"]
    assert rows and all("kettle" in r["title"].lower() and ":" not in r["title"] for r in rows)


def test_a_show_search_by_segment_lists_shows_of_that_segment(env: ToolEnvironment):
    comedy = {r["title"] for r in default_facts().vocab.get("show_by_genre").records if r["genre"] == "comedy"}
    rows = call(env, "ticketmaster_search_shows", city="Chicago", genre="comedy")["shows"]
    assert rows and all(r["title"] in comedy and r["genre"] == "comedy" for r in rows)


def test_the_audit_flags_masses_that_disagree_and_journeys_that_do_not_add_up():
    from env_server.specs.world_checks import journey_hits, mass_hits

    assert mass_hits("$", {"carbon_g": 127, "carbon_kg": 17.2, "carbon_lb": 992.43})
    assert not mass_hits("$", {"carbon_g": 45200, "carbon_kg": 45.2, "carbon_lb": 99.65, "carbon_mt": 0.0452})
    legs = [{"duration": 97}, {"duration": 56}]
    assert journey_hits("$", {"duration": 69, "legs": legs, "startDateTime": "2026-01-10T06:30:00Z",
                              "arrivalDateTime": "2026-03-16T13:11:00Z"})
    assert not journey_hits("$", {"duration": 153, "legs": legs, "startDateTime": "2026-01-10T06:30:00Z",
                                  "arrivalDateTime": "2026-01-10T09:03:00Z"})


def test_the_audit_flags_holidays_of_another_year_and_coin_pairs_priced_like_stocks(catalog: Catalog):
    from env_server.specs.world_checks import holiday_hits, pair_hits

    spec = catalog.tools["nager_date_get_public_holidays"]
    wrong = {"holidays": [{"date": "2026-01-01", "name": "New Year's Day"}]}
    assert holiday_hits(spec, {"year": 2014, "countryCode": "TR"}, wrong, dt.date(2026, 1, 15))
    upcoming = catalog.tools["nager_date_get_next_public_holidays"]
    assert holiday_hits(upcoming, {"countryCode": "JP"}, wrong, dt.date(2026, 4, 20))
    assert pair_hits({"symbol": "btcusd"}, {"last": 170.47})
    assert not pair_hits({"symbol": "btcusd"}, {"last": 86649.39})


def test_an_faa_airport_record_names_its_state_by_code_and_its_nearest_district_office():
    from env_server.catalog import load_catalog
    from tests.conftest import TOOLALPACA, require_shared

    alpaca = load_catalog([require_shared(TOOLALPACA / "eval_real.json")])
    faa = ToolEnvironment(alpaca, Database())
    seattle = call(faa, "get_airports", apt="KSEA")
    assert (seattle["state"], seattle["state_full"], seattle["district_office"]) == ("WA", "Washington", "SEA")
    denver = call(faa, "get_airports", apt="KDEN")
    assert (denver["state"], denver["district_office"]) == ("CO", "DEN")


def test_a_city_level_geocode_hit_has_a_city_level_address(env: ToolEnvironment):
    found = call(env, "mapbox_forward_geocode", q="Austin", limit=2)["features"]
    assert found[0]["full_address"] == "Austin, Texas, United States"
    assert found[0]["place_formatted"] == "Texas, United States" and found[0]["feature_type"] == "place"


def test_the_models_of_a_make_are_that_makes(env: ToolEnvironment):
    from env_server.simulators.records import default_facts as facts

    hondas = set(facts().reference.car_models["Honda"])
    rows = call(env, "nhtsa_get_models_for_make_year", make="honda")["Results"]
    assert rows and all(r["Make_Name"] == "Honda" and r["Model_Name"] in hondas for r in rows)
