"""``toolenv eval --protocol replay``: the official offline protocol and its result-file layout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from typer.testing import CliRunner

from clients.agent_runner import RunConfig
from clients.agents import OpenAIAgent, OracleAgent, ScriptedAgent
from clients.eval_cli import eval_app
from clients.replay_runner import RESULT_FILE, SCENARIO_IDS_FILE, replay_tools, run_replay
from env_server.orchestrator.gold import gold_task
from env_server.orchestrator.loading import load_scenarios
from env_server.scoring import ASK, PREPARE, PathEngine
from env_server.scoring.matching import NAME_MISMATCH_REASON
from env_server.scoring.official import iter_result_lines, score_official_results, score_official_sessions
from tests.orchestrator.conftest import OFFICIAL
from tests.orchestrator.fake_llm import fake_llm, text, tool_calls


def gold_steps(spec, index: int) -> list[dict[str, Any]]:
    """The oracle's steps of one task in the ScriptedAgent format."""
    gold = gold_task(spec.tasks[index], index, [])
    steps: list[dict[str, Any]] = []
    for step in PathEngine.from_task(gold).first_optimal_path():
        first = gold.nodes[step[0]]
        if first.name in (ASK, PREPARE):
            steps.append({"text": first.observation or "Done."})
        else:
            steps.append({"calls": [{"name": gold.nodes[i].name, "arguments": gold.nodes[i].arguments} for i in step]})
    return steps


def run(scenarios, make_agent, tmp_path: Path, *, agent: str = "oracle", model: str | None = None, catalog=None):
    config = RunConfig(agent=agent, model=model, concurrency=8)
    summary = anyio.run(lambda: run_replay(scenarios, make_agent, config, tmp_path / "run", catalog=catalog))
    return summary, Path(summary["result_file"])


def scenario_ids(result: Path) -> dict[str, str]:
    """The sidecar ``{official id: scenario id}`` of the run that wrote ``result``."""
    return json.loads((result.parents[2] / SCENARIO_IDS_FILE).read_text())


def official_labels(result: Path) -> dict[str, list[str]]:
    """Per-task verdicts of ``toolenv score official`` keyed by our scenario id."""
    ids = scenario_ids(result)
    _, sessions = score_official_sessions(result)
    return {ids[s.session_id]: ["correct" if t.correct else "error" for t in s.tasks] for s in sessions}


def test_oracle_scores_100_percent_via_replay_and_the_official_scorer_agrees(builtin_scenarios, builtin_catalog,
                                                                             tmp_path):
    scenarios = builtin_scenarios.scenarios
    summary, result = run(scenarios, OracleAgent, tmp_path, catalog=builtin_catalog)
    assert summary["protocol"] == "replay" and summary["failed_sessions"] == 0
    assert summary["tasks"] == 4 * len(scenarios) and summary["task_accuracy"] == 1.0
    assert result == tmp_path / "run" / "result" / "oracle" / RESULT_FILE
    metrics = score_official_results(result)  # finds <run>/data/Wild-Tool-Bench.jsonl by itself
    assert metrics["model_name"] == "oracle"
    assert metrics["total_info"]["task"] == {"accuracy": 1.0, "correct_count": summary["tasks"],
                                             "total_count": summary["tasks"]}
    assert metrics["total_info"]["session"]["accuracy"] == 1.0
    assert metrics["optimal_info"]["Total"]["accuracy"] == 1.0
    pairs = list(iter_result_lines(result))
    ids = scenario_ids(result)
    assert [ids[line["id"]] for line, _ in pairs] == [s.id for s in scenarios]
    for k, (line, data) in enumerate(pairs):
        assert line["id"] == data["id"] == f"wild_tool_bench_{k}" and data["toolenv_scenario_id"] == ids[line["id"]]
        assert list(line) == ["id", "model_name", "result"]
        for record in line["result"]:
            assert record["action_name_label"] == "correct" and record["is_optimal"] is True
            steps = [key for key in record["inference_log"] if key.startswith("step_")]
            assert len(record["latency"]) == len(steps) and "inference_answer" in record["inference_log"][steps[-1]]


def test_replay_reads_the_official_jsonl_format_without_a_catalog(tmp_path):
    scenarios = load_scenarios(OFFICIAL).scenarios
    summary, result = run(scenarios, OracleAgent, tmp_path)
    assert summary["task_accuracy"] == 1.0
    assert score_official_results(result)["total_info"]["session"]["accuracy"] == 1.0
    assert [line["id"] for line, _ in iter_result_lines(result)] == [s.id for s in scenarios]


def _current(spec, messages: list[dict[str, Any]]) -> tuple[int, int]:
    """(task index, step index) of a replay request: count task openings, then model turns since."""
    task_texts = [t.user_message for t in spec.tasks]
    openings = [k for k, m in enumerate(messages) if m["role"] == "user" and m["content"] in task_texts]
    last = openings[-1]
    return task_texts.index(messages[last]["content"]), sum(m["role"] == "assistant" for m in messages[last:])


def test_a_fake_llm_that_errs_stops_that_task_and_later_tasks_still_get_gold_history(builtin_scenarios, builtin_catalog,
                                                                                    tmp_path):
    spec = builtin_scenarios.get("nba_player_stats")  # task 0 is a chain A -> B -> answer
    script = {i: gold_steps(spec, i) for i in range(len(spec.tasks))}
    used = {c["name"] for s in script[0] if "calls" in s for c in s["calls"]}
    wrong = next(t["function"]["name"] for t in replay_tools(spec, builtin_catalog) if t["function"]["name"] not in used)

    def respond(body: dict[str, Any]) -> dict[str, Any]:
        task, step = _current(spec, body["messages"])
        if (task, step) == (0, 1):
            return tool_calls((wrong, {}))
        entry = script[task][step]
        if "calls" in entry:
            return tool_calls(*((c["name"], c["arguments"]) for c in entry["calls"]))
        return text(entry["text"])

    with fake_llm(respond) as (llm, seen):
        summary, result = run([spec], lambda: OpenAIAgent(base_url=llm, model="fake/model"), tmp_path,
                              agent="openai", model="fake/model", catalog=builtin_catalog)
    assert summary["per_task"][spec.id] == ["error", "correct", "correct", "correct"]
    assert official_labels(result) == summary["per_task"]
    # task 0 made exactly two model calls: the matched first call, then the mismatch
    first_task = [_current(spec, body["messages"]) for body in seen if _current(spec, body["messages"])[0] == 0]
    assert first_task == [(0, 0), (0, 1)]
    assert seen[0]["model"] == "fake/model" and seen[0]["messages"][0] == {
        "role": "system", "content": f"Current Date: {spec.env_info}"}
    assert {t["function"]["name"] for t in seen[0]["tools"]} == set(spec.tool_names)
    # the step after the matched call saw the gold observation under the model's call id
    second = next(body for body in seen if _current(spec, body["messages"]) == (0, 1))
    gold0 = gold_task(spec.tasks[0], 0, [])
    first_node = gold0.nodes[PathEngine.from_task(gold0).first_optimal_path()[0][0]]
    assert second["messages"][-1]["tool_call_id"] == "call_0"
    assert json.loads(second["messages"][-1]["content"]) == json.loads(json.dumps(first_node.observation))
    # task 1 opens with the gold history of task 0, never the model's wrong call
    opening = next(body for body in seen if _current(spec, body["messages"]) == (1, 0))["messages"]
    history_calls = [c["function"]["name"] for m in opening if m.get("tool_calls") for c in m["tool_calls"]]
    assert history_calls == [c["name"] for s in script[0] if "calls" in s for c in s["calls"]]
    assert wrong not in history_calls
    assert all(c["id"].startswith("toolu_bdrk_") for m in opening if m.get("tool_calls") for c in m["tool_calls"])
    history_tools = [m for m in opening if m["role"] == "tool"]
    assert history_tools and all(json.loads(m["content"]) is not None for m in history_tools)
    assert opening[-2]["role"] == "assistant" and opening[-2]["content"] == script[0][-1]["text"]
    # the result file: task 0 logged two steps, the second a name error listing the candidates
    line, _ = next(iter_result_lines(result))
    log = line["result"][0]["inference_log"]
    assert sorted(k for k in log if k.startswith("step_")) == ["step_0", "step_1"]
    assert log["step_1"]["inference_output"]["error_reason"] == NAME_MISMATCH_REASON
    assert "candidate_0_answer_function_list" in log["step_1"]["inference_answer"]
    assert line["model_name"] == "fake/model" and result.parent.name == "fake_model"


def test_a_flawed_scripted_agent_gets_the_same_verdicts_from_score_official(builtin_scenarios, builtin_catalog,
                                                                            tmp_path):
    ids = ["airport_ride_home", "concert_gift_tickets", "cocktail_party_menu", "nba_player_stats", "etsy_shop_listing"]
    specs = [builtin_scenarios.get(i) for i in ids]
    script = {s.id: [gold_steps(s, i) for i in range(len(s.tasks))] for s in specs}
    airport, concert, cocktail, nba, etsy = (script[i] for i in ids)
    airport[0] = [{"calls": airport[1][0]["calls"][:1]}]  # a chat answered with a tool call
    airport[1][0]["calls"][0]["arguments"] = {"wrong": 1}  # right names, wrong arguments
    concert[1] = concert[1][1:]  # acts where it should ask
    cocktail[0] = [{"calls": [c]} for c in cocktail[0][0]["calls"]] + cocktail[0][1:]  # parallel done serially
    nba[3] = [nba[3][1], nba[3][0], *nba[3][2:]]  # a chain in the wrong order
    etsy[2] = []  # the script runs out: the fallback text where a call is due
    summary, result = run(specs, lambda: ScriptedAgent(script=script), tmp_path, agent="scripted",
                          catalog=builtin_catalog)
    assert summary["per_task"] == {
        "airport_ride_home": ["error", "error", "correct", "correct"],
        "cocktail_party_menu": ["correct", "correct", "correct", "correct"],
        "concert_gift_tickets": ["correct", "error", "correct", "correct"],
        "etsy_shop_listing": ["correct", "correct", "error", "correct"],
        "nba_player_stats": ["correct", "correct", "correct", "error"],
    }
    assert official_labels(result) == summary["per_task"]
    ids = scenario_ids(result)
    line = next(line for line, _ in iter_result_lines(result) if ids[line["id"]] == "cocktail_party_menu")
    assert line["result"][0]["is_optimal"] is False and line["result"][1]["is_optimal"] is True
    line = next(line for line, _ in iter_result_lines(result) if ids[line["id"]] == "airport_ride_home")
    assert line["result"][1]["action_name_label"] == "correct"  # names matched; the arguments fail later


def test_cli_protocol_replay_writes_the_official_layout(builtin_scenarios, tmp_path):
    result = CliRunner().invoke(eval_app, ["--protocol", "replay", "--scenario", "film_club_schedule",
                                           "--scenario", "oslo_bergen_trip_weather", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "task accuracy 100.0%" in result.output
    path = tmp_path / "oracle-replay" / "result" / "oracle" / RESULT_FILE
    assert score_official_results(path)["total_info"]["task"]["correct_count"] == 8
    assert json.loads((tmp_path / "oracle-replay" / "config.json").read_text())["protocol"] == "replay"
