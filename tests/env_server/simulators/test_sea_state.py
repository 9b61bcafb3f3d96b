"""An hourly sea state walks smoothly around the place's sea, and its heights and periods agree."""

from __future__ import annotations

import math

from env_server.environment import ToolEnvironment
from env_server.simulators.sea_state import sea_state_at
from env_server.specs.sea_checks import jump_hits, sum_hits
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)


def test_a_sea_state_changes_little_from_one_hour_to_the_next():
    for lat, lon in ((-33.9, 18.4), (50.1, -5.5), (1.3, 103.8), (-55.0, -67.0)):
        states = [sea_state_at(lat, lon, 7, h) for h in range(72)]
        for before, now in zip(states, states[1:], strict=False):
            assert abs(now.wave_m - before.wave_m) <= 0.15 * before.wave_m + 0.05
            assert abs(now.water_c - before.water_c) < 0.2


def test_significant_height_is_the_sum_of_swell_and_wind_sea_and_the_period_lies_between():
    state = sea_state_at(43.3, -2.0, 1, 5)
    assert math.isclose(state.wave_m, math.hypot(state.swell_m, state.wind_wave_m))
    assert state.wind_wave_period_s <= state.wave_period_s <= state.swell_period_s


def test_the_southern_ocean_is_rougher_than_the_tropics():
    south = sum(sea_state_at(-55.0, lon, s, 0).swell_m for s in range(20) for lon in (-60.0, 20.0, 140.0))
    tropics = sum(sea_state_at(5.0, lon, s, 0).swell_m for s in range(20) for lon in (-30.0, 80.0, 160.0))
    assert south > 1.5 * tropics


def test_marine_forecast_hours_walk_and_their_wave_height_is_at_least_the_swell(env: ToolEnvironment):
    for name, args in (("storm_glass_get_marine_point", {"lat": -3.32, "lng": 114.59, "params": ["waveHeight", "swellHeight"]}),
                       ("weatherapi_get_marine_forecast", {"q": "Cape Town", "days": 3})):
        hours = call(env, name, **args)["hours"]
        assert len(hours) > 1
        assert jump_hits("$.hours", hours) == []
        assert all(sum_hits("$", hour) == [] for hour in hours)


def test_the_audit_reports_a_wave_height_that_jumps_within_an_hour():
    hours = [{"waveHeight": 15.9}, {"waveHeight": 2.4}, {"waveHeight": 15.1}]
    assert [path for path, _ in jump_hits("$.hours", hours)] == ["$.hours[1].waveHeight", "$.hours[2].waveHeight"]
    assert sum_hits("$", {"sig_ht_mt": 0.5, "swell_ht_mt": 1.7})
