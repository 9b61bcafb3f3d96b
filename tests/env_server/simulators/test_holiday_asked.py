"""A holiday asked about is that holiday: a checked day names its own, a name its date; neither is a 404."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from env_server.catalog import Catalog, load_catalog
from env_server.environment import ToolEnvironment
from state import Database

_TEMPLATE = json.loads((Path(__file__).parents[3] / "tool_specs" / "templates" / "holiday.json").read_text())


def _catalog(tmp_path: Path) -> Catalog:
    """Two tools answering one holiday record, as the template builds them for imported tools."""
    record = _TEMPLATE["record"]
    profile = {"operation": "read", "entity": "holiday", "hints": _TEMPLATE["hints"]}
    inputs: dict[str, dict[str, Any]] = {
        "holidays_check_date": {"country": {"type": "string"}, "date": {"type": "string"}},
        "holidays_get_by_name": {"country": {"type": "string"}, "holiday_name": {"type": "string"},
                                 "year": {"type": "integer"}},
    }
    spec = {
        "provider": "Holiday Test", "description": "Public holidays.", "category": "Calendar",
        "link": "https://example.org", "auth": "none",
        "functions": [{"name": name, "description": "One public holiday of a country.",
                       "input_schema": {"type": "object", "properties": props, "required": list(props)},
                       "output_schema": record, "profile": profile} for name, props in inputs.items()],
    }
    folder = tmp_path / "catalog" / "calendar"
    folder.mkdir(parents=True)
    (folder / "holidays.json").write_text(json.dumps(spec))
    return load_catalog([tmp_path / "catalog"])


@pytest.fixture
def env(tmp_path: Path) -> ToolEnvironment:
    env = ToolEnvironment(_catalog(tmp_path), Database())
    env.create_session(tools=["holidays_check_date", "holidays_get_by_name"], session_id="s", seed=5)
    return env


def test_a_checked_holiday_names_the_holiday_of_that_day(env: ToolEnvironment):
    for country, day, name in (("IE", "2025-03-17", "Saint Patrick's Day"), ("Ireland", "2025-12-25", "Christmas Day"),
                               ("US", "2025-07-04", "Independence Day")):
        out = env.call_tool("s", "holidays_check_date", {"country": country, "date": day})
        assert not out.is_error, out.message
        assert (out.result["name"], out.result["date"]) == (name, day)


def test_a_checked_ordinary_day_is_not_found(env: ToolEnvironment):
    out = env.call_tool("s", "holidays_check_date", {"country": "IE", "date": "2025-02-09"})
    assert out.is_error and "not a public holiday in Ireland" in (out.message or "")


def test_a_holiday_asked_by_name_falls_on_its_date_in_the_year_asked(env: ToolEnvironment):
    out = env.call_tool("s", "holidays_get_by_name", {"country": "US", "holiday_name": "Thanksgiving", "year": 2025})
    assert not out.is_error, out.message
    assert (out.result["name"], out.result["date"]) == ("Thanksgiving Day", "2025-11-27")
    missing = env.call_tool("s", "holidays_get_by_name", {"country": "FR", "holiday_name": "Diwali", "year": 2024})
    assert missing.is_error and "Diwali" in (missing.message or "")


def test_a_listed_holiday_read_back_from_the_world_keeps_its_own_name(builtin_catalog: Catalog):
    """A stored row's date and name are its own, not a day the call asked about."""
    env = ToolEnvironment(builtin_catalog, Database())
    env.create_session(tools=["brasilapi_list_holidays"], session_id="s", seed=1)
    first, again = (env.call_tool("s", "brasilapi_list_holidays", {"year": 2025}) for _ in range(2))
    assert not again.is_error and again.result is not None
    assert first.result_text() == again.result_text()


_WTB_TOOLS = Path(__file__).parents[4] / "shared" / "data" / "wildtoolbench" / "tools_en.jsonl"


@pytest.mark.skipif(not _WTB_TOOLS.exists(), reason="WildToolBench tools not in ../shared/data")
def test_a_yes_no_date_check_answers_from_the_calendar():
    env = ToolEnvironment(load_catalog([_WTB_TOOLS]), Database())
    env.create_session(tools=["isDateHoliday"], session_id="s", seed=3)
    plain = env.call_tool("s", "isDateHoliday", {"country": "IE", "date": "2025-02-09"})
    assert not plain.is_error and plain.result is not None, plain.message
    assert (plain.result["is_holiday"], plain.result["date"]) == (False, "2025-02-09")
    assert "name" not in plain.result
    feast = env.call_tool("s", "isDateHoliday", {"country": "IE", "date": "2025-03-17"})
    assert feast.result is not None and feast.result["is_holiday"] is True
    assert feast.result["name"] == "Saint Patrick's Day"


def test_is_today_a_public_holiday_reads_the_session_day(builtin_catalog: Catalog):
    from holidays import country_holidays

    env = ToolEnvironment(builtin_catalog, Database())
    for seed in range(6):
        env.create_session(tools=["nager_date_is_today_public_holiday"], session_id=f"s{seed}", seed=seed)
        out = env.call_tool(f"s{seed}", "nager_date_is_today_public_holiday", {"countryCode": "DE"})
        assert not out.is_error and out.result is not None, out.message
        day = out.result["date"]
        assert out.result["is_public_holiday"] is (day in {d.isoformat() for d in country_holidays("DE", years=int(day[:4]))})
