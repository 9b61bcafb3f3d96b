"""QAOA export: turn structure, teacher-forced gold for failed tasks, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from env_server.scoring.cli import score_app
from env_server.scoring.models import GoldTask, PredictedStep, TaskType
from env_server.scoring.qaoa import QaoaSource, iter_qaoa, session_to_qaoa
from env_server.scoring.report import ScoredRun
from tests.scoring.synthetic import call, oracle_steps, run_session, session_a
from tests.scoring.test_official import official_tree  # noqa: F401  (fixture)

ORACLE_ROLES = [
    "human", "function_call", "observation", "function_call", "observation", "gpt",  # parallel: each call answered
    "human", "gpt",  # chat
    "human", "gpt", "human", "function_call", "observation", "gpt",  # clarify: ask, reply, call, answer
    "human", "function_call", "observation", "function_call", "observation", "gpt",  # sequential
]


def _run(agent: object) -> ScoredRun:
    gold = session_a("s0")
    return ScoredRun(name="toy", sessions=(run_session(gold, agent),), gold={"s0": gold},  # type: ignore[arg-type]
                     queries={"s0": ["q0", "q1", "q2", "q3"]}, env_info={"s0": "2024-05-06 10:15:00 Monday"})


def test_oracle_session_exports_query_action_observation_answer_turns() -> None:
    run = _run(oracle_steps)
    item = session_to_qaoa(run, run.sessions[0])
    assert item is not None
    turns = item["conversations"]
    assert [t["from"] for t in turns] == ORACLE_ROLES
    assert [t["value"] for t in turns if t["from"] == "human"] == ["q0", "q1", "q2", "From the Grand hotel.", "q3"]
    calls = [json.loads(t["value"]) for t in turns[1:5:2]]
    assert {c["name"] for c in calls} == {"getWeather", "getAQI"} and calls[0]["arguments"] == {"city": "Oslo"}
    observations = {c["name"]: json.loads(t["value"]) for c, t in zip(calls, turns[2:5:2], strict=True)}
    assert observations == {"getWeather": {"t": 12}, "getAQI": {"aqi": 20}}  # each call's own, right after it
    assert turns[5]["value"] == "<answer>Here you go.</answer>"
    assert isinstance(item["tools"], str)  # a JSON string, as UniToolCall's data and LLaMA-Factory hold it
    assert json.loads(item["tools"])[0] == {"name": "getWeather", "description": "getWeather",
                                            "inputSchema": TOOLS_0_SCHEMA}
    assert "<tools>" in item["system"] and item["system"].startswith("Current Date: 2024-05-06")
    assert item["meta"]["task_origin"] == ["model"] * 4


TOOLS_0_SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                  "required": ["city"]}


def test_failed_task_is_written_from_gold_and_correct_only_drops_the_session() -> None:
    def chatty(gold: GoldTask) -> list[PredictedStep]:
        if gold.task_type is TaskType.CHAT:
            return [PredictedStep.tools(call("getWeather", city="Oslo"))]
        return oracle_steps(gold)

    run = _run(chatty)
    item = session_to_qaoa(run, run.sessions[0])
    assert item is not None
    assert item["meta"]["task_origin"] == ["model", "gold", "model", "model"]
    assert item["meta"]["task_correct"] == [True, False, True, True]
    assert [t["from"] for t in item["conversations"]] == ORACLE_ROLES
    assert item["conversations"][7]["value"] == "<answer>Pack a jacket.</answer>"
    assert list(iter_qaoa(run, correct_only=True)) == []
    gold_item = session_to_qaoa(run, run.sessions[0], QaoaSource.GOLD)
    assert gold_item is not None and gold_item["meta"]["task_origin"] == ["gold"] * 4


def test_cli_exports_official_results_as_jsonl(official_tree: Path, tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "qaoa.jsonl"
    result = CliRunner().invoke(score_app, ["export-qaoa", str(official_tree), "--out", str(out)])
    assert result.exit_code == 0, result.output
    items = [json.loads(line) for line in out.read_text().splitlines()]
    assert [i["id"] for i in items] == ["wild_tool_bench_0", "wild_tool_bench_1"]  # the crashed session is skipped
    assert [t["from"] for t in items[0]["conversations"]] == ORACLE_ROLES
    assert items[0]["conversations"][0]["value"] == "task 0"
    assert items[1]["meta"]["task_origin"][2] == "gold"
    listed = tmp_path / "qaoa.json"
    result = CliRunner().invoke(score_app, ["export-qaoa", str(official_tree), "-o", str(listed), "--correct-only"])
    assert result.exit_code == 0, result.output
    assert [i["id"] for i in json.loads(listed.read_text())] == ["wild_tool_bench_0"]
