"""A call that names a country and no smaller place reports the nation's population."""

from __future__ import annotations

import json
from pathlib import Path

from env_server.catalog import load_catalog
from env_server.environment import ToolEnvironment
from env_server.simulators.records import default_facts
from state import Database


def _env(tmp_path: Path) -> ToolEnvironment:
    record = {"type": "object", "properties": {"population": {"type": "integer"}, "confirmed": {"type": "integer"}},
              "required": ["population"]}
    spec = {
        "provider": "Stats Test", "description": "Health statistics.", "category": "Health",
        "link": "https://example.org", "auth": "none",
        "functions": [{"name": "stats_get_cases", "description": "Current case counts of a place.",
                       "input_schema": {"type": "object", "properties": {"country": {"type": "string"},
                                                                         "city": {"type": "string"}}},
                       "output_schema": record, "profile": {"operation": "read", "entity": "case_stat"}}],
    }
    folder = tmp_path / "catalog" / "health"
    folder.mkdir(parents=True)
    (folder / "stats.json").write_text(json.dumps(spec))
    env = ToolEnvironment(load_catalog([tmp_path / "catalog"]), Database())
    env.create_session(tools=["stats_get_cases"], session_id="s", seed=2)
    return env


def test_a_country_asked_alone_gets_the_nations_head_count(tmp_path: Path):
    env = _env(tmp_path)
    countries = default_facts().reference.countries
    for name in ("Turkey", "Japan", "Kenya"):
        out = env.call_tool("s", "stats_get_cases", {"country": name})
        assert not out.is_error, out.message
        fact = countries.find(name)
        assert fact is not None and out.result["population"] == fact.population


def test_a_city_asked_keeps_the_citys_head_count(tmp_path: Path):
    env = _env(tmp_path)
    fact = default_facts().reference.countries.find("Japan")
    out = env.call_tool("s", "stats_get_cases", {"country": "Japan", "city": "Osaka"})
    assert not out.is_error, out.message
    assert fact is not None and out.result["population"] < fact.population
