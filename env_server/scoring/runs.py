"""Loaders that turn scored inputs into a :class:`~env_server.scoring.report.ScoredRun`.

* :func:`load_official_run`: an official ``Wild-Tool-Bench_result.jsonl`` plus its dataset. The
  user messages and environment text come from the dataset line (``english_tasks``,
  ``english_env_info``), falling back to the logged ``begin_of_current_task``.
* :func:`score_run_dir`: a run directory written by ``toolenv eval``, scored with the same engine.
* :func:`load_run`: either, chosen by the path (``inputs.resolve_input``: a run directory, a result
  file, a replay run's directory or the directory holding one run).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from env_server.scoring.inputs import resolve_input
from env_server.scoring.models import GoldSession, PredictedCall, PredictedStep, ScoringError
from env_server.scoring.official import iter_result_lines, score_result_line, session_from_line
from env_server.scoring.recovery import CallTrace, Recovery, canonical_arguments, recovery_of
from env_server.scoring.report import ScoredRun
from env_server.scoring.scorer import DEFAULT_OPTIONS, ScoringOptions, SessionScore, score_session


def _queries(line: dict[str, Any], data_line: dict[str, Any]) -> list[str]:
    tasks = data_line.get("english_tasks")
    if isinstance(tasks, list) and all(isinstance(t, str) for t in tasks):
        return list(tasks)
    result = line.get("result")
    if not isinstance(result, list):
        return []
    return [_task_text((r.get("inference_log") or {}).get("begin_of_current_task")) for r in result]


def _task_text(opening: Any) -> str:
    """``begin_of_current_task`` is the user message ``{role, content}`` (older logs: its text)."""
    if isinstance(opening, dict):
        return str(opening.get("content") or "")
    return str(opening or "")


def load_official_run(
    result_path: str | Path,
    data_path: str | Path | None = None,
    options: ScoringOptions = DEFAULT_OPTIONS,
    name: str | None = None,
) -> ScoredRun:
    """Score an official result file and keep what the reports and the QAOA export need."""
    result_path = Path(result_path)
    model_name = ""
    sessions: list[SessionScore] = []
    gold: dict[str, GoldSession] = {}
    queries: dict[str, list[str]] = {}
    env_info: dict[str, str] = {}
    for line, data_line in iter_result_lines(result_path, data_path):
        session = session_from_line(data_line)
        model_name = model_name or str(line.get("model_name") or "")
        sessions.append(score_result_line(line, session, options))
        gold[session.session_id] = session
        queries[session.session_id] = _queries(line, data_line)
        if isinstance(data_line.get("english_env_info"), str):
            env_info[session.session_id] = data_line["english_env_info"]
    return ScoredRun(
        name=name or model_name or result_path.parent.name,
        sessions=tuple(sessions),
        gold=gold,
        queries=queries,
        env_info=env_info,
        source=str(result_path),
    )


GoldLookup = Callable[[str], GoldSession | None]


def _read_lines(path: Path) -> list[dict[str, Any]]:
    try:
        return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines() if t.strip()]
    except ValueError as exc:
        raise ScoringError(f"{path}: invalid JSON line: {exc}") from exc


def faulted_call_ids(events: Sequence[dict[str, Any]]) -> set[str]:
    """Call ids whose result an injected fault gave (``fault`` on the ``tool_result`` event)."""
    return {str(e.get("call_id")) for e in events if e.get("type") == "tool_result" and e.get("fault")}


def fault_traces(events: Sequence[dict[str, Any]]) -> list[CallTrace]:
    """Every answered call of a run transcript, in order, as recovery counts them."""
    calls = {str(e.get("call_id")): e for e in events if e.get("type") == "tool_call"}
    traces = []
    for event in events:
        call = calls.get(str(event.get("call_id"))) if event.get("type") == "tool_result" else None
        if call is None or not isinstance(call.get("task"), int):
            continue
        fault = event.get("fault")
        traces.append(CallTrace(call["task"], str(call.get("name") or ""), canonical_arguments(call.get("arguments", {})),
                                str(fault) if fault else None, ok=not event.get("is_error") and not fault))
    return traces


class _StepBuilder:
    """Groups a transcript's calls into steps, as the live session did (``orchestrator.live``)."""

    def __init__(self, task_count: int, faulted: set[str]) -> None:
        self.steps: list[list[PredictedStep]] = [[] for _ in range(task_count)]
        self.faulted = faulted
        self.open: tuple[int, Any] | None = None  # (task, step_id) of the open step
        self.has_step = False  # the open step is ``steps[task][-1]`` (it has a scored call)
        self.pending: list[tuple[str, str]] = []  # faulted calls of the open step awaiting a retry

    def call(self, task: int, event: dict[str, Any]) -> None:
        args = event.get("arguments", {})
        name = str(event.get("name") or "")
        retry = (name, canonical_arguments(args))
        key = (task, event.get("step_id"))
        same = self.open == key or retry in self.pending  # a retry joins the faulted call's step
        if retry in self.pending:
            self.pending.remove(retry)
        if not same:
            self.open, self.has_step, self.pending = key, False, []
        if str(event.get("call_id")) in self.faulted:
            self.pending.append(retry)
            return
        call = PredictedCall(name=name, call_id=str(event.get("call_id") or ""),
                             arguments=args if isinstance(args, str) else json.dumps(args, ensure_ascii=False))
        if self.has_step and self.steps[task]:
            last = self.steps[task][-1]
            self.steps[task][-1] = PredictedStep(content=last.content, calls=(*last.calls, call))
        else:
            self.steps[task].append(PredictedStep.tools(call))
            self.has_step = True

    def text(self, task: int, content: Any) -> None:
        self.steps[task].append(PredictedStep(content=content or None))
        self.open, self.has_step, self.pending = None, False, []


def steps_from_events(events: Sequence[dict[str, Any]], task_count: int) -> list[list[PredictedStep]]:
    """Model steps per task from a run transcript: calls sharing a ``step_id`` form one step,
    an assistant message is a text step (or the text of the calls that follow it in the same step).
    Calls an injected fault answered are left out (never scored), and a retry of one joins the
    faulted call's step, as it did live."""
    builder = _StepBuilder(task_count, faulted_call_ids(events))
    for event in events:
        task = event.get("task")
        if not isinstance(task, int) or not 0 <= task < task_count:
            continue
        kind = event.get("type")
        if kind == "tool_call":
            builder.call(task, event)
        elif kind == "message" and event.get("role") == "assistant":
            builder.text(task, event.get("content"))
    return builder.steps


def task_texts(lines: Sequence[dict[str, Any]], count: int) -> list[str]:
    """The user message opening each of ``count`` tasks in a run transcript ("" when not logged)."""
    texts = [""] * count
    for line in lines:
        task = line.get("task")
        if line.get("type") == "message" and line.get("kind") == "task" and isinstance(task, int) and task < count:
            texts[task] = str(line.get("content") or "")
    return texts


def score_run_dir(
    run_dir: str | Path, gold_for: GoldLookup, options: ScoringOptions = DEFAULT_OPTIONS, name: str | None = None
) -> ScoredRun:
    """Score a ``toolenv eval`` run directory (``config.json``, ``sessions/*.jsonl``; format in
    :mod:`clients.agent_runner`) with the offline engine. ``gold_for`` maps a scenario id to its
    gold session. A session whose file has an ``error`` line counts as crashed, like an official
    ``Error during inference`` line. The tools each session offered (its head line's ``tools``)
    are kept for the QAOA export. Calls an injected fault answered are not scored; the recovery
    from them is counted per session (``scoring.recovery``)."""
    run_dir = Path(run_dir)
    config_path = run_dir / "config.json"
    config = json.loads(config_path.read_text(encoding="utf-8")) if config_path.exists() else {}
    files = sorted((run_dir / "sessions").glob("*.jsonl"))
    if not files:
        raise ScoringError(f"{run_dir}: no sessions/*.jsonl files (not a run directory?)")
    sessions: list[SessionScore] = []
    gold: dict[str, GoldSession] = {}
    queries: dict[str, list[str]] = {}
    env_info: dict[str, str] = {}
    tools: dict[str, list[dict[str, Any]]] = {}
    recovery: dict[str, Recovery] = {}
    for path in files:
        lines = _read_lines(path)
        head = next((line for line in lines if line.get("type") == "session"), {})
        scenario_id = str(head.get("scenario_id") or path.stem)
        session = gold_for(scenario_id)
        if session is None:
            raise ScoringError(f"{path}: scenario {scenario_id!r} is not among the loaded scenarios")
        gold[scenario_id] = session
        if isinstance(head.get("env_info"), str):
            env_info[scenario_id] = head["env_info"]
        if isinstance(head.get("tools"), list):
            tools[scenario_id] = head["tools"]
        count = len(session.tasks)
        queries[scenario_id] = task_texts(lines, count)
        recovery[scenario_id] = recovery_of(fault_traces(lines))
        error = next((str(line.get("message")) for line in lines if line.get("type") == "error"), None)
        if error is not None:
            sessions.append(SessionScore(scenario_id, failed=True, failure=error))
            continue
        sessions.append(score_session(session, steps_from_events(lines, count), options))
    return ScoredRun(name=name or str(config.get("run") or run_dir.name), sessions=tuple(sessions), gold=gold,
                     queries=queries, env_info=env_info, tools=tools, recovery=recovery, source=str(run_dir))


def load_run(
    path: str | Path,
    data_path: str | Path | None = None,
    options: ScoringOptions = DEFAULT_OPTIONS,
    name: str | None = None,
    gold_for: GoldLookup | None = None,
) -> ScoredRun:
    """A run directory (needs ``gold_for``) or an official result file, chosen by the path as
    :func:`~env_server.scoring.inputs.resolve_input` resolves it."""
    path = resolve_input(path)
    if path.is_dir():
        if gold_for is None:
            raise ScoringError(f"{path}: scoring a run directory needs the scenarios it ran")
        return score_run_dir(path, gold_for, options, name)
    return load_official_run(path, data_path, options, name)
