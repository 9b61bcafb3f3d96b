"""A METAR reports visibility up to 10 statute miles ("10+"), and its raw text is made of its own fields."""

from __future__ import annotations

import datetime as dt

from env_server.environment import ToolEnvironment
from env_server.simulators.metar import cap_visibility, compose_metar
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)


def test_visibility_above_ten_miles_reads_ten_plus():
    record = {"visib": "15.3"}
    cap_visibility(record)
    assert record["visib"] == "10+"
    numeric = {"visib": 14.0}
    cap_visibility(numeric)
    assert numeric["visib"] == 10.0


def test_the_raw_report_gives_miles_in_north_america_and_metres_elsewhere():
    record = {"visib": "10+", "temp": -5.1, "dewp": -6.6, "wdir": 186, "wspd": 4, "altim": 1026.0}
    assert " 9999 M05/M07 " in compose_metar(record, "EGLL", dt.datetime(2026, 1, 15, 9))
    assert " 10SM " in compose_metar(record, "KJFK", dt.datetime(2026, 1, 15, 9))


def test_reported_metars_never_exceed_ten_miles_and_their_raw_text_agrees(env: ToolEnvironment):
    for report in call(env, "aviationweather_get_metar", ids=["KJFK", "EGLL", "RJTT", "KLAX"])["metars"]:
        visib = report["visib"]
        assert visib == "10+" or float(visib) < 10
        assert report["dewp"] <= report["temp"]
