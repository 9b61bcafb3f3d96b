"""``toolenv specs audit``: the detectors, the audit over real tools, and the command."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from env_server.catalog import Catalog, ProviderSpec, load_catalog
from env_server.catalog.models import ToolSpec
from env_server.cli import app
from env_server.errors import EntityNotFoundError
from env_server.simulators import SimContext
from env_server.specs.audit import (
    AuditReport,
    AuditUsageError,
    audit_catalog,
    select_tools,
)
from env_server.specs.audit_checks import (
    CheckKind,
    clock_hits,
    invariant_hits,
    lorem_exempt,
    lorem_hits,
    reads_as_lorem,
)

TODAY = dt.date(2026, 1, 15)

# -- detectors on hand-made results --------------------------------------------------------


@pytest.mark.parametrize("text", [
    "Line here decide maintain throw hope parent.",  # Faker en_US sentence()
    "economy whose thousand",  # a run of lorem words
    "Director economy whose thousand. Receive entire soon.",
])
def test_lorem_text_is_flagged(text: str) -> None:
    assert reads_as_lorem(text)


@pytest.mark.parametrize("text", [
    "Partly cloudy with a chance of rain",
    "The quick brown fox jumps over the lazy dog",
    "The Last Good Summer",  # Title Case: a title, though every word is on the list
    "Buy more dog poop bags, the big roll.",  # punctuation Faker never writes
    "cover-letter-product-manager",  # a slug, not text
    "Sunny",
])
def test_english_text_is_not_flagged(text: str) -> None:
    assert not reads_as_lorem(text)


def test_lorem_hits_walk_nested_results_with_paths() -> None:
    result = {
        "current": {"condition": {"text": "economy"}, "temp_c": 3.0},
        "breeds": [{"name": "Beagle", "breed": "hound dog"}, {"name": "figure", "breed": "Poodle"}],
        "summary": "Line here decide maintain throw hope parent.",
        "status": "active",  # not a naming field
        "model": "new",  # allowed by the schema's enum
    }
    paths = {path for path, _ in lorem_hits(result, allowed=frozenset({"new"}))}
    assert paths == {"$.current.condition.text", "$.breeds[1].name", "$.summary"}


def test_lorem_generators_are_exempt(builtin_catalog: Catalog) -> None:
    assert lorem_exempt(builtin_catalog.tools["jsonplaceholder_get_post"])
    assert lorem_exempt(builtin_catalog.tools["randommer_generate_lorem_ipsum"])
    assert not lorem_exempt(builtin_catalog.tools["openmeteo_get_forecast"])


def test_broken_invariant_is_reported_with_its_path() -> None:
    result = {"location": "Oslo", "days": [{"temp_c": 20.0, "temp_f": 68.0}, {"temp_c": 20.0, "temp_f": 10.0}]}
    hits = invariant_hits(result, {})
    assert len(hits) == 1
    path, detail = hits[0]
    assert path == "$.days[1]" and "temp_f" in detail


def test_clock_flags_write_stamps_off_today_and_as_of_dates_in_the_future() -> None:
    created = {"id": "o_1", "created_at": "2025-03-01T10:00:00Z", "meta": {"timestamp": 1767225600}}
    assert {p for p, _ in clock_hits(created, TODAY, created=True)} == {"$.created_at", "$.meta.timestamp"}
    assert clock_hits(created, TODAY, created=False) == []  # a read may show an old creation date
    assert clock_hits({"created_at": "2026-01-15T08:30:00Z"}, TODAY, created=True) == []
    current = {"current": {"last_updated": "2026-01-14 23:45", "observation_time": "2026-01-15T06:00"}}
    # A record last updated yesterday is fine for a read; for current data it must be today.
    assert clock_hits(current, TODAY, created=False) == []
    assert [p for p, _ in clock_hits(current, TODAY, created=False, current=True)] == ["$.current.last_updated"]
    future = {"last_updated": "2026-02-01"}
    assert [p for p, _ in clock_hits(future, TODAY, created=False)] == ["$.last_updated"]


# -- the audit over a tiny catalog whose simulator misbehaves on purpose ------------------
# (the environment's ``simulate`` is replaced for these tests: every tool of the catalog is flaky)

FAMILY = "flaky_api"
_OBJ: dict[str, Any] = {"type": "object"}


def _fn(name: str, operation: str, properties: dict[str, Any], required: list[str] | None = None,
        **profile: Any) -> dict[str, Any]:
    return {
        "name": name,
        "description": f"{name.replace('_', ' ').capitalize()} in the flaky test API.",
        "input_schema": {**_OBJ, "properties": properties, "required": required or []},
        "output_schema": {**_OBJ, "properties": {}},
        "profile": {"operation": operation, "entity": "widget", "family": FAMILY, **profile},
    }


@pytest.fixture(scope="module")
def flaky_catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    text = {"type": "string"}
    provider = ProviderSpec.model_validate({
        "provider": "Flaky API",
        "description": "A test API whose simulator breaks every rule the audit checks.",
        "category": "Testing",
        "functions": [
            _fn("flaky_list_widgets", "list", {"color": text}, collection="widgets"),
            _fn("flaky_get_widget", "read", {"widget_id": text}, ["widget_id"], id_param="widget_id"),
            _fn("flaky_count_widgets", "action", {}),
            _fn("flaky_create_widget", "create", {"name": text}, ["name"]),
            _fn("flaky_explode", "action", {}),
        ],
    })
    path = Path(tmp_path_factory.mktemp("flaky")) / "flaky.json"
    path.write_text(provider.model_dump_json(exclude_none=True), encoding="utf-8")
    return load_catalog([path])


def _flaky_simulator() -> Any:
    calls = {"count": 0}

    def simulate(spec: ToolSpec, args: dict[str, Any], ctx: SimContext) -> dict[str, Any]:
        if spec.name == "flaky_list_widgets":
            return {"widgets": [{"id": "w_1", "name": "figure"}, {"id": "w_2", "name": "Gizmo"}]}
        if spec.name == "flaky_get_widget":
            raise EntityNotFoundError(f"No widget '{args['widget_id']}' (404).")
        if spec.name == "flaky_count_widgets":
            calls["count"] += 1
            return {"count": calls["count"], "temp_c": 10.0, "temp_f": 10.0}
        if spec.name == "flaky_create_widget":
            return {"id": "w_9", "name": args["name"], "created_at": "2020-01-01T00:00:00Z"}
        raise RuntimeError("simulator bug")

    return simulate


def test_audit_reports_each_check_kind(flaky_catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("env_server.environment.simulate", _flaky_simulator())
    report = audit_catalog(flaky_catalog, seed=3, quiet=True)
    assert report.tools_audited == 5
    got = {(f.tool, f.check) for f in report.findings}
    assert ("flaky_list_widgets", CheckKind.LOREM) in got
    assert ("flaky_list_widgets", CheckKind.ID_CHAIN) in got
    assert ("flaky_count_widgets", CheckKind.NONDETERMINISTIC) in got
    assert ("flaky_count_widgets", CheckKind.INVARIANT) in got
    assert ("flaky_create_widget", CheckKind.CLOCK) in got
    assert ("flaky_explode", CheckKind.INFRA_ERROR) in got
    chain = [f for f in report.findings if f.check is CheckKind.ID_CHAIN]
    assert [f.path for f in chain] == ["$.widgets[0].id", "$.widgets[1].id"]  # at most 2 ids
    crash = next(f for f in report.findings if f.check is CheckKind.INFRA_ERROR)
    assert "RuntimeError: simulator bug" in crash.detail
    assert report.totals[CheckKind.INFRA_ERROR.value] == 1
    assert sum(report.totals.values()) == len(report.findings)


def test_empty_fresh_list_is_reported(flaky_catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("env_server.environment.simulate", lambda spec, args, ctx: {"widgets": []})
    report = audit_catalog(flaky_catalog, ["flaky_list_widgets"])
    assert [(f.check, f.path) for f in report.findings] == [(CheckKind.EMPTY_FRESH_LIST, "$.widgets")]


def test_a_crash_outside_the_simulator_is_an_infra_finding(
    flaky_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(spec: ToolSpec, variant: int = 0) -> dict[str, Any]:
        raise ValueError("no samples today")

    monkeypatch.setattr("env_server.specs.audit.sample_arguments", broken)
    report = audit_catalog(flaky_catalog, ["flaky_get_widget", "flaky_list_widgets"], quiet=True)
    assert report.tools_audited == 2
    assert [f.check for f in report.findings] == [CheckKind.INFRA_ERROR] * 2
    assert "ValueError: no samples today" in report.findings[0].detail


# -- the audit over real built-in tools ----------------------------------------------------


def test_select_tools_samples_deterministically(builtin_catalog: Catalog) -> None:
    first = select_tools(builtin_catalog, None, 15, seed=4)
    assert first == select_tools(builtin_catalog, None, 15, seed=4) == sorted(first)
    assert len(first) == 15 and first != select_tools(builtin_catalog, None, 15, seed=5)
    with pytest.raises(AuditUsageError, match="did you mean openmeteo_get_forecast"):
        select_tools(builtin_catalog, ["openmeteo_get_forcast"])


def test_audit_of_a_builtin_sample_returns_a_report(builtin_catalog: Catalog) -> None:
    names = select_tools(builtin_catalog, None, 15, seed=11)
    report = audit_catalog(builtin_catalog, names, seed=11, quiet=True)
    assert isinstance(report, AuditReport)
    assert report.tools_audited == 15 and report.tools == names
    assert set(report.totals) == {k.value for k in CheckKind}
    assert all(f.tool in names for f in report.findings)
    assert AuditReport.model_validate_json(report.model_dump_json()) == report


# -- the command ---------------------------------------------------------------------------

runner = CliRunner()


def test_cli_audit_json_report() -> None:
    result = runner.invoke(app, ["specs", "audit", "--sample", "5", "--seed", "2", "--json"])
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.stdout)
    assert report["tools_audited"] == 5 and len(report["tools"]) == 5
    assert result.exit_code == (1 if report["findings"] else 0)


def test_cli_audit_table_of_one_tool() -> None:
    result = runner.invoke(app, ["specs", "audit", "--tool", "openmeteo_get_forecast"])
    assert result.exit_code in (0, 1), result.output
    assert "1 tools audited" in result.stdout and "empty_fresh_list" in result.stdout


def test_cli_audit_unknown_tool_is_a_usage_error() -> None:
    result = runner.invoke(app, ["specs", "audit", "--tool", "openmeteo_get_forcast"])
    assert result.exit_code == 2
    assert "did you mean" in result.output and "openmeteo_get_forecast" in result.output
