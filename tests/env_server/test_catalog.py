from __future__ import annotations

import json
from pathlib import Path

import pytest

from env_server.catalog import load_catalog
from env_server.catalog.loaders import detect_format
from env_server.catalog.models import Operation, SourceFormat
from env_server.errors import CatalogError
from tests.conftest import TOOLALPACA, WTB_TOOLS, require_shared


def test_builtin_catalog_meets_the_minimum_size(builtin_catalog):
    providers = {t.provider for t in builtin_catalog.tools.values()}
    categories = {t.category for t in builtin_catalog.tools.values()}
    assert len(builtin_catalog) >= 150
    assert len(providers) >= 40
    assert len(categories) >= 8
    assert all(t.source is SourceFormat.NATIVE for t in builtin_catalog.tools.values())


def test_wildtoolbench_list_loads_every_definition_and_keeps_each_signature(wtb_catalog):
    assert wtb_catalog.definitions_read == 1248
    base_names = {t.base_name or t.name for t in wtb_catalog.tools.values()}
    assert len(base_names) == 618
    variants = [t for t in wtb_catalog.tools.values() if "__" in t.name]
    assert variants, "WildToolBench reuses names with different parameters"
    first = wtb_catalog.tools[variants[0].base_name]
    assert first.input_schema != variants[0].input_schema or first.description != variants[0].description


def test_wildtoolbench_groups_expose_original_names(wtb_catalog):
    group = wtb_catalog.groups["wild_tool_bench_0"]
    assert [exposed for exposed, _ in group][:2] == ["getRealtimeCity", "getHistoricalCity"]
    renamed = [(e, n) for g in wtb_catalog.groups.values() for e, n in g if e != n]
    assert renamed and all(n.startswith(e + "__") for e, n in renamed)


def test_float_types_are_normalized_and_recorded(wtb_catalog):
    recorded = [
        n for t in wtb_catalog.tools.values() for n in t.normalizations if "'float' -> 'number'" in n.change
    ]
    assert recorded
    for spec in wtb_catalog.tools.values():
        assert '"type": "float"' not in json.dumps(spec.input_schema)


def test_imported_specs_get_an_inferred_profile_and_output_schema(wtb_catalog):
    detail = wtb_catalog.tools["getShowDetail"]
    assert detail.profile.inferred
    assert detail.profile.operation is Operation.READ
    assert detail.profile.entity == "show"
    assert detail.output_schema["properties"]
    order = wtb_catalog.tools["placeOrder"]
    assert order.profile.operation is Operation.CREATE


def test_toolalpaca_openapi_documentation_is_imported():
    path = require_shared(TOOLALPACA / "eval_simulated.json")
    catalog = load_catalog([path])
    assert len(catalog) > 20
    spec = catalog.tools["searchAxolotlImages"]
    assert set(spec.input_schema["properties"]) >= {"color", "gender", "size"}
    assert spec.category == "Animals"


def test_openai_and_anthropic_tool_lists_are_detected(tmp_path: Path):
    openai = tmp_path / "openai.json"
    openai.write_text(json.dumps([{"type": "function", "function": {
        "name": "lookup_word", "description": "Define a word.",
        "parameters": {"type": "object", "properties": {"word": {"type": "str"}}, "required": ["word", "lang"]},
    }}]))
    anthropic = tmp_path / "anthropic.json"
    anthropic.write_text(json.dumps([{
        "name": "get_stock_quote", "description": "Latest price of a ticker.",
        "input_schema": {"type": "object", "properties": {"ticker": {"type": "string"}}, "required": ["ticker"]},
    }]))
    assert detect_format(openai) is SourceFormat.OPENAI
    assert detect_format(anthropic) is SourceFormat.ANTHROPIC
    catalog = load_catalog([openai, anthropic])
    word = catalog.tools["lookup_word"]
    assert word.input_schema["properties"]["word"]["type"] == "string"
    assert word.input_schema["required"] == ["word"]
    changes = " ".join(n.change for n in word.normalizations)
    assert "'str' -> 'string'" in changes and "not properties dropped" in changes
    assert catalog.tools["get_stock_quote"].source is SourceFormat.ANTHROPIC


def test_unreadable_catalog_path_is_a_clear_error(tmp_path: Path):
    with pytest.raises(CatalogError, match="does not exist"):
        load_catalog([tmp_path / "missing.json"])
    bad = tmp_path / "x.json"
    bad.write_text("{not json")
    with pytest.raises(CatalogError, match="invalid JSON"):
        load_catalog([bad])


def test_native_file_with_unknown_key_is_rejected(tmp_path: Path):
    spec = {"provider": "X", "description": "d", "category": "C", "bogus": 1,
            "functions": [{"name": "x_get_thing", "description": "d", "input_schema": {"type": "object"},
                           "output_schema": {"type": "object"}, "profile": {"operation": "read", "entity": "thing"}}]}
    path = tmp_path / "x.json"
    path.write_text(json.dumps(spec))
    with pytest.raises(CatalogError, match="bogus"):
        load_catalog([path])


def test_suggest_offers_close_names(builtin_catalog):
    assert "openmeteo_get_forecast" in builtin_catalog.suggest("openmeteo_get_forcast")


def test_wtb_path_constant_points_at_the_shared_layout():
    assert WTB_TOOLS.name == "tools_en.jsonl"
