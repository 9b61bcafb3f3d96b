"""An official statistic reads as its indicator: unit, magnitude, year and publisher agree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from env_server.catalog import Catalog, load_catalog
from env_server.environment import ToolEnvironment
from env_server.simulators.indicator_facts import figure_of, indicators, topical
from state import Database

_NAMES = sorted(indicators())
_RATES = [n for n in _NAMES if indicators()[n].unit != "persons"]
_TEMPLATE = json.loads((Path(__file__).parents[3] / "tool_specs" / "templates" / "statistic.json").read_text())


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_RATES), st.integers(0, 2**31), st.sampled_from(["ES", "JP", "KE", "BR"]),
       st.integers(2000, 2024))
def test_a_rate_lies_in_its_indicators_range_and_drifts_little_from_year_to_year(
        name: str, seed: int, country: str, year: int):
    spec = indicators()[name]
    now, later = (figure_of(spec, seed, country, name, y, None) for y in (year, year + 1))
    assert spec.low <= now <= spec.high
    assert now == figure_of(spec, seed, country, name, year, None)  # stable within a session
    assert abs(later - now) <= 0.13 * (spec.high - spec.low) + 10 ** -spec.digits
    assert round(now, spec.digits) == now


def test_a_head_count_is_the_countrys_population_of_that_year():
    spec = indicators()["Population, total"]
    assert figure_of(spec, 1, "FR", "Population, total", 2020, 67_000_000) == 67_000_000
    assert 67_000_000 < figure_of(spec, 1, "FR", "Population, total", 2024, 67_000_000) < 69_500_000


def test_a_description_asks_for_the_indicators_it_names_by_whole_words():
    assert topical("Public finance: debt and government spending of a country") == {"Government debt (% of GDP)"}
    assert topical("Monthly unemployment figures") == {"Unemployment rate (%)"}
    assert topical("Search macroeconomic datasets") == frozenset()


def _catalog(tmp_path: Path, description: str, args: dict[str, Any]) -> Catalog:
    record = _TEMPLATE["record"]
    spec = {
        "provider": "Statistics Test", "description": "Official statistics.", "category": "Government",
        "link": "https://example.org", "auth": "none",
        "functions": [{
            "name": "stats_get_figure", "description": description,
            "input_schema": {"type": "object", "properties": {k: {"type": "integer" if k.endswith("Year") else "string"}
                                                              for k in args}},
            "output_schema": record,
            "profile": {"operation": "read", "entity": "statistic", "hints": _TEMPLATE["hints"]},
        }],
    }
    folder = tmp_path / "catalog" / "government"
    folder.mkdir(parents=True)
    (folder / "stats.json").write_text(json.dumps(spec))
    return load_catalog([tmp_path / "catalog"])


def test_a_finance_tool_reports_the_debt_ratio_of_the_year_asked_from_the_finance_ministry(tmp_path: Path):
    args = {"country": "Russia", "fiscalYear": 2018}
    catalog = _catalog(tmp_path, "Public finance, debt and government spending of a country.", args)
    env = ToolEnvironment(catalog, Database())
    for seed in range(6):
        env.create_session(tools=["stats_get_figure"], session_id=f"s{seed}", seed=seed)
        out = env.call_tool(f"s{seed}", "stats_get_figure", args)
        assert not out.is_error, out.message
        row = out.result
        spec = indicators()[row["indicator"]]
        assert row["indicator"] == "Government debt (% of GDP)"
        assert (row["year"], row["unit"], row["source"]) == (2018, "percent", "Ministry of Finance")
        assert spec.low <= row["value"] <= spec.high


def test_a_statistic_never_reports_a_year_still_running(tmp_path: Path):
    catalog = _catalog(tmp_path, "Official statistics by country.", {"country": "Kenya"})
    env = ToolEnvironment(catalog, Database())
    for seed in range(10):
        env.create_session(tools=["stats_get_figure"], session_id=f"s{seed}", seed=seed)
        row = env.call_tool(f"s{seed}", "stats_get_figure", {"country": "Kenya"}).result
        today = env.view(f"s{seed}").record.today
        assert row["year"] < today.year
        assert row["unit"] == indicators()[row["indicator"]].unit
