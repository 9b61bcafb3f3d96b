"""A weather alert is issued by the region's own weather service, fits its climate, and says what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from env_server.catalog import load_catalog
from env_server.environment import ToolEnvironment
from env_server.simulators.alert_kinds import weather_service
from state import Database

_WTB_TOOLS = Path(__file__).parents[4] / "shared" / "data" / "wildtoolbench" / "tools_en.jsonl"


def test_a_country_without_a_listed_service_is_warned_by_its_own():
    assert weather_service("de", "Germany") == "Deutscher Wetterdienst"
    assert weather_service("BO", "Bolivia") == "Bolivia national weather service"


@pytest.mark.skipif(not _WTB_TOOLS.exists(), reason="WildToolBench tools not in ../shared/data")
def test_alerts_for_a_region_come_from_its_service_and_suit_its_climate():
    env = ToolEnvironment(load_catalog([_WTB_TOOLS]), Database())
    env.create_session(tools=["getWeatherAlerts"], session_id="s", seed=1)
    texts: set[str] = set()
    for region, sender in (("IT", "Aeronautica Militare Meteorological Service"), ("Brazil", "INMET"),
                           ("Singapore", "Meteorological Service Singapore")):
        for kind in ("all", "rainstorm", "highTemperature"):
            out = env.call_tool("s", "getWeatherAlerts", {"region": region, "alertType": kind})
            rows = (out.result or {}).get("results", [])
            assert rows, out.message
            for row in rows:
                assert row["sender"] == sender
                texts.add(row["instruction"])
                if region != "IT":  # summer in Brasília, always warm in Singapore
                    assert row["event"] not in {"Winter Storm Warning"}, row
    assert len(texts) > 3  # the alert's own text, not one of five fixed lines
