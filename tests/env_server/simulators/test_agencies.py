"""Government and space agencies are real ones, their codes and abbreviations their own."""

from __future__ import annotations

import datetime as dt
import json
from importlib import resources

from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database


def _records(kind: str) -> list[dict]:
    return json.loads(resources.files("tool_specs").joinpath(f"vocab/{kind}.json").read_text())["records"]


def test_listed_agencies_are_real_with_their_own_codes():
    us = {r["name"]: r for r in _records("us_agency")}
    space = {r["name"]: r for r in _records("space_agency")}
    env = ToolEnvironment(load_catalog(), Database(), ServerSettings())
    tools = ["usaspending_list_toptier_agencies", "launchlibrary_list_agencies", "federalregister_list_agencies"]
    for seed in range(4):
        env.create_session(tools=tools, session_id=f"s{seed}", seed=seed, today=dt.date(2026, 12, 7))
        for row in env.call_tool(f"s{seed}", tools[0], {}).result["results"]:
            fact = us[row["agency_name"]]
            assert (row["toptier_code"], row["abbreviation"]) == (fact["toptier_code"], fact["abbreviation"])
        for row in env.call_tool(f"s{seed}", tools[1], {}).result["results"]:
            fact = space[row["name"]]
            assert (row["abbrev"], row["country_code"], row["founding_year"]) == (
                fact["abbrev"], fact["country_code"], fact["founding_year"])
        for row in env.call_tool(f"s{seed}", tools[2], {}).result["agencies"]:
            assert row["short_name"] == us[row["name"]]["abbreviation"]
