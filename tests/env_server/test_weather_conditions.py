"""A weather report's codes, icons, words, cloud cover and UV index follow its one condition and the sun."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from env_server.environment import ToolEnvironment
from env_server.simulators.records import default_facts
from env_server.simulators.weather_conditions import (
    code_of,
    condition_group,
    condition_groups,
    icon_of,
    is_daytime,
    night_text,
    weather_step,
)
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)

NOW = dt.datetime(2026, 1, 15, 9, 0)  # the free-play session's clock at its first call
CITIES = ("Portland,OR,US", "Tokyo", "Berlin", "Nairobi", "Sydney", "Reykjavik")


@pytest.mark.parametrize(("text", "owm", "weatherapi", "weatherbit", "tomorrow"), [
    ("Light rain", (500, "Rain", "light rain", "10"), 1183, 500, 4200),
    ("Overcast", (804, "Clouds", "overcast clouds", "04"), 1009, 804, 1001),
    ("Sunny", (800, "Clear", "clear sky", "01"), 1000, 800, 1000),
    ("Partly cloudy", (802, "Clouds", "scattered clouds", "03"), 1003, 802, 1101),
    ("Patchy light rain with thunder", (211, "Thunderstorm", "thunderstorm", "11"), 1273, 201, 8000),
    ("Light snow showers", (621, "Snow", "shower snow", "13"), 1255, 621, 5100),
    ("Freezing fog", (741, "Fog", "fog", "50"), 1147, 741, 2000),
])
def test_a_condition_has_each_providers_code(text: str, owm: tuple[int, str, str, str], weatherapi: int,
                                             weatherbit: int, tomorrow: int):
    group = condition_group(text)
    assert group.owm == owm
    assert code_of(group, text, "weatherapi") == weatherapi  # WeatherAPI's own text wins over the group
    assert code_of(group, text, "weatherbit") == weatherbit and code_of(group, text, "tomorrow") == tomorrow


def test_icons_say_day_or_night_as_each_provider_writes_them():
    rain, clear = condition_group("Light rain"), condition_group("Clear")
    assert icon_of(rain, "owm", True) == "10d" and icon_of(rain, "owm", False) == "10n"
    assert icon_of(rain, "weatherbit", False) == "r01n"
    assert icon_of(clear, "visual_crossing", False) == "clear-night" and icon_of(rain, "visual_crossing", True) == "rain"
    assert night_text("Sunny") == "Clear" and night_text("Light rain") == "Light rain"


def test_the_sun_is_up_by_day_and_down_by_night():
    assert is_daytime(52.52, 13.40, dt.datetime(2026, 1, 15, 12))  # Berlin at noon
    assert not is_daytime(52.52, 13.40, dt.datetime(2026, 1, 15, 22))
    assert not is_daytime(45.52, -122.68, NOW)  # Portland at 01:00 local


def _is_day(city: str) -> bool:
    place = default_facts().reference.find_place(city.split(",")[0])
    assert place is not None
    return is_daytime(place.latitude, place.longitude, NOW)


@pytest.mark.parametrize("city", CITIES)
def test_an_openweathermap_report_has_one_condition_and_its_codes_agree(env: ToolEnvironment, city: str):
    out = call(env, "openweathermap_get_current_weather", q=city)
    [weather] = out["weather"]
    group = next(g for g in condition_groups() if g.owm[0] == weather["id"])
    assert (weather["main"], weather["description"]) == group.owm[1:3]
    assert weather["icon"] == group.owm[3] + ("d" if _is_day(city) else "n")


@pytest.mark.parametrize("city", CITIES)
def test_a_weatherapi_report_codes_its_own_text_and_is_not_sunny_at_night(env: ToolEnvironment, city: str):
    current = call(env, "weatherapi_get_realtime_weather", q=city)["current"]
    text, code = current["condition"]["text"], current["condition"]["code"]
    assert code == code_of(condition_group(text), text, "weatherapi")
    if not current["is_day"]:
        assert "sun" not in text.lower() and current["uv"] == 0


@pytest.mark.parametrize("city", ("Raleigh,NC", "Mumbai", "Sydney"))
def test_a_weatherbit_report_codes_agree_and_the_uv_follows_the_sun(env: ToolEnvironment, city: str):
    out = call(env, "weatherbit_get_current_weather", city=city)
    weather, group = out["weather"], condition_group(out["weather"]["description"])
    assert (weather["code"], weather["description"]) == group.weatherbit[:2]
    daytime = _is_day(city)
    assert weather["icon"] == group.weatherbit[2] + ("d" if daytime else "n")
    if not daytime:
        assert out["uv"] == 0


def test_iqair_weather_icons_are_openweathermap_codes(env: ToolEnvironment):
    for city in ("Los Angeles", "Delhi", "Sydney"):
        icon = call(env, "iqair_get_city_data", city=city, state="", country="")["weather"]["ic"]
        assert re.fullmatch(r"(01|02|03|04|09|10|11|13|50)[dn]", icon)
        assert icon.endswith("d" if _is_day(city) else "n")


def test_a_uv_index_is_the_suns_not_a_draw(env: ToolEnvironment):
    # 09:00 UTC: the afternoon in Singapore, the evening in Siberia, the small hours in Los Angeles.
    assert call(env, "weatherapi_get_realtime_weather", q="Los Angeles")["current"]["uv"] == 0
    assert call(env, "weatherapi_get_realtime_weather", q="Kemerovo")["current"]["uv"] < 1
    for city in ("Singapore", "Mumbai"):  # mid-afternoon in the tropics
        current = call(env, "weatherapi_get_realtime_weather", q=city)["current"]
        assert current["uv"] > 2 or condition_group(current["condition"]["text"]).clouds >= 90


def test_a_forecast_icon_follows_each_days_own_conditions(env: ToolEnvironment):
    days = call(env, "visual_crossing_get_forecast_range", location="Seattle,WA", start_date="2026-01-15",
                end_date="2026-01-20")["days"]
    for day in days:
        assert day["icon"] == icon_of(condition_group(day["conditions"]), "visual_crossing", True)


def test_a_condition_outside_the_weather_is_left_alone():
    props = {"code": {"type": "integer"}, "description": {"type": "string"}, "icon": {"type": "string"}}
    assert weather_step("condition", "patient", props) is None
    assert weather_step("condition", "current_weather", props) is not None


def test_a_days_mean_temperature_lies_between_its_minimum_and_maximum(env: ToolEnvironment):
    from env_server.simulators import invariants

    record = {"temp": 9.0, "max_temp": 4.0, "min_temp": 6.0, "maxtemp_f": 0.0}
    invariants.enforce(record, {})
    assert record["min_temp"] <= record["temp"] <= record["max_temp"]
    assert invariants.walk_violations({"temp": 9.0, "max_temp": 4.0, "min_temp": 2.0}, {})
    for city in ("Madrid,ES", "Oslo,NO", "Lagos,NG"):
        for day in call(env, "weatherbit_get_historical_daily", city=city, start_date="2025-01-15",
                        end_date="2025-01-25")["data"]:
            assert day["min_temp"] <= day["temp"] <= day["max_temp"]
    day = {"maxtemp_c": 1.0, "mintemp_c": 5.0, "avgtemp_c": 7.0, "maxtemp_f": 0.0, "mintemp_f": 0.0, "avgtemp_f": 0.0}
    invariants.enforce(day, {})
    assert day["mintemp_c"] <= day["avgtemp_c"] <= day["maxtemp_c"]
    assert day["maxtemp_f"] == round(day["maxtemp_c"] * 9 / 5 + 32, 1)  # °F follows the ordered °C
