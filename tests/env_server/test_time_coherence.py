"""Time in tool answers: intervals, windows, series, zones and the session clock agree.

These tests read only what tools answer (no engine internals), so each one also shows the
defect it guards against on an engine without the fix.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import anyio
import pytest
from mcp import Client

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database
from state.store import Durability
from tests.servers import running_server

TODAY = dt.date(2026, 1, 15)
NOW = dt.datetime(2026, 1, 15, 9, 0)
SEEDS = range(6)


def _env(catalog: Catalog, today: dt.date = TODAY) -> ToolEnvironment:
    return ToolEnvironment(catalog, Database(), ServerSettings(today=today, durability=Durability.EPHEMERAL))


def _call(env: ToolEnvironment, tool: str, args: dict[str, Any], seed: int = 0) -> Any:
    sid = f"t_{tool}_{seed}"
    env.create_session(tools=[tool], seed=seed, session_id=sid)
    try:
        outcome = env.call_tool(sid, tool, args)
    finally:
        env.release_session(sid)
    assert not outcome.is_error, outcome.message
    return outcome.result


def _when(text: str) -> dt.datetime:
    parsed = dt.datetime.fromisoformat(text.replace("Z", "+00:00").replace(" ", "T"))
    return parsed.astimezone(dt.UTC).replace(tzinfo=None) if parsed.tzinfo else parsed


@pytest.fixture(scope="module")
def env(builtin_catalog: Catalog) -> ToolEnvironment:
    return _env(builtin_catalog)


def test_a_time_zone_lookup_reports_the_zones_offset_dst_flag_and_local_time(env):
    seoul = _call(env, "bigdatacloud_get_timezone_by_location", {"latitude": 37.5665, "longitude": 126.978})
    assert seoul["ianaTimeId"] == "Asia/Seoul"
    assert seoul["utcOffset"] == "+09:00" and seoul["utcOffsetSeconds"] == 32400
    assert seoul["isDaylightSavingTime"] is False
    assert seoul["localTime"] == "2026-01-15T18:00:00+09:00"  # 09:00 UTC, the session's now


def test_daylight_saving_follows_the_date_not_a_coin(builtin_catalog):
    summer = _env(builtin_catalog, dt.date(2026, 7, 15))
    york = _call(summer, "bigdatacloud_get_timezone_by_location", {"latitude": 40.7128, "longitude": -74.006})
    assert york["ianaTimeId"] == "America/New_York"
    assert york["isDaylightSavingTime"] is True and york["utcOffsetSeconds"] == -4 * 3600
    google = _call(summer, "google_maps_get_timezone", {"location": "Berlin", "timestamp": 1784100000})
    assert (google["rawOffset"], google["dstOffset"]) == (3600, 3600)


def test_weather_local_time_is_the_places_wall_clock(env):
    for seed in SEEDS:
        location = _call(env, "weatherapi_get_realtime_weather", {"q": "Tokyo"}, seed)["location"]
        assert location["tz_id"] == "Asia/Tokyo" and location["localtime"] == "2026-01-15 18:00"


def test_interval_ends_never_come_before_their_starts(env):
    for seed in SEEDS:
        issue = _call(env, "github_get_issue", {"owner": "octo", "repo": "hello", "issue_number": 7}, seed)
        if issue.get("closed_at"):
            assert _when(issue["closed_at"]) >= _when(issue["created_at"])
        for animal in _call(env, "movebank_list_individuals", {"study_id": 42}, seed)["individuals"]:
            assert _when(animal["timestamp_end"]) >= _when(animal["timestamp_start"])
        for slot in _call(env, "carbon_intensity_get_forecast", {"from": "2026-01-15T10:00Z"}, seed)["data"]:
            assert _when(slot["to"]) >= _when(slot["from"])


def test_what_already_happened_lies_before_the_session_clock(env):
    for seed in SEEDS:
        for story in _call(env, "nyt_get_top_stories", {"section": "world"}, seed)["results"]:
            assert _when(story["published_date"]) <= NOW
        for article in _call(env, "currents_search_news", {"keywords": "rail"}, seed)["news"]:
            assert _when(article["published"]) <= NOW


def test_a_created_record_is_modified_no_earlier_than_it_was_created(env):
    for seed in SEEDS:
        made = _call(env, "osf_create_project", {"title": "Tide gauges"}, seed)
        attributes = made.get("data", made).get("attributes", made.get("data", made))
        assert _when(attributes["date_modified"]) >= _when(attributes["date_created"])


def test_a_daily_series_stays_inside_the_requested_dates(env):
    args = {"latitude": 52.52, "longitude": 13.4, "start_date": "2026-01-05", "end_date": "2026-01-06"}
    for seed in SEEDS:
        days = [d["date"] for d in _call(env, "openmeteo_get_historical_weather", args, seed)["daily"]]
        assert days == ["2026-01-05", "2026-01-06"][: len(days)] and days
        quotes = _call(env, "currencylayer_get_timeframe", {"start_date": "2026-01-02", "end_date": "2026-01-04"},
                       seed)["quotes"]
        assert all("2026-01-02" <= q["date"] <= "2026-01-04" for q in quotes)


def test_years_stay_inside_min_and_max_year_and_label_their_period(env):
    args = {"location": "Tokyo", "min_year": 2010, "max_year": 2013}
    for seed in SEEDS:
        for period in _call(env, "visual_crossing_get_history_summary", args, seed)["periods"]:
            assert 2010 <= period["year"] <= 2013
            assert period["period"] == str(period["year"])


def test_tide_extremes_alternate_high_and_low_half_a_lunar_day_apart(env):
    for seed in SEEDS:
        tides = _call(env, "storm_glass_list_tide_extremes", {"lat": 50.37, "lng": -4.14}, seed)["data"]
        kinds = [t["type"] for t in tides]
        assert all(a != b for a, b in zip(kinds, kinds[1:], strict=False))
        times = [_when(t["time"]) for t in tides]
        gaps = [(b - a).total_seconds() / 3600 for a, b in zip(times, times[1:], strict=False)]
        assert all(6.0 <= g <= 6.4 for g in gaps), gaps
        assert all((t["height"] > 0) == (t["type"] == "high") for t in tides if t["height"] != 0)


def test_found_items_come_in_time_order(env):
    for seed in SEEDS:
        news = [_when(a["published"]) for a in _call(env, "currents_search_news", {"keywords": "rail"}, seed)["news"]]
        assert news == sorted(news, reverse=True)  # a feed: newest first
        events = _call(env, "google_calendar_list_events", {"calendarId": "primary"}, seed)["items"]
        starts = [_when(e["start"]["dateTime"]) if isinstance(e["start"], dict) else _when(e["start"]) for e in events]
        assert starts == sorted(starts) or starts == sorted(starts, reverse=True)


def test_a_week_of_a_meal_plan_starts_on_the_asked_day(env):
    for seed in SEEDS:
        items = _call(env, "spoonacular_get_meal_plan_week",
                      {"username": "ana", "hash": "h1", "start_date": "2026-02-02"}, seed)["items"]
        assert items and all(i["date"] >= "2026-02-02" for i in items)


def test_over_mcp_the_local_time_of_a_zone_lookup_carries_the_zones_offset(builtin_catalog):
    env = _env(builtin_catalog)
    with running_server(env) as base:

        async def drive() -> dict[str, Any]:
            async with Client(f"{base}/mcp") as client:
                result = await client.call_tool("bigdatacloud_get_timezone_by_location",
                                                {"latitude": -33.8688, "longitude": 151.2093})
                assert not result.is_error
                return dict(result.structured_content or {})

        sydney = anyio.run(drive)
    assert sydney["ianaTimeId"] == "Australia/Sydney"
    assert sydney["utcOffsetSeconds"] == 11 * 3600 and sydney["isDaylightSavingTime"] is True  # January: summer
    assert sydney["localTime"] == "2026-01-15T20:00:00+11:00"


def test_sunrise_and_sunset_follow_the_place_and_the_day(env):
    berlin = _call(env, "geonames_get_timezone", {"lat": 52.52, "lng": 13.405})
    assert berlin["timezoneId"] == "Europe/Berlin" and berlin["time"] == "2026-01-15 10:00"
    assert (berlin["gmtOffset"], berlin["rawOffset"], berlin["dstOffset"]) == (1, 1, 0)
    # Berlin, 15 January: sunrise 08:10, sunset 16:24 local (almanac), give or take the formula's minutes.
    rise, sunset = _when(berlin["sunrise"]), _when(berlin["sunset"])
    assert abs(rise - dt.datetime(2026, 1, 15, 8, 10)) <= dt.timedelta(minutes=4)
    assert abs(sunset - dt.datetime(2026, 1, 15, 16, 24)) <= dt.timedelta(minutes=4)
    for seed in SEEDS:  # 18:00 in Tokyo in January is after dark
        assert _call(env, "weatherapi_get_realtime_weather", {"q": "Tokyo"}, seed)["current"]["is_day"] == 0
