"""The README's figures about the built-in catalog are the catalog's own."""

from __future__ import annotations

import re
from pathlib import Path

from env_server.catalog import Catalog

ROOT = Path(__file__).resolve().parents[2]


def _figures(pattern: str) -> list[int]:
    text = re.sub(r"\s+", " ", (ROOT / "README.md").read_text(encoding="utf-8"))
    return [int(n.replace(",", "")) for n in re.findall(pattern, text)]


def test_tool_provider_and_category_counts_match_the_built_in_catalog(builtin_catalog: Catalog):
    tools = len(builtin_catalog)
    # A figure of N tools is the catalog (or its free-play listing, which adds search_tools).
    assert _figures(r"(\d[\d,]*) tools\b") and set(_figures(r"(\d[\d,]*) tools\b")) <= {tools, tools + 1}
    providers = {spec.provider for spec in builtin_catalog.tools.values()}
    categories = {spec.category for spec in builtin_catalog.tools.values()}
    assert set(_figures(r"(\d[\d,]*) providers\b")) == {len(providers)}
    assert set(_figures(r"(\d[\d,]*) categories\b")) == {len(categories)}


def test_template_and_scenario_counts_match_the_files():
    templates = len(list((ROOT / "tool_specs" / "templates").glob("*.json")))
    scenarios = len(list((ROOT / "tool_specs" / "scenarios").glob("*.json")))
    assert _figures(r"(\d[\d,]*) in all\b") == [templates]
    assert _figures(r"holds (\d[\d,]*) built-in multi-turn scenarios") == [scenarios]
