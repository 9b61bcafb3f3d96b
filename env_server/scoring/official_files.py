"""Write the official score files byte for byte: ``Wild-Tool-Bench_score.jsonl`` and ``_metric.json``.

The official scorer (doc 5.1, 5.5) annotates each task record of the result file in place and
writes the annotated records out. We reproduce that annotation from our own grade of the task
(:class:`~env_server.scoring.grading.TaskGrade`), so the labels in the file are the labels our
metrics count:

* every graded tool step gets its predicted ``tool_calls`` and its gold ``action`` list sorted by
  (name, argument string), then ``current_action_arguments_label`` and, on failure,
  ``current_action_arguments_check_result`` (one check string per pair);
* the one step after the first argument error is deleted and the task's name label turns
  ``correct``;
* ``action_arguments_label`` goes in second place when the name label is correct, an argument
  error clears ``is_optimal``, and ``label`` goes in first place.

Formats (doc 5.2b): the score file is ``json.dumps`` with its defaults, lines sorted by the id's
line index, no newline after the last line; the metric file is indented by 4 with
``ensure_ascii=False`` and no trailing newline. The metric's ``model_name`` is the name of the
directory holding the result file, as the official runner takes it. Our extras (paper-era
definitions, error taxonomy) go to :data:`EXTRAS_FILE` beside them.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from env_server.scoring.grading import CallCheck, TaskGrade
from env_server.scoring.metrics import compute_error_taxonomy, compute_official_metrics, compute_paper_definitions
from env_server.scoring.official import iter_result_lines, line_index, score_result_line, session_from_line, step_keys
from env_server.scoring.scorer import DEFAULT_OPTIONS, ScoringOptions, SessionScore

SCORE_FILE = "Wild-Tool-Bench_score.jsonl"
METRIC_FILE = "Wild-Tool-Bench_metric.json"
EXTRAS_FILE = "Wild-Tool-Bench_metric_extras.json"


def _with_key_at(record: dict[str, Any], position: int, key: str, value: Any) -> dict[str, Any]:
    items = list(record.items())
    items.insert(position, (key, value))
    return dict(items)


def _sort_step(entry: dict[str, Any]) -> None:
    """Sort a graded step's predicted calls and gold actions by (name, argument string), in place."""
    output = entry["inference_output"]
    output["tool_calls"] = sorted(
        output.get("tool_calls") or [], key=lambda c: (c["function"]["name"], c["function"]["arguments"])
    )
    answer = entry["inference_answer"]["candidate_0_answer_function_list"]
    answer["action"] = sorted(answer["action"], key=lambda a: (a["name"], a["arguments"]))


def _label_step(entry: dict[str, Any], checks: Sequence[CallCheck]) -> None:
    _sort_step(entry)
    output = entry["inference_output"]
    ok = all(c.ok for c in checks)
    output["current_action_arguments_label"] = "correct" if ok else "error"
    if not ok:
        output["current_action_arguments_check_result"] = [c.message for c in checks]


def annotate_task(record: dict[str, Any], grade: TaskGrade) -> dict[str, Any]:
    """One task record of the result file, annotated as the official scorer writes it."""
    out = copy.deepcopy(record)
    log = out.get("inference_log", {})
    keys = step_keys(log)
    for pos, key in enumerate(keys):
        if pos == grade.deleted_step:
            out["action_name_label"] = "correct"
            del log[key]
            break
        checks = [c for c in grade.checks if c.step_index == pos]
        if checks:
            _label_step(log[key], checks)
    if out.get("action_name_label") == "correct":
        out = _with_key_at(out, 1, "action_arguments_label", "correct" if grade.arguments_ok else "error")
        if not grade.arguments_ok and out.get("is_optimal") is True:
            out["is_optimal"] = False
    return _with_key_at(out, 0, "label", "correct" if grade.label else "error")


def score_line(line: dict[str, Any], score: SessionScore) -> dict[str, Any]:
    """The score-file line of one result line."""
    result = line.get("result")
    if not isinstance(result, list):
        return {"id": line.get("id"), "results": result}
    return {"id": line.get("id"), "results": [annotate_task(r, t.grade) for r, t in zip(result, score.tasks, strict=False)]}


def build_official_files(
    result_path: str | Path, data_path: str | Path | None = None, options: ScoringOptions = DEFAULT_OPTIONS
) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """(score lines, metric document, extras document) for one official result file."""
    result_path = Path(result_path)
    pairs = sorted(iter_result_lines(result_path, data_path), key=lambda p: line_index(str(p[0].get("id", ""))))
    lines: list[dict[str, Any]] = []
    sessions: list[SessionScore] = []
    for line, data_line in pairs:
        score = score_result_line(line, session_from_line(data_line), options)
        sessions.append(score)
        lines.append(score_line(line, score))
    model_name = result_path.resolve().parent.name
    extras = {
        "model_name": model_name,
        "paper_definitions": compute_paper_definitions(sessions),
        "error_taxonomy": compute_error_taxonomy(sessions),
    }
    return lines, compute_official_metrics(sessions, model_name), extras


def score_file_text(lines: Sequence[dict[str, Any]]) -> str:
    return "\n".join(json.dumps(line) for line in lines)


def metric_file_text(metric: dict[str, Any]) -> str:
    return json.dumps(metric, indent=4, ensure_ascii=False)


def write_official_files(
    result_path: str | Path, out_dir: str | Path, data_path: str | Path | None = None,
    options: ScoringOptions = DEFAULT_OPTIONS,
) -> dict[str, Path]:
    """Write the score, metric and extras files into ``out_dir``; returns their paths."""
    lines, metric, extras = build_official_files(result_path, data_path, options)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"score": out / SCORE_FILE, "metric": out / METRIC_FILE, "extras": out / EXTRAS_FILE}
    paths["score"].write_text(score_file_text(lines), encoding="utf-8")
    paths["metric"].write_text(metric_file_text(metric), encoding="utf-8")
    paths["extras"].write_text(json.dumps(extras, indent=4, ensure_ascii=False) + "\n", encoding="utf-8")
    return paths
