"""Read WildToolBench data lines and official result files; score them in the official layout.

The official result layout (doc 3.4) is one JSON line per scenario, ``{"id", "model_name",
"result": [task record x 4]}``, or ``{"id", "result": "Error during inference: ..."}``. The task
labels come from the dataset file (line k holds ``wild_tool_bench_k``). When no dataset path is
given we look where the official tree keeps it: ``<root>/data/Wild-Tool-Bench.jsonl`` for a result
file at ``<root>/result/<model>/Wild-Tool-Bench_result.jsonl``, then next to the result file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from env_server.scoring.matching import StepRecord, StepStatus
from env_server.scoring.metrics import compute_official_metrics, compute_report
from env_server.scoring.models import (
    ASK,
    PREPARE,
    GoldNode,
    GoldSession,
    GoldTask,
    PredictedCall,
    PredictedStep,
    ScoringError,
    TaskType,
    TurnSubtype,
)
from env_server.scoring.scorer import DEFAULT_OPTIONS, ScoringOptions, SessionScore, TaskScore, finish_task

DATA_FILE = "Wild-Tool-Bench.jsonl"
_STEP_KEY = re.compile(r"^step_(\d+)$")


def rewrite_float_types(value: Any) -> Any:
    """The runner's float->number rewrite of tool schemas (scoring only ever sees ``number``)."""
    if isinstance(value, dict):
        return {k: ("number" if k == "type" and v == "float" else rewrite_float_types(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [rewrite_float_types(v) for v in value]
    return value


def _node(raw: dict[str, Any], index: int) -> GoldNode:
    action = raw.get("action", {})
    return GoldNode(
        index=index,
        name=action.get("name", ""),
        arguments=action.get("arguments") or {},
        dependencies=tuple(raw.get("dependency_list", [])),
        observation=raw.get("observation"),
        user_input=raw.get("user_input"),
    )


def session_from_line(line: dict[str, Any]) -> GoldSession:
    """Convert one dataset line (doc 2.1) into our input types. Unknown fields are ignored."""
    try:
        answers = line["english_answer_list"]
        types = line["english_task_types"]
        subtypes = line.get("english_turn_subtypes", [])
        tools = rewrite_float_types(line.get("english_tools", []))
        twin = line.get("answer_list")
        tasks = []
        for i, nodes in enumerate(answers):
            twin_count = len(twin[i]) if isinstance(twin, list) and i < len(twin) else None
            tasks.append(
                GoldTask(
                    nodes=[_node(n, k) for k, n in enumerate(nodes)],
                    task_type=TaskType(types[i]),
                    turn_subtype=TurnSubtype(subtypes[i - 1]) if i >= 1 and i - 1 < len(subtypes) else None,
                    position=i,
                    tools=tools,
                    progress_node_count=twin_count,
                )
            )
    except (KeyError, ValueError, IndexError) as exc:
        raise ScoringError(f"{line.get('id', '?')}: malformed dataset line: {exc}") from exc
    return GoldSession(session_id=str(line.get("id", "")), tasks=tasks)


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        for n, text in enumerate(fh, 1):
            if text.strip():
                try:
                    yield json.loads(text)
                except ValueError as exc:
                    raise ScoringError(f"{path}:{n}: invalid JSON: {exc}") from exc


def locate_dataset(result_path: Path) -> Path:
    candidates = [result_path.parent / DATA_FILE]
    if len(result_path.parents) > 2:
        candidates.insert(0, result_path.parents[2] / "data" / DATA_FILE)
    for candidate in candidates:
        if candidate.exists():
            return candidate
    raise ScoringError(f"dataset {DATA_FILE} not found next to {result_path}; pass its path explicitly")


def line_index(scenario_id: str) -> int:
    """The dataset line index k of ``wild_tool_bench_k`` (the part after the last underscore)."""
    try:
        return int(scenario_id.rsplit("_", 1)[1])
    except (IndexError, ValueError) as exc:
        raise ScoringError(f"cannot parse a line index from id {scenario_id!r}") from exc


def _call(raw: dict[str, Any]) -> PredictedCall:
    fn = raw.get("function") or {}
    args = fn.get("arguments", "")
    if not isinstance(args, str):
        args = json.dumps(args, ensure_ascii=False)
    return PredictedCall(name=fn.get("name") or "", arguments=args, call_id=str(raw.get("id") or ""))


def _status(out: dict[str, Any], step: PredictedStep, is_last: bool, task_ok: bool) -> StepStatus:
    if out.get("current_action_name_label") == "correct":
        if step.calls:
            return StepStatus.CALLS_MATCHED
        return StepStatus.ANSWERED if is_last and task_ok else StepStatus.ASKED
    reason = str(out.get("error_reason") or "")
    if step.is_empty:
        return StepStatus.EMPTY_OUTPUT
    if reason.startswith("parse tool_calls failed"):
        return StepStatus.PARSE_FAILED
    if "idx_list is None" in reason:
        return StepStatus.NO_CANDIDATE_ENTRY
    return StepStatus.NAME_MISMATCH


def step_keys(log: dict[str, Any]) -> list[str]:
    """The ``step_<n>`` keys of an inference log, in step order."""
    numbered = [(int(m.group(1)), k) for k in log if (m := _STEP_KEY.match(k))]
    return [k for _, k in sorted(numbered)]


def records_from_log(record: dict[str, Any]) -> list[StepRecord]:
    """Rebuild judged steps from one task record's ``inference_log``."""
    log = record.get("inference_log", {})
    keys = step_keys(log)
    task_ok = record.get("action_name_label") == "correct"
    out: list[StepRecord] = []
    for pos, key in enumerate(keys):
        entry = log[key]
        output = entry.get("inference_output", {}) or {}
        step = PredictedStep(content=output.get("content"), calls=tuple(_call(c) for c in output.get("tool_calls") or []))
        status = _status(output, step, pos == len(keys) - 1, task_ok)
        gold: list[tuple[str, str]] = []
        answer = entry.get("inference_answer") or {}
        if status.name_ok and "candidate_0_answer_function_list" in answer:
            for action in answer["candidate_0_answer_function_list"].get("action", []):
                args = action.get("arguments", "{}")
                gold.append((action.get("name", ""), args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)))
        gold.sort(key=lambda a: a[0])
        if not step.calls and status.name_ok and not gold:
            gold = [(PREPARE if status is StepStatus.ANSWERED else ASK, "{}")]
        out.append(StepRecord(pos, step, status, gold_actions=tuple(gold), reason=output.get("error_reason")))
    return out


def _logged_tools(record: dict[str, Any]) -> list[dict[str, Any]] | None:
    for key, entry in record.get("inference_log", {}).items():
        if _STEP_KEY.match(key):
            tools = (entry.get("inference_input") or {}).get("tools")
            if tools:
                return tools
    return None


def score_result_line(line: dict[str, Any], session: GoldSession, options: ScoringOptions) -> SessionScore:
    result = line.get("result", line.get("results"))
    if not isinstance(result, list):
        return SessionScore(str(line.get("id", "")), failed=True, failure=str(result))
    tasks: list[TaskScore] = []
    for task, record in zip(session.tasks, result, strict=False):
        records = records_from_log(record)
        tools = _logged_tools(record)
        if tools is not None:
            task = task.model_copy(update={"tools": tools})
        tasks.append(
            finish_task(
                task,
                records,
                names_ok=record.get("action_name_label") == "correct",
                names_optimal=bool(record.get("is_optimal")),
                options=options,
            )
        )
    return SessionScore(session.session_id, tuple(tasks))


def score_official_sessions(
    result_path: str | Path, data_path: str | Path | None = None, options: ScoringOptions = DEFAULT_OPTIONS
) -> tuple[str, list[SessionScore]]:
    """Score every line of an official result file; returns (model name, session scores)."""
    result_path = Path(result_path)
    model_name = ""
    sessions = []
    for line, data_line in iter_result_lines(result_path, data_path):
        model_name = model_name or str(line.get("model_name") or "")
        sessions.append(score_result_line(line, session_from_line(data_line), options))
    return model_name or result_path.parent.name, sessions


def iter_result_lines(
    result_path: str | Path, data_path: str | Path | None = None
) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(result line, its dataset line) pairs of an official result file, ids checked."""
    result_path = Path(result_path)
    data = Path(data_path) if data_path is not None else locate_dataset(result_path)
    dataset = list(read_jsonl(data))
    for line in read_jsonl(result_path):
        scenario_id = str(line.get("id", ""))
        k = line_index(scenario_id)
        if not 0 <= k < len(dataset) or dataset[k].get("id") != scenario_id:
            raise ScoringError(f"{scenario_id}: dataset line {k} does not hold this id")
        yield line, dataset[k]


def score_official_results(
    path: str | Path, data_path: str | Path | None = None, options: ScoringOptions = DEFAULT_OPTIONS
) -> dict[str, Any]:
    """Score an official result file; returns the official metric JSON layout (doc 5.5)."""
    model_name, sessions = score_official_sessions(path, data_path, options)
    return compute_official_metrics(sessions, model_name)


def score_official_report(
    path: str | Path, data_path: str | Path | None = None, options: ScoringOptions = DEFAULT_OPTIONS
) -> dict[str, Any]:
    """The official layout plus the labelled paper definitions and error taxonomy."""
    model_name, sessions = score_official_sessions(path, data_path, options)
    return compute_report(sessions, model_name)
