"""``score official --out``: the official score and metric files, byte for byte, against our golden files.

The inputs are built from the synthetic sessions (an oracle run and a run full of mistakes, with
one crashed session and the lines out of order). The golden outputs live in
``fixtures/official_golden/<run>/``; set ``TOOLENV_REGEN_GOLDEN=1`` to rewrite them after a
deliberate change, then review the diff. A second, independent check recounts the metric file from
the score file with the official counting rules (doc 5.4) written out here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from env_server.scoring.cli import score_app
from env_server.scoring.models import GoldTask, PredictedStep, TaskType
from env_server.scoring.official_files import EXTRAS_FILE, METRIC_FILE, SCORE_FILE
from tests.scoring.synthetic import call, oracle_steps, session_a, session_b
from tests.scoring.test_official import dataset_line, task_record

GOLDEN = Path(__file__).parent / "fixtures" / "official_golden"


def mistaken_steps(gold: GoldTask) -> list[PredictedStep]:
    """One argument or name mistake per task type, each giving a different check string."""
    kind = gold.task_type
    if kind is TaskType.PARALLEL:  # reversed call order, an extra key on one call
        return [PredictedStep.tools(call("getAQI", city="Oslo"), call("getWeather", city="Oslo", days=1)),
                PredictedStep.text("Done.")]
    if kind is TaskType.SINGLE:
        return [PredictedStep.tools(call("getWeather", city="Oslo", days="3")), PredictedStep.text("Cold.")]
    if kind is TaskType.SEQUENTIAL:
        return [PredictedStep.tools(call("searchShows", city="Bergen")), *oracle_steps(gold)[1:]]
    if kind is TaskType.MIXED:
        return [PredictedStep.tools(call("searchShows", city="Oslo")),
                PredictedStep.tools(call("getShowDetail", show_id="s9"), call("getShowDetail", show_id="s1")),
                PredictedStep.text("A and B.")]
    if kind is TaskType.CLARIFY:
        return [PredictedStep.text("Where from?"), PredictedStep.tools(call("bookTaxi", **{"from": "the Grand"})),
                PredictedStep.text("Booked.")]
    return [PredictedStep.tools(call("getWeather", city="Oslo"))]  # a tool call on a Chat task


def build_tree(root: Path, model: str, agents: dict[int, Any]) -> Path:
    """A data/ and result/<model>/ tree; ``agents[k]`` is an agent, or a string for a crashed line."""
    sessions = [session_a("wild_tool_bench_0"), session_b("wild_tool_bench_1"), session_a("wild_tool_bench_2"),
                session_b("wild_tool_bench_3")]
    (root / "data").mkdir(parents=True)
    (root / "data" / "Wild-Tool-Bench.jsonl").write_text("\n".join(json.dumps(dataset_line(s)) for s in sessions))
    lines = []
    for k in (2, 0, 3, 1):  # out of order: the score file is sorted by line index
        agent, sid = agents[k], sessions[k].session_id
        if isinstance(agent, str):
            lines.append({"id": sid, "result": agent})
        else:
            lines.append({"id": sid, "model_name": model, "result": [task_record(t, agent) for t in sessions[k].tasks]})
    path = root / "result" / model / "Wild-Tool-Bench_result.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("\n".join(json.dumps(line) for line in lines))
    return path


RUNS = {
    "oracle": {k: oracle_steps for k in range(4)},
    "mistakes": {0: mistaken_steps, 1: mistaken_steps, 2: oracle_steps, 3: "Error during inference: timeout"},
}


def write_with_cli(tmp_path: Path, run: str) -> Path:
    result = build_tree(tmp_path / "tree", f"toy-{run}", RUNS[run])
    out = tmp_path / "score"
    invoked = CliRunner().invoke(score_app, ["official", str(result), "--out", str(out)])
    assert invoked.exit_code == 0, invoked.output
    return out


@pytest.mark.parametrize("run", sorted(RUNS))
def test_score_and_metric_files_match_the_golden_files_byte_for_byte(tmp_path: Path, run: str) -> None:
    out = write_with_cli(tmp_path, run)
    for name in (SCORE_FILE, METRIC_FILE):
        golden = GOLDEN / run / name
        if os.environ.get("TOOLENV_REGEN_GOLDEN"):
            golden.parent.mkdir(parents=True, exist_ok=True)
            golden.write_bytes((out / name).read_bytes())
        assert (out / name).read_bytes() == golden.read_bytes(), name


def test_metric_file_is_unrounded_has_no_extras_and_no_trailing_newline(tmp_path: Path) -> None:
    out = write_with_cli(tmp_path, "mistakes")
    text = (out / METRIC_FILE).read_text(encoding="utf-8")
    metric = json.loads(text)
    assert not text.endswith("\n") and text.startswith('{\n    "model_name": "toy-mistakes",')
    assert list(metric) == ["model_name", "total_info", "task_type_info", "layer_info", "turn_subtype_info",
                            "optimal_info", "progress_info"]
    assert metric["total_info"]["task"]["accuracy"] == 4 / 12  # session 2 is the only correct one
    assert '"accuracy": 0.3333333333333333' in text
    extras = json.loads((out / EXTRAS_FILE).read_text())
    assert set(extras) == {"model_name", "paper_definitions", "error_taxonomy"}


def test_score_file_annotates_records_as_the_official_scorer(tmp_path: Path) -> None:
    out = write_with_cli(tmp_path, "mistakes")
    text = (out / SCORE_FILE).read_text()
    assert not text.endswith("\n")
    lines = [json.loads(t) for t in text.split("\n")]
    assert [line["id"] for line in lines] == [f"wild_tool_bench_{k}" for k in range(4)]
    assert lines[3] == {"id": "wild_tool_bench_3", "results": "Error during inference: timeout"}
    parallel = lines[0]["results"][0]
    assert list(parallel)[:4] == ["label", "action_name_label", "action_arguments_label", "is_optimal"]
    assert (parallel["label"], parallel["action_arguments_label"], parallel["is_optimal"]) == ("error", "error", False)
    step = parallel["inference_log"]["step_0"]
    assert [c["function"]["name"] for c in step["inference_output"]["tool_calls"]] == ["getAQI", "getWeather"]
    assert step["inference_output"]["current_action_arguments_label"] == "error"
    assert step["inference_output"]["current_action_arguments_check_result"][0] == "correct"
    assert "step_1" not in parallel["inference_log"]  # the one step after the argument error is deleted
    chat = lines[0]["results"][1]
    assert list(chat)[:3] == ["label", "action_name_label", "is_optimal"]  # no argument label on a name error


def _bump(cell: dict[str, int], hit: bool) -> None:
    cell["correct_count"] += hit
    cell["total_count"] += 1


def recount_metric(score_lines: list[dict[str, Any]], dataset: list[dict[str, Any]], model: str) -> dict[str, Any]:
    """The official counting (doc 5.4) over score-file lines, restated independently of our engine."""
    def cells(*names: str) -> dict[str, dict[str, int]]:
        return {n: {"correct_count": 0, "total_count": 0} for n in names}
    total, layers = cells("task", "session"), cells("0", "1", "2", "3")
    types = cells("Single-Tool", "Multi-Tool", "Parallel Multi-Tool", "Sequential Multi-Tool", "Mixed Multi-Tool",
                  "Clarify", "Chat")
    subtypes = cells("First Turn", "Subsequent Turn", "Coreferential Reference", "Partial Information",
                     "Long-Range Dependency")
    optimal = cells("Total", "Parallel Multi-Tool", "Mixed Multi-Tool")
    progress = {n: {"complete_step": 0, "total_step": 0} for n in ("Total", "Sequential Multi-Tool", "Mixed Multi-Tool")}
    for line in score_lines:
        entry = dataset[int(line["id"].rsplit("_", 1)[1])]
        tasks = line["results"] if isinstance(line["results"], list) else []
        _bump(total["session"], bool(tasks) and all(t["label"] == "correct" for t in tasks))
        for i, task in enumerate(tasks):
            ok, kind = task["label"] == "correct", entry["english_task_types"][i]
            for cell in (total["task"], types[kind], layers[str(i)]):
                _bump(cell, ok)
            if "Multi-Tool" in kind:
                _bump(types["Multi-Tool"], ok)
            _bump(subtypes["First Turn" if i == 0 else entry["english_turn_subtypes"][i - 1]], ok)
            if i:
                _bump(subtypes["Subsequent Turn"], ok)
            if kind in ("Parallel Multi-Tool", "Mixed Multi-Tool"):
                _bump(optimal["Total"], task["is_optimal"])
                _bump(optimal[kind], task["is_optimal"])
            if kind in ("Sequential Multi-Tool", "Mixed Multi-Tool"):
                done = sum(k.startswith("step") for k in task["inference_log"])
                for name in ("Total", kind):
                    progress[name]["complete_step"] += done
                    progress[name]["total_step"] += len(entry["answer_list"][i])

    def ratio(block: dict[str, dict[str, int]], first: str, num: str, den: str) -> dict[str, Any]:
        return {k: {first: c[num] / c[den] if c[den] else 0.0, **c} for k, c in block.items()}
    acc = ("accuracy", "correct_count", "total_count")
    return {"model_name": model, "total_info": ratio(total, *acc), "task_type_info": ratio(types, *acc),
            "layer_info": ratio(layers, *acc), "turn_subtype_info": ratio(subtypes, *acc),
            "optimal_info": ratio(optimal, *acc), "progress_info": ratio(progress, "rate", "complete_step", "total_step")}


@pytest.mark.parametrize("run", sorted(RUNS))
def test_metric_file_equals_the_official_recount_of_the_score_file(tmp_path: Path, run: str) -> None:
    out = write_with_cli(tmp_path, run)
    lines = [json.loads(t) for t in (out / SCORE_FILE).read_text().split("\n")]
    dataset = [json.loads(t) for t in (tmp_path / "tree" / "data" / "Wild-Tool-Bench.jsonl").read_text().splitlines()]
    expected = json.dumps(recount_metric(lines, dataset, f"toy-{run}"), indent=4, ensure_ascii=False)
    assert (out / METRIC_FILE).read_text(encoding="utf-8") == expected
