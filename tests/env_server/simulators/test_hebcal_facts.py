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


def test_a_date_conversion_gives_the_asked_day_on_both_calendars(env: ToolEnvironment):
    got = call(env, "hebcal_convert_date", gy=2026, gm=12, gd=7)
    assert (got["hy"], got["hm"], got["hd"]) == (5787, "Kislev", 27) and got["events"] == ["Chanukah: 4 Candles"]
    back = call(env, "hebcal_convert_date", direction="h2g", hy=5787, hm="Kislev", hd=25)
    assert (back["gy"], back["gm"], back["gd"]) == (2026, 12, 5) and "כסלו" in back["hebrew"]


def test_zmanim_come_in_the_days_order_on_the_asked_date_in_local_time(env: ToolEnvironment):
    got = call(env, "hebcal_get_zmanim", geonameid=281184, date="2026-06-21")
    times = got["times"]
    order = ["alotHaShachar", "sunrise", "sofZmanShma", "sofZmanTfilla", "chatzot", "minchaGedola",
             "plagHaMincha", "sunset", "tzeit7083deg"]
    assert got["date"] == "2026-06-21" and all(times[k].startswith("2026-06-21T") for k in order)
    assert [times[k] for k in order] == sorted(times[k] for k in order)
    assert times["sunrise"].endswith("+03:00") and "05:30" <= times["sunrise"][11:16] <= "05:40"
