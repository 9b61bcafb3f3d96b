"""QAOA exports pass the acceptance rules of UniToolCall's cleaner and LLaMA-Factory's ShareGPT loader
(restated in ``qaoa_consumers.py``), on oracle runs over the built-in scenarios."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from typer.testing import CliRunner

from clients.agent_runner import RunConfig, run_eval
from clients.agents import OracleAgent
from clients.replay_runner import run_replay
from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.orchestrator import ScenarioLoad, load_scenarios
from env_server.orchestrator.gold import gold_session, scenario_tools
from env_server.orchestrator.sessions import registry_for
from env_server.runner import serve_in_thread
from env_server.scoring.cli import score_app
from env_server.scoring.models import GoldSession
from env_server.scoring.qaoa import QaoaSource, iter_qaoa
from env_server.scoring.runs import load_run
from state import Database
from tests.scoring.qaoa_consumers import llamafactory_problems, rejections, unitoolcall_problems

LIVE_SAMPLE = ["airport_ride_home", "oslo_bergen_trip_weather"]  # parallel steps, of several tools and of one


def test_the_rules_reject_what_the_consumers_reject() -> None:
    """The checker can fail: calls before observations, a list of tools, a dangling call, bad JSON."""
    tools = json.dumps([{"name": "a", "description": "", "inputSchema": {}}])
    call = json.dumps({"name": "a", "arguments": {}})
    good = {"id": "ok", "system": "", "tools": tools, "conversations": [
        {"from": "human", "value": "q"}, {"from": "function_call", "value": call},
        {"from": "observation", "value": ""}, {"from": "function_call", "value": call},
        {"from": "observation", "value": ""}, {"from": "gpt", "value": "<answer>x</answer>"}]}
    assert rejections([good]) == {}
    turns = good["conversations"]
    batched = {**good, "id": "batched", "conversations": [turns[0], turns[1], turns[3], turns[2], turns[4], turns[5]]}
    listed = {**good, "id": "listed", "tools": json.loads(tools)}
    dangling = {**good, "id": "dangling", "conversations": turns[:2]}
    unknown = {**good, "id": "unknown", "conversations": [turns[0], {"from": "function_call", "value": json.dumps(
        {"name": "b", "arguments": "{"})}, *turns[2:]]}
    late_user = {**good, "id": "late_user", "conversations": [*turns[:3], {"from": "human", "value": "q"}, turns[5]]}
    assert unitoolcall_problems(batched) == {"invalid_flow"} and llamafactory_problems(batched) == {"invalid_role"}
    assert llamafactory_problems(listed) == {"bad_type"} and not unitoolcall_problems(listed)
    assert unitoolcall_problems(dangling) == {"incomplete_flow"}
    assert unitoolcall_problems(unknown) == {"tool_not_found", "invalid_function_call_json"}
    assert rejections([late_user]) == {"late_user": {"invalid_flow", "invalid_role", "invalid_count"}}


@pytest.fixture(scope="module")
def builtin_scenarios() -> ScenarioLoad:
    return load_scenarios()


@pytest.fixture(scope="module")
def replay_runs(tmp_path_factory: pytest.TempPathFactory, builtin_scenarios: ScenarioLoad,
                builtin_catalog: Catalog) -> Path:
    """``toolenv eval --protocol replay --agent oracle --out <this>`` over every built-in scenario."""
    out = tmp_path_factory.mktemp("runs")
    config = RunConfig(agent="oracle", concurrency=8)
    anyio.run(lambda: run_replay(builtin_scenarios.scenarios, OracleAgent, config, out / "oracle-replay",
                                 catalog=builtin_catalog))
    return out


@pytest.mark.parametrize("source", list(QaoaSource))
def test_every_session_of_an_oracle_replay_run_passes_both_consumers(replay_runs: Path, source: QaoaSource,
                                                                     builtin_scenarios: ScenarioLoad) -> None:
    run = load_run(replay_runs / "oracle-replay")  # the run directory stands for its one result file
    items = list(iter_qaoa(run, source))
    assert len(items) == len(builtin_scenarios.scenarios) >= 24
    assert rejections(items) == {}
    roles = [t["from"] for i in items for t in i["conversations"]]
    assert roles.count("function_call") == roles.count("observation") > 0


def test_export_reads_the_runs_parent_directory_and_writes_one_json_array(replay_runs: Path, tmp_path: Path,
                                                                         builtin_scenarios: ScenarioLoad) -> None:
    out = tmp_path / "sft.data"
    result = CliRunner().invoke(score_app, ["export-qaoa", str(replay_runs), "--out", str(out), "--format", "json"])
    assert result.exit_code == 0, result.output
    items = json.loads(out.read_text())
    assert isinstance(items, list) and len(items) == len(builtin_scenarios.scenarios) and rejections(items) == {}
    assert all(isinstance(i["tools"], str) and json.loads(i["tools"]) for i in items)


def test_a_directory_of_several_runs_names_the_paths_to_pass(replay_runs: Path, tmp_path: Path) -> None:
    (tmp_path / "a" / "sessions").mkdir(parents=True)
    (tmp_path / "a" / "sessions" / "x.jsonl").write_text("{}\n")
    (tmp_path / "b" / "result" / "m").mkdir(parents=True)
    (tmp_path / "b" / "result" / "m" / "Wild-Tool-Bench_result.jsonl").write_text("")
    result = CliRunner().invoke(score_app, ["export-qaoa", str(tmp_path), "--out", str(tmp_path / "q.jsonl")])
    assert result.exit_code == 2
    assert "holds 2 runs; pass one of:" in result.output and str(tmp_path / "a") in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(score_app, ["export-qaoa", str(empty), "--out", str(tmp_path / "q.jsonl")])
    assert result.exit_code == 2 and "not a run: pass a run directory" in result.output


def test_a_hybrid_20_live_run_records_the_offered_tools_and_exports_them(builtin_scenarios: ScenarioLoad,
                                                               builtin_catalog: Catalog, tmp_path: Path) -> None:
    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings())
    registry_for(env, builtin_scenarios)
    chosen = [s for s in builtin_scenarios.scenarios if s.id in LIVE_SAMPLE]
    with serve_in_thread(env) as base:  # the app sets the admin token as it starts
        config = RunConfig(agent="oracle", tool_pool=20, concurrency=2, admin_token=env.settings.admin_token)
        summary = anyio.run(run_eval, base, chosen, OracleAgent, config, tmp_path / "oracle")
    assert summary["task_accuracy"] == 1.0
    def gold_for(scenario_id: str) -> GoldSession:
        spec = next(s for s in chosen if s.id == scenario_id)
        return gold_session(spec, scenario_tools(spec, builtin_catalog))

    run = load_run(tmp_path, gold_for=gold_for)  # the --out directory holds this one run
    items = {i["id"]: i for i in iter_qaoa(run)}
    assert rejections(list(items.values())) == {}
    for spec in chosen:
        head = json.loads((tmp_path / "oracle" / "sessions" / f"{spec.id}.jsonl").read_text().splitlines()[0])
        offered = [t["function"]["name"] for t in head["tools"]]
        assert len(offered) == 20 and set(spec.tools) < set(offered)  # Hybrid-20, distractors included
        assert [t["name"] for t in json.loads(items[spec.id]["tools"])] == offered
