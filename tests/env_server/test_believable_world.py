"""The believable world: reference facts, the session market, invariants, coherent records."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from env_server import ToolEnvironment
from env_server.simulators import invariants
from env_server.simulators.coherent_kinds import BODY_CLASSES
from env_server.simulators.market import SessionMarket, default_table
from env_server.simulators.records import climate_temperature_c, default_facts
from env_server.simulators.reference import haversine_km
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)

TODAY = dt.date(2026, 1, 15)


def test_find_place_knows_real_cities_and_qualified_names():
    ref = default_facts().reference
    berlin = ref.find_place("Berlin")
    assert berlin is not None and berlin.country == "Germany" and berlin.timezone == "Europe/Berlin"
    assert abs(berlin.latitude - 52.52) < 0.1
    lisbon = ref.find_place("Lisbon, Portugal")
    assert lisbon is not None and lisbon.country_code == "PT" and lisbon.currency_code == "EUR"
    assert ref.find_place("Sao Paulo").country_code == "BR"  # type: ignore[union-attr]


def test_airports_resolve_to_their_city():
    ref = default_facts().reference
    cdg = ref.airport("CDG")
    assert cdg is not None and cdg.city == "Paris" and cdg.country_code == "FR"


def test_vin_decodes_to_its_maker():
    decoded = default_facts().reference.decode_vin("1HGCM82633A004352")
    assert decoded is not None and decoded["make"] == "Honda"


@given(seed=st.integers(0, 2**32), days=st.integers(0, 720))
@settings(max_examples=60, deadline=None)
def test_market_levels_stay_near_their_base_and_rates_are_consistent(seed: int, days: int):
    market = SessionMarket(default_table(), seed)
    day = TODAY + dt.timedelta(days=days)
    jpy = market.rate("USD", "JPY", day)
    assert jpy is not None and 110 < jpy < 200
    eur_jpy, usd_eur = market.rate("EUR", "JPY", day), market.rate("USD", "EUR", day)
    assert eur_jpy is not None and usd_eur is not None
    assert abs(eur_jpy * usd_eur - jpy) < 1e-6 * jpy
    opened, high, low, close = market.day_range("AAPL", day)
    assert low <= min(opened, close) <= max(opened, close) <= high
    assert 100 < close < 500


@given(lat=st.floats(-70, 70), day=st.dates(dt.date(2026, 1, 1), dt.date(2026, 12, 31)))
def test_climate_is_within_earthly_bounds(lat: float, day: dt.date):
    ref = default_facts().reference
    place = dataclasses.replace(ref.drawable_places[0], latitude=lat)
    assert -40 < climate_temperature_c(place, day) < 40


@given(
    temp_c=st.floats(-50, 50),
    price=st.floats(1, 1000),
    previous=st.floats(1, 1000),
    high=st.floats(0, 1000),
    low=st.floats(0, 1000),
)
def test_enforced_records_satisfy_every_invariant(temp_c: float, price: float, previous: float, high: float,
                                                  low: float):
    record: dict[str, Any] = {"temp_c": round(temp_c, 1), "temp_f": 0.0, "c": round(price, 2),
                              "pc": round(previous, 2), "d": 0.0, "dp": 0.0, "high": high, "low": low,
                              "start": "2026-03-20T10:00:00Z", "end": "2026-03-20T09:00:00Z"}
    invariants.enforce(record, {})
    assert invariants.violations(record, {}) == []


def test_a_broken_record_is_reported():
    found = invariants.walk_violations({"current": {"temp_c": 8.1, "temp_f": 81.4}}, {})
    assert found and found[0].startswith("$.current: fahrenheit")


def test_weather_for_berlin_is_located_in_berlin(env: ToolEnvironment):
    out = call(env, "weatherapi_get_realtime_weather", q="Berlin")
    loc, cur = out["location"], out["current"]
    assert (loc["name"], loc["country"], loc["tz_id"]) == ("Berlin", "Germany", "Europe/Berlin")
    assert abs(cur["temp_f"] - (cur["temp_c"] * 9 / 5 + 32)) < 0.11
    assert invariants.walk_violations(out, {"q": "Berlin"}) == []


def test_quote_prices_hang_together(env: ToolEnvironment):
    out = call(env, "finnhub_get_quote", symbol="AAPL")
    assert out["l"] <= min(out["o"], out["c"]) and max(out["o"], out["c"]) <= out["h"]
    assert abs(out["d"] - (out["c"] - out["pc"])) < 0.011
    assert 100 < out["c"] < 500


def test_a_conversion_agrees_with_the_market(env: ToolEnvironment):
    out = call(env, "fixer_convert_currency", **{"from": "USD", "to": "JPY", "amount": 100})
    assert 110 < out["rate"] < 200
    assert abs(out["result"] - 100 * out["rate"]) < 0.011


def test_nearby_places_lie_within_the_radius(env: ToolEnvironment):
    out = call(env, "geonames_find_nearby_place_name", lat=48.8566, lng=2.3522, radius=10)
    for place in out["geonames"]:
        assert place["distance"] <= 10
        assert haversine_km(48.8566, 2.3522, place["lat"], place["lng"]) <= 10.5


def test_a_vin_decodes_to_a_real_make_and_model(env: ToolEnvironment):
    out = call(env, "nhtsa_decode_vin", vin="1HGCM82633A004352")
    assert out["make"] == "Honda" and out["model_year"] == 2003 and out["plant_country"] == "United States"
    assert out["model"] in default_facts().reference.car_models["Honda"]
    assert (out["body_class"], out["vehicle_type"]) in BODY_CLASSES
    assert out["engine_cylinders"] >= 3 and out["fuel_type_primary"] != "Electric"


def test_a_created_event_reads_back_as_sent_and_is_stamped_today(env: ToolEnvironment):
    env.create_session(tools=["outlook_calendar_create_event", "outlook_calendar_get_event"], session_id="cal", seed=3)
    made = env.call_tool("cal", "outlook_calendar_create_event", {
        "subject": "Dentist", "start": "2026-03-20T09:00:00", "end": "2026-03-20T10:00:00"}).result
    assert made["start"].startswith("2026-03-20T09:00") and made["end"].startswith("2026-03-20T10:00")
    assert made["createdDateTime"].startswith(TODAY.isoformat())
