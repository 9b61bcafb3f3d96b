"""Hebcal lists Jewish calendar items, in the asked range, sorted, at sensible local times."""

from __future__ import annotations

import datetime as dt

from env_server.environment import ToolEnvironment
from env_server.specs.hebcal_checks import hebcal_hits
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)


def test_a_month_lists_its_holidays_portions_and_candles_in_order(env: ToolEnvironment):
    result = call(env, "hebcal_get_jewish_calendar", year="2026", month="9", s=True, c=True, geonameid=5128581)
    titles = [i["title"] for i in result["items"]]
    assert "Rosh Hashana 5787" in titles and "Yom Kippur" in titles and "Parashat Ha'azinu" in titles
    assert all(i["date"][:7] == "2026-09" for i in result["items"])
    candles = [i for i in result["items"] if i["category"] == "candles"]
    assert candles and all(dt.datetime.fromisoformat(i["date"]).weekday() == 4 for i in candles)
    assert all(17 <= dt.datetime.fromisoformat(i["date"]).hour <= 19 for i in candles)  # New York in September
    assert hebcal_hits(result) == []


def test_shabbat_times_are_this_friday_and_saturday_in_jerusalem(env: ToolEnvironment):
    result = call(env, "hebcal_get_shabbat_times", geonameid=281184)
    assert result["location"]["tzid"] == "Asia/Jerusalem"
    assert [i["category"] for i in result["items"]][0] == "candles"
    assert any(i["title"].startswith("Parashat ") for i in result["items"])


def test_the_audit_reports_office_events_as_holidays():
    result = {"items": [{"title": "Team standup", "date": "2026-12-09", "category": "holiday"},
                        {"title": "Pay rent", "date": "2026-12-08T12:00:00Z", "category": "havdalah"}]}
    assert hebcal_hits(result)
