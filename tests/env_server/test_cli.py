from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from env_server.catalog import default_catalog_path
from env_server.cli import app
from tests.conftest import WTB_TOOLS, require_shared

runner = CliRunner()


def test_specs_list_prints_counts_by_category_and_source():
    result = runner.invoke(app, ["specs", "list"])
    assert result.exit_code == 0, result.output
    assert "Weather" in result.output and "native" in result.output


def test_specs_show_prints_profile_and_example():
    result = runner.invoke(app, ["specs", "show", "openmeteo_get_forecast"])
    assert result.exit_code == 0, result.output
    assert "profile" in result.output and "example call" in result.output


def test_specs_show_unknown_name_suggests():
    result = runner.invoke(app, ["specs", "show", "openmeteo_get_forcast"])
    assert result.exit_code == 1
    assert "did you mean" in result.output


def test_specs_show_marks_inferred_profiles():
    path = require_shared(WTB_TOOLS)
    result = runner.invoke(app, ["specs", "show", "getShowDetail", "--catalog", str(path)])
    assert result.exit_code == 0, result.output
    assert "profile (inferred)" in result.output


def test_specs_check_passes_on_one_category_of_the_builtin_catalog():
    result = runner.invoke(app, ["specs", "check", "--catalog", str(default_catalog_path() / "weather")])
    assert result.exit_code == 0, result.output
    assert "\n0 errors, " in result.output
    assert " 1 category · " in result.output


@pytest.mark.slow
def test_specs_check_passes_on_builtin_catalog():
    result = runner.invoke(app, ["specs", "check"])
    assert result.exit_code == 0, result.output
    assert "\n0 errors, " in result.output


def test_specs_check_exits_nonzero_on_broken_specs(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({
        "provider": "Broken", "description": "x", "category": "Test",
        "functions": [{"name": "Broken Name", "description": "", "input_schema": {"type": "object",
                       "properties": {"a": {"type": "string"}}, "required": ["b"]},
                       "output_schema": {"type": "object"}, "profile": {"operation": "update", "entity": "thing"}}],
    }))
    result = runner.invoke(app, ["specs", "check", "--catalog", str(broken)])
    assert result.exit_code == 1
    out = result.output
    assert "not valid for MCP" in out
    assert "required parameter 'b' is not a property" in out
    assert "bare object" in out
    assert "need 'id_param'" in out


def test_missing_catalog_path_is_a_clean_error(tmp_path):
    result = runner.invoke(app, ["specs", "list", "--catalog", str(tmp_path / "nope.jsonl")])
    assert result.exit_code == 2
    assert "does not exist" in result.output
