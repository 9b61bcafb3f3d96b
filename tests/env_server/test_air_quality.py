"""Air quality: one air per place and hour, and indices that follow it by the providers' scales."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.simulators.air_quality import draw_air
from env_server.simulators.air_scales import POLLUTANTS, convert, scales
from env_server.simulators.records import default_facts
from env_server.simulators.reference import haversine_km
from env_server.specs.air_checks import air_hits
from state import Database
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

CITIES = ("Delhi", "Beijing", "Mumbai", "Berlin", "Los Angeles", "Lagos", "Reykjavik")
NOW = dt.datetime(2026, 1, 15, 9, 0)  # the free-play session's clock at its first call
US = scales()["us"]


def _us(pollutant: str, value: float, unit: str = "ugm3") -> int:
    index = US.sub_index(pollutant, value, unit)
    assert index is not None
    return index


# -- the scales ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("scale", "pollutant", "value", "unit", "want"), [
    ("us", "pm25", 9.0, "ugm3", 50), ("us", "pm25", 9.1, "ugm3", 51), ("us", "pm25", 35.9, "ugm3", 102),
    ("us", "pm25", 9.06, "ugm3", 50),  # cut to 0.1 µg/m³ before the table is read
    ("us", "pm10", 155, "ugm3", 101), ("us", "o3", 0.071, "ppm", 101), ("us", "co", 4.5, "ppm", 51),
    ("us", "no2", 101, "ppb", 101), ("us", "so2", 75, "ppb", 100), ("us", "pm25", 400, "ugm3", 500),
    ("us", "o3", 0.3, "ppm", 300),  # between the 8-hour and 1-hour ozone tables
    ("cn", "pm25", 75, "ugm3", 100), ("cn", "pm25", 36, "ugm3", 52), ("cn", "co", 5, "mgm3", 50),
    ("eu", "pm25", 22, "ugm3", 48), ("eu", "o3", 100, "ugm3", 40), ("eu", "no2", 40, "ugm3", 20),
])
def test_sub_indices_read_the_published_breakpoint_tables(scale: str, pollutant: str, value: float, unit: str,
                                                           want: int):
    assert scales()[scale].sub_index(pollutant, value, unit) == want


def test_categories_are_each_scales_bands():
    assert [US.category(i) for i in (50, 51, 101, 151, 201, 301)] == [
        "Good", "Moderate", "Unhealthy for Sensitive Groups", "Unhealthy", "Very Unhealthy", "Hazardous"]
    assert scales()["eu"].category(45) == "Moderate" and scales()["cn"].category(120) == "Lightly Polluted"


@given(pollutant=st.sampled_from(POLLUTANTS), a=st.floats(0, 2000), b=st.floats(0, 2000))
@settings(max_examples=200, deadline=None)
def test_more_of_a_pollutant_never_lowers_its_sub_index(pollutant: str, a: float, b: float):
    for scale in scales().values():
        lo, hi = scale.sub_index(pollutant, min(a, b), "ugm3"), scale.sub_index(pollutant, max(a, b), "ugm3")
        assert lo is None and hi is None or lo is not None and hi is not None and 0 <= lo <= hi <= scale.top


@given(pollutant=st.sampled_from(POLLUTANTS), index=st.integers(0, 300))
@settings(max_examples=200, deadline=None)
def test_the_ceiling_of_an_index_is_the_most_air_that_stays_within_it(pollutant: str, index: int):
    for scale in scales().values():
        ceiling = scale.ceiling_ugm3(pollutant, index)
        found = scale.sub_index(pollutant, ceiling, "ugm3")
        assert found is None or found <= index + 1


@given(pollutant=st.sampled_from(("o3", "no2", "so2", "co")), value=st.floats(0.01, 5000))
def test_gases_convert_between_ppb_and_micrograms_and_back(pollutant: str, value: float):
    ppb = convert(value, pollutant, "ugm3", "ppb")
    assert convert(ppb, pollutant, "ppb", "ugm3") == pytest.approx(value)
    assert convert(value, pollutant, "ugm3", "ppm") == pytest.approx(ppb / 1000)
    assert convert(1.0, "o3", "ppb", "ugm3") == pytest.approx(1.963, abs=0.001)  # 48 g/mol at 25 °C


# -- the air ---------------------------------------------------------------------------------------


def test_delhi_in_winter_breathes_worse_air_than_reykjavik_or_delhi_in_summer():
    ref = default_facts().reference
    delhi, reykjavik = ref.find_place("Delhi"), ref.find_place("Reykjavik")
    assert delhi is not None and reykjavik is not None
    january, july = dt.datetime(2026, 1, 15, 9), dt.datetime(2026, 7, 15, 9)
    seeds = range(40)
    winter = sorted(draw_air(s, delhi, january, True)["pm25"] for s in seeds)[20]
    summer = sorted(draw_air(s, delhi, july, True)["pm25"] for s in seeds)[20]
    clean = sorted(draw_air(s, reykjavik, january, True)["pm25"] for s in seeds)[20]
    assert winter > 1.5 * summer and winter > 5 * clean
    assert 40 < winter < 200 and clean < 15


@given(seed=st.integers(0, 2**31), hour=st.integers(0, 23), city=st.sampled_from(CITIES))
@settings(max_examples=60, deadline=None)
def test_the_air_is_positive_and_earthly(seed: int, hour: int, city: str):
    place = default_facts().reference.find_place(city)
    assert place is not None
    air = draw_air(seed, place, dt.datetime(2026, 1, 15, hour), False)
    assert all(0 < air[p] for p in POLLUTANTS)
    assert air["pm10"] > air["pm25"] and air["pm25"] < 600 and air["o3"] < 250 and air["co"] < 20_000


# -- records ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("city", CITIES)
def test_an_aqi_is_the_maximum_of_its_sub_indices_and_the_dominant_pollutant_gives_it(env: ToolEnvironment,
                                                                                        city: str):
    out = call(env, "aqicn_get_city_aqi", city=city)
    subs = {p: v for p, v in out["iaqi"].items() if p in POLLUTANTS}
    assert out["aqi"] == max(subs.values())
    assert subs[out["dominentpol"]] == out["aqi"]


@pytest.mark.parametrize("city", CITIES)
def test_an_aqi_follows_the_concentrations_a_record_shows(env: ToolEnvironment, city: str):
    for station in call(env, "ambee_get_air_quality_by_city", city=city, limit=3)["stations"]:
        subs = [_us("pm25", station["PM25"]), _us("pm10", station["PM10"]), _us("no2", station["NO2"], "ppb"),
                _us("o3", station["OZONE"] / 1000, "ppm"), _us("co", station["CO"], "ppm")]
        assert station["AQI"] == max(subs)
        assert station["category"] == US.category(station["AQI"])


@pytest.mark.parametrize(("lat", "lon"), [(28.61, 77.21), (52.52, 13.41), (-33.87, 151.21), (64.15, -21.94)])
def test_open_meteo_reports_the_us_and_european_index_of_the_same_air(env: ToolEnvironment, lat: float, lon: float):
    out = call(env, "openmeteo_get_air_quality", latitude=lat, longitude=lon)
    eu = scales()["eu"]
    shown = {"pm25": out["pm2_5"], "pm10": out["pm10"], "o3": out["ozone"]}
    assert out["us_aqi"] == max(_us(p, v) for p, v in shown.items())
    assert out["european_aqi"] == max(eu.sub_index(p, v, "ugm3") or 0 for p, v in shown.items())
    assert out["pm2_5"] <= 150 and out["us_aqi"] <= 300 and out["european_aqi"] <= 100  # the schema's bounds


@pytest.mark.parametrize("city", ("Delhi", "Beijing", "Berlin"))
def test_iqair_gives_each_scale_its_own_index_and_main_pollutant(env: ToolEnvironment, city: str):
    pollution = call(env, "iqair_get_city_data", city=city, state="", country="")["pollution"]
    assert pollution["mainus"] in ("p2", "p1", "o3", "n2", "s2", "co") and pollution["maincn"] in (
        "p2", "p1", "o3", "n2", "s2", "co")
    # The same air as AQICN's for the city and hour: its US index covers all six pollutants, AQICN's four.
    assert pollution["aqius"] >= call(env, "aqicn_get_city_aqi", city=city)["aqi"] - 1
    assert pollution["ts"] == NOW.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_every_tool_of_a_session_reports_the_same_air_for_a_city_and_hour(env: ToolEnvironment):
    iaqi = call(env, "aqicn_get_city_aqi", city="Delhi")["iaqi"]
    first = call(env, "weatherbit_get_air_quality_forecast", city="Delhi")["data"][0]
    assert first["timestamp_utc"] == "2026-01-15T09:00:00Z"
    assert abs(_us("pm25", first["pm25"]) - iaqi["pm25"]) <= 1
    assert abs(_us("pm10", first["pm10"]) - iaqi["pm10"]) <= 1


def test_a_forecast_steps_hourly_from_now_and_each_hour_agrees_with_itself(env: ToolEnvironment):
    data = call(env, "weatherbit_get_air_quality_forecast", city="Delhi,IN", hours=24)["data"]
    stamps = [dt.datetime.fromisoformat(d["timestamp_utc"].replace("Z", "")) for d in data]
    assert stamps[0] == NOW and all(b - a == dt.timedelta(hours=1) for a, b in zip(stamps, stamps[1:], strict=False))
    for hour in data:
        subs = [_us("pm25", hour["pm25"]), _us("pm10", hour["pm10"]), _us("o3", hour["o3"]), _us("no2", hour["no2"])]
        assert hour["aqi"] == max(subs)


def test_a_daily_aqi_forecast_runs_one_day_at_a_time_from_today(env: ToolEnvironment):
    daily = call(env, "aqicn_get_city_aqi_forecast", city="Delhi")["daily"]
    days = [dt.date.fromisoformat(d["day"]) for d in daily]
    assert days[0] == NOW.date() and all((b - a).days == 1 for a, b in zip(days, days[1:], strict=False))
    for day in daily:
        assert day["min"] <= day["avg"] <= day["max"]
        if day["pollutant"] == "uvi":
            assert day["max"] <= 12  # a UV index, not an AQI


@pytest.mark.parametrize(("tool", "args", "path"), [
    ("aqicn_get_city_aqi", {"city": "Delhi"}, ("time", "s")),
    ("aqicn_get_geo_feed", {"lat": 28.61, "lng": 77.21}, ("time",)),
    ("ambee_get_air_quality_by_city", {"city": "Delhi"}, ("stations", 0, "updatedAt")),
    ("openaq_get_latest_measurements", {"locations_id": 8118}, ("results", 0, "datetime")),
    ("aqicn_search_stations", {"keyword": "london"}, ("data", 0, "time")),
])
def test_a_current_reading_is_stamped_at_the_last_full_hour(env: ToolEnvironment, tool: str, args: dict[str, Any],
                                                             path: tuple[Any, ...]):
    value: Any = call(env, tool, **args)
    for key in path:
        value = value[key]
    assert value.startswith(NOW.strftime("%Y-%m-%dT%H:%M"))


def test_an_openaq_reading_gives_particles_in_micrograms(env: ToolEnvironment):
    for result in call(env, "openaq_get_latest_measurements", locations_id=8118)["results"]:
        if result["parameter"] in ("pm25", "pm10", "bc"):
            assert result["units"] == "µg/m³" and result["value"] < 600


def test_a_station_geo_is_the_city_it_measures(env: ToolEnvironment):
    geo = call(env, "aqicn_get_city_aqi", city="Delhi")["station"]["geo"]
    assert haversine_km(geo[0], geo[1], 28.65, 77.23) < 30


def test_shapes_and_fences_lie_on_the_globe_near_their_place(env: ToolEnvironment):
    fence = call(env, "tomtom_create_geofence", project_id="p1", name="Depot", shape_type="Circle")
    lon, lat = fence["coordinates"]
    assert -180 <= lon <= 180 and -90 <= lat <= 90
    iso = call(env, "geoapify_get_isoline", lat=48.85, lon=2.35, type="time", range=900)

    def vertices(value: Any) -> list[list[float]]:
        if isinstance(value, list) and len(value) == 2 and all(isinstance(v, float) for v in value):
            return [value]
        return [v for sub in value for v in vertices(sub)] if isinstance(value, list) else []

    points = vertices(iso["geometry"]["coordinates"])
    assert points and all(haversine_km(p[1], p[0], 48.85, 2.35) < 30 for p in points)
    assert len({tuple(p) for p in points}) == len(points)  # a ring's vertices spread round it


@pytest.mark.parametrize("city", ("Beijing", "Delhi", "Paris"))
def test_an_imported_aqi_tool_agrees_with_its_own_readings(wtb_catalog: Catalog, city: str):
    env = ToolEnvironment(wtb_catalog, Database(), ServerSettings())
    env.create_session(tools=["getRealtimeCityAQI"], session_id="s", seed=3)
    out = env.call_tool("s", "getRealtimeCityAQI", {"city": city}).result
    shown = {"pm25": (out["pm25"], "ugm3"), "pm10": (out["pm10"], "ugm3"), "o3": (out["o3"], "ugm3"),
             "no2": (out["no2"], "ugm3"), "so2": (out["so2"], "ugm3"), "co": (out["co"], "mgm3")}
    subs = {p: _us(p, v, unit) for p, (v, unit) in shown.items()}
    assert out["aqi"] == max(subs.values()) and subs[out["dominant_pollutant"]] == out["aqi"]
    assert out["category"] == US.category(out["aqi"])
    for day in out["forecast"]:
        assert day["category"] == US.category(day["aqi"])


# -- the audit -------------------------------------------------------------------------------------


def test_the_audit_flags_an_aqi_a_dominant_pollutant_and_a_category_that_disagree(catalog: Catalog):
    spec = catalog.tools["ambee_get_air_quality_by_city"]
    bad = {"city": "Mumbai", "stations": [
        {"placeName": "Mumbai", "AQI": 83, "PM25": 454.86, "PM10": 20.0, "NO2": 5.0, "OZONE": 10.0, "CO": 0.3,
         "category": "Good", "updatedAt": "2026-01-15T09:00:00Z"}]}
    found = dict(air_hits(spec, bad))
    assert "$.stations[0].AQI" in found and "$.stations[0].category" in found
    aqicn = {"status": "ok", "city": "Delhi", "aqi": 112, "dominentpol": "pm10",
             "station": {"name": "Delhi", "geo": [806.7, 906.82]}, "iaqi": {"pm25": 94.0, "pm10": 112.0}}
    assert not [h for h in air_hits(catalog.tools["aqicn_get_city_aqi"], aqicn) if h[0] == "$.aqi"]
    aqicn["iaqi"] = {"pm25": 160.0, "pm10": 112.0}
    found = dict(air_hits(catalog.tools["aqicn_get_city_aqi"], aqicn))
    assert {"$.aqi", "$.dominentpol", "$.station.geo"} <= set(found)


@pytest.mark.parametrize("tool", ["aqicn_get_city_aqi", "ambee_get_air_quality_by_city", "openmeteo_get_air_quality",
                                  "iqair_get_city_data", "weatherbit_get_air_quality_forecast",
                                  "aqicn_list_stations_in_bounds", "geoapify_get_isoline"])
def test_the_air_tools_pass_the_audit_for_many_sessions(catalog: Catalog, tool: str):
    from env_server.specs.samples import sample_arguments

    env = ToolEnvironment(catalog, Database(), ServerSettings())
    for seed in range(6):
        env.create_session(tools=[tool], session_id=f"s{seed}", seed=seed)
        for variant in (0, 1):
            outcome = env.call_tool(f"s{seed}", tool, sample_arguments(catalog.tools[tool], variant))
            if not outcome.is_error:
                assert list(air_hits(catalog.tools[tool], outcome.result)) == []
