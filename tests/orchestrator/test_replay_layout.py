"""The replay result file, field for field as the official inference writes it (doc 3.4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio

from clients.agent_runner import RunConfig
from clients.agents import OpenAIAgent, OracleAgent
from clients.replay_log import official_candidates, sdk_message
from clients.replay_runner import SCENARIO_IDS_FILE, run_replay
from env_server.orchestrator.loading import load_scenarios
from env_server.scoring import PREPARE, PathEngine, PredictedStep, TaskMatcher, TaskType
from env_server.scoring.official import iter_result_lines
from tests.orchestrator.conftest import OFFICIAL
from tests.orchestrator.fake_llm import fake_llm, text, tool_calls
from tests.scoring.synthetic import call, node, task


def replay(make_agent: Any, tmp_path: Path, **config: Any) -> tuple[Path, list[dict[str, Any]]]:
    scenarios = load_scenarios(OFFICIAL).scenarios
    summary = anyio.run(lambda: run_replay(scenarios, make_agent, RunConfig(concurrency=1, **config), tmp_path / "run"))
    result = Path(summary["result_file"])
    return result, [line for line, _ in iter_result_lines(result)]


def test_task_records_and_logs_have_the_official_keys_and_shapes(tmp_path: Path) -> None:
    result, lines = replay(OracleAgent, tmp_path, agent="oracle")
    assert all(list(line) == ["id", "model_name", "result"] for line in lines)  # no scenario_id key
    assert json.loads((tmp_path / "run" / SCENARIO_IDS_FILE).read_text()) == {
        "wild_tool_bench_0": "wild_tool_bench_0", "wild_tool_bench_1": "wild_tool_bench_1"}
    record = lines[0]["result"][2]  # Clarify: ask, ask, reserveKayak, answer
    assert list(record) == ["action_name_label", "is_optimal", "inference_log", "latency", "input_token_count",
                            "output_token_count"]
    log = record["inference_log"]
    assert log["begin_of_current_task"] == log["step_0"]["inference_input"]["messages"][-1]
    assert log["begin_of_current_task"]["role"] == "user" and isinstance(log["begin_of_current_task"]["content"], str)
    answers = [log[f"step_{k}"]["inference_answer"]["candidate_0_answer_function_list"] for k in range(4)]
    assert list(answers[0]) == ["action", "observation", "user_input"]  # an ask: question and user reply
    assert list(answers[2]) == ["action"]  # a tool step: no observations
    assert list(answers[3]) == ["action", "observation"] and isinstance(answers[3]["observation"], str)
    assert answers[3]["action"][0]["name"] == PREPARE


def test_messages_to_the_model_use_the_sdk_and_official_key_orders(tmp_path: Path) -> None:
    def respond(body: dict[str, Any]) -> dict[str, Any]:
        last = body["messages"][-1]
        if last["role"] == "user" and "tide" in last["content"].lower() and body["messages"][-2]["role"] == "system":
            return tool_calls(("lookupTideTable", {"place": "x"}), ("lookupTideTable", {"place": "y"}))
        return text("Done.")

    with fake_llm(respond) as (llm, seen):
        _, lines = replay(lambda: OpenAIAgent(base_url=llm, model="m"), tmp_path, agent="openai", model="m")
    second = next(b for b in seen if b["messages"][-1]["role"] == "tool")["messages"]
    assistant, tool = second[-3], second[-1]
    assert list(assistant) == ["role", "content", "tool_calls"]
    assert [list(c) for c in assistant["tool_calls"]] == [["id", "function", "type"]] * 2
    assert list(assistant["tool_calls"][0]["function"]) == ["arguments", "name"]
    assert list(tool) == ["role", "content", "tool_call_id"]
    logged = lines[0]["result"][0]["inference_log"]["step_0"]["inference_output"]["tool_calls"]
    assert [list(c) for c in logged] == [["id", "function", "type"]] * 2
    later = next(b for b in seen if sum(m["role"] == "user" for m in b["messages"]) >= 3)["messages"]
    history_call = next(m for m in later if m.get("tool_calls"))["tool_calls"][0]
    assert list(history_call) == ["type", "function", "id"] and list(history_call["function"]) == ["name", "arguments"]
    assert list(next(m for m in later if m["role"] == "tool")) == ["role", "content", "tool_call_id"]


def test_sdk_message_reorders_calls_and_keeps_unknown_keys() -> None:
    raw = {"role": "assistant", "content": None, "tool_calls": [
        {"type": "function", "index": 0, "function": {"name": "f", "arguments": "{}"}, "id": "c1"}]}
    assert sdk_message(raw)["tool_calls"] == [{"id": "c1", "function": {"arguments": "{}", "name": "f"},
                                              "type": "function", "index": 0}]
    assert list(sdk_message(raw)["tool_calls"][0]) == ["id", "function", "type", "index"]


def _three_parallel():
    return task(TaskType.PARALLEL, [node(0, "a"), node(1, "b"), node(2, "c"), node(3, PREPARE, deps=(0, 1, 2))], 0)


def _reference(gold, prefix: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The official list: the element at this step of every enumerated path that starts with ``prefix``."""
    paths = PathEngine.from_task(gold).iter_paths()
    s = len(prefix)
    return [p[s] for p in paths if len(p) > s and [set(x) for x in p[:s]] == [set(x) for x in prefix]]


def test_error_step_candidates_keep_one_entry_per_path_duplicates_included() -> None:
    gold = _three_parallel()
    matcher = TaskMatcher(gold)
    matcher.submit(PredictedStep.tools(call("zzz")))
    got = list(official_candidates(matcher))
    assert got == _reference(gold, [])
    assert len(got) == 13 and got.count((0,)) == 3  # [a] opens three paths: b,c / c,b / (b,c)


def test_error_step_candidates_after_a_matched_step_follow_the_pruned_paths() -> None:
    gold = _three_parallel()
    matcher = TaskMatcher(gold)
    matcher.submit(PredictedStep.tools(call("b")))
    matcher.submit(PredictedStep.tools(call("zzz")))
    assert list(official_candidates(matcher)) == _reference(gold, [(1,)])
