"""Official layouts: dataset lines and result files in, the official metric JSON out; the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from clients.replay_log import candidate_entry
from env_server.scoring.cli import score_app
from env_server.scoring.matching import TaskMatcher
from env_server.scoring.metrics import compute_official_metrics
from env_server.scoring.models import GoldSession, GoldTask, PredictedStep, ScoringError
from env_server.scoring.official import score_official_report, score_official_results, session_from_line
from tests.scoring.synthetic import TOOLS, Agent, call, oracle_steps, run_session, session_a, session_b


def dataset_line(session: GoldSession) -> dict[str, Any]:
    answers = [
        [{"idx": n.index, "action": {"name": n.name, "arguments": n.arguments}, "observation": n.observation,
          "dependency_list": list(n.dependencies), **({"user_input": n.user_input} if n.user_input else {})}
         for n in t.nodes]
        for t in session.tasks
    ]
    return {
        "id": session.session_id, "english_env_info": "2024-05-06 10:15:00 Monday", "english_tools": TOOLS,
        "english_tasks": [f"task {t.position}" for t in session.tasks], "english_answer_list": answers,
        "english_task_types": [t.task_type.value for t in session.tasks],
        "english_turn_subtypes": [t.turn_subtype.value for t in session.tasks[1:] if t.turn_subtype],
        "answer_list": answers,
    }


def task_record(gold: GoldTask, agent: Agent) -> dict[str, Any]:
    """Log one task the way the official runner does (doc 3.4), key orders included."""
    matcher = TaskMatcher(gold)
    opening = {"role": "user", "content": f"task {gold.position}"}
    log: dict[str, Any] = {"task_idx": gold.position, "begin_of_current_task": opening}
    for step in agent(gold):
        if matcher.finished:
            break
        record = matcher.submit(step)
        output: dict[str, Any] = {
            "reasoning_content": None, "content": step.content,
            "tool_calls": [{"id": f"call_{k}", "function": {"arguments": c.arguments, "name": c.name}, "type": "function"}
                           for k, c in enumerate(step.calls)] or None,
            "current_action_name_label": "correct" if record.name_ok else "error",
        }
        if record.reason:
            output["error_reason"] = record.reason
        entry: dict[str, Any] = {"inference_input": {"messages": [opening], "tools": TOOLS}, "inference_output": output}
        if record.name_ok:
            entry["inference_answer"] = {"candidate_0_answer_function_list": candidate_entry(gold, record.gold_nodes)}
        log[f"step_{record.index}"] = entry
    return {"action_name_label": "correct" if matcher.succeeded else "error", "is_optimal": matcher.is_optimal,
            "inference_log": log, "latency": [], "input_token_count": [], "output_token_count": []}


def wrong_chat_agent(gold: GoldTask) -> list[PredictedStep]:
    if gold.task_type.value == "Chat":
        return [PredictedStep.tools(call("getWeather", city="Oslo"))]
    if gold.task_type.value == "Sequential Multi-Tool":
        return [PredictedStep.tools(call("searchShows", city="Bergen")), *oracle_steps(gold)[1:]]
    return oracle_steps(gold)


@pytest.fixture
def official_tree(tmp_path: Path) -> Path:
    sessions = [session_a("wild_tool_bench_0"), session_b("wild_tool_bench_1"), session_a("wild_tool_bench_2")]
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "Wild-Tool-Bench.jsonl").write_text("\n".join(json.dumps(dataset_line(s)) for s in sessions))
    result_dir = tmp_path / "result" / "toy-model"
    result_dir.mkdir(parents=True)
    lines = [
        {"id": "wild_tool_bench_0", "model_name": "toy-model", "result": [task_record(t, oracle_steps) for t in sessions[0].tasks]},
        {"id": "wild_tool_bench_1", "model_name": "toy-model", "result": [task_record(t, wrong_chat_agent) for t in sessions[1].tasks]},
        {"id": "wild_tool_bench_2", "result": "Error during inference: timeout"},
    ]
    path = result_dir / "Wild-Tool-Bench_result.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines))
    return path


def test_official_result_file_scores_like_the_direct_pipeline(official_tree: Path) -> None:
    metrics = score_official_results(official_tree)
    direct = compute_official_metrics(
        [run_session(session_a(), oracle_steps), run_session(session_b(), wrong_chat_agent)], "toy-model"
    )
    direct["total_info"]["session"] = {"accuracy": 1 / 3, "correct_count": 1, "total_count": 3}
    assert metrics == direct


def test_official_metric_json_has_the_official_layout(official_tree: Path) -> None:
    metrics = score_official_results(official_tree)
    assert list(metrics) == ["model_name", "total_info", "task_type_info", "layer_info", "turn_subtype_info",
                             "optimal_info", "progress_info"]
    assert list(metrics["task_type_info"]) == ["Single-Tool", "Multi-Tool", "Parallel Multi-Tool", "Sequential Multi-Tool",
                                               "Mixed Multi-Tool", "Clarify", "Chat"]
    assert list(metrics["turn_subtype_info"]) == ["First Turn", "Subsequent Turn", "Coreferential Reference",
                                                  "Partial Information", "Long-Range Dependency"]
    assert list(metrics["optimal_info"]) == ["Total", "Parallel Multi-Tool", "Mixed Multi-Tool"]
    assert list(metrics["progress_info"]["Total"]) == ["rate", "complete_step", "total_step"]
    assert metrics["model_name"] == "toy-model"
    assert metrics["total_info"]["task"]["total_count"] == 8  # the crashed session adds no tasks


def test_report_labels_paper_definitions_and_taxonomy(official_tree: Path) -> None:
    report = score_official_report(official_tree)
    assert report["paper_definitions"]["definition"].startswith("paper")
    assert report["error_taxonomy"]["failed_tasks"] == 1
    assert report["error_taxonomy"]["reasons"] == {"call function without reject": 1}


def test_a_dataset_line_whose_id_differs_from_its_line_index_is_rejected(tmp_path: Path, official_tree: Path) -> None:
    data = tmp_path / "shuffled.jsonl"
    lines = (official_tree.parents[2] / "data" / "Wild-Tool-Bench.jsonl").read_text().splitlines()
    data.write_text("\n".join(reversed(lines)))
    with pytest.raises(ScoringError, match="does not hold this id"):
        score_official_results(official_tree, data)


def test_float_types_in_dataset_tools_are_read_as_number() -> None:
    line = dataset_line(session_a())
    line["english_tools"] = [{"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "properties": {"x": {"type": "float"}}}}}]
    session = session_from_line(line)
    assert session.tasks[0].tool_parameters()["f"]["properties"]["x"]["type"] == "number"


def test_cli_prints_tables_and_writes_the_metric_json(official_tree: Path, tmp_path: Path) -> None:
    out = tmp_path / "metric.json"
    result = CliRunner().invoke(score_app, ["official", str(official_tree), "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "By task type" in result.output and "Wrong Refusal" in result.output
    assert json.loads(out.read_text())["model_name"] == "toy-model"


def test_cli_reports_a_missing_dataset_as_an_error(tmp_path: Path) -> None:
    result_file = tmp_path / "r.jsonl"
    result_file.write_text("")
    result = CliRunner().invoke(score_app, ["official", str(result_file)])
    assert result.exit_code == 2
    assert "not found" in result.output
