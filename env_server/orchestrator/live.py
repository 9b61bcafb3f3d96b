"""The live protocol: one scenario played by any agent over MCP, matched call by call.

A :class:`ScenarioSession` is a ``ToolEnvironment`` session over the scenario's tools (seed
and date from the scenario) plus a :class:`~env_server.orchestrator.user.ScriptedUser`. It
registers itself as the session's call hook, so every tool call, whatever transport it
came by, passes through :meth:`ScenarioSession.before_call` first.

Steps. The gold DAG is matched one *model step* at a time with the scoring engine's
:class:`~env_server.scoring.TaskMatcher`, exactly as offline scoring does. Calls of one step
are grouped by ``params._meta["toolenv/step"]`` when the client sends it. Calls without it
join the open step when they arrive within ``overlap_window`` seconds of its last call (a
batch of concurrent requests), else open a new step; such tasks are reported with
``approximate_grouping``. A step is judged when the next one opens or the agent replies.

Observations. A call is paired tentatively with a gold node of the candidate steps that can
still contain it; if its arguments pass the argument check against that node (its native match rules included), the
node's recorded observation is pinned for it, so the call returns exactly that. Any other
call is answered by the simulator: the world stays live.

Text. The agent's text reply (REST ``reply``) is judged as a text step; the scripted user
answers a clarification with the gold ``user_input`` or moves on to the next task.
A per-task budget of ``max_steps`` calls truncates runaway agents: further calls are
refused with an error result and the task is reported ``truncated`` (not ``terminated``).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from env_server.environment import ToolEnvironment
from env_server.faults import Fault
from env_server.orchestrator.errors import SessionFinishedError
from env_server.orchestrator.models import ScenarioSpec
from env_server.orchestrator.reports import (
    CallEntry,
    SessionResult,
    SessionStatus,
    TaskReport,
    TaskStatus,
    TurnKind,
    UserTurn,
)
from env_server.orchestrator.user import ScriptedUser, Verdict
from env_server.scoring import (
    GoldSession,
    GoldTask,
    PredictedCall,
    PredictedStep,
    TaskMatcher,
    TaskScore,
    score_matcher,
)
from env_server.scoring.recovery import CallTrace, Recovery, canonical_arguments, recovery_of
from env_server.scoring.rules import check_gold_call
from env_server.session_types import CallOutcome

STEP_META_KEY = "toolenv/step"
DEFAULT_MAX_STEPS = 16
DEFAULT_OVERLAP_WINDOW_S = 0.1


@dataclass
class _OpenStep:
    index: int
    step_id: str | None
    last_arrival: float
    calls: list[PredictedCall] = field(default_factory=list)
    claimed: set[int] = field(default_factory=set)
    faulted: list[tuple[str, str]] = field(default_factory=list)  # (name, canonical args) awaiting a retry


@dataclass
class LiveTask:
    """Run-time state of one task."""

    index: int
    gold: GoldTask
    matcher: TaskMatcher
    status: TaskStatus = TaskStatus.PENDING
    calls: int = 0
    faults: int = 0  # calls an injected fault answered (never matched, not in ``calls``)
    steps: int = 0
    terminated: bool = False
    truncated: bool = False
    approximate: bool = False
    open_step: _OpenStep | None = None

    @property
    def ended(self) -> bool:
        return self.status in (TaskStatus.COMPLETED, TaskStatus.FAILED)


def step_id_of(meta: Mapping[str, Any] | None) -> str | None:
    value = (meta or {}).get(STEP_META_KEY)
    return None if value is None else str(value)


class ScenarioSession:
    """One scenario played live; thread-safe. Implements ``environment.CallHook``."""

    def __init__(
        self,
        session_id: str,
        spec: ScenarioSpec,
        gold: GoldSession,
        env: ToolEnvironment,
        *,
        max_steps: int = DEFAULT_MAX_STEPS,
        overlap_window: float = DEFAULT_OVERLAP_WINDOW_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session_id = session_id
        self.spec = spec
        self.env = env
        self.max_steps = max_steps
        self.overlap_window = overlap_window
        self.user = ScriptedUser(spec)
        self.tasks = [LiveTask(i, t, TaskMatcher(t)) for i, t in enumerate(gold.tasks)]
        self.task_index = 0
        self.done = False
        self.entries: list[CallEntry] = []
        self.transcript: list[dict[str, Any]] = []
        self._clock = clock
        self._lock = threading.RLock()
        self._running: CallEntry | None = None
        self._last_turn: UserTurn | None = None
        self.user_channel = False
        self.distractors: list[str] = []

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> UserTurn:
        """Open task 0 and return its user message."""
        with self._lock:
            self.tasks[0].status = TaskStatus.RUNNING
            return self._say(TurnKind.TASK, self.user.opening(0))

    def current_turn(self) -> UserTurn:
        """What the user said last (the end-of-session turn once done); judges nothing."""
        with self._lock:
            if self._last_turn is None:
                raise SessionFinishedError(f"scenario session '{self.session_id}' has not started")
            return self._last_turn

    @property
    def current(self) -> LiveTask:
        return self.tasks[self.task_index]

    def reply(self, content: str) -> UserTurn:
        """The agent's text answer or question; returns what the user says next."""
        with self._lock:
            if self.done:
                raise SessionFinishedError(
                    f"scenario session '{self.session_id}' has ended: all {len(self.tasks)} tasks were answered"
                )
            task = self.current
            self._close_step(task)
            self.transcript.append({"role": "assistant", "task": task.index, "content": content})
            record = None
            if not task.matcher.finished and not task.truncated:
                record = task.matcher.submit(PredictedStep(content=content or None))
                task.steps += 1
            verdict = ScriptedUser.verdict(record)
            if verdict is Verdict.CLARIFY and record is not None:
                return self._say(TurnKind.CLARIFICATION, self.user.clarification(task.matcher, record))
            task.status = TaskStatus.COMPLETED if verdict is Verdict.COMPLETE else TaskStatus.FAILED
            task.terminated = not task.truncated
            return self._advance(task.index)

    def end_step(self) -> None:
        """Judge the open tool step now, for a client that knows its step is complete (RL env)."""
        with self._lock:
            if not self.done:
                self._close_step(self.current)

    def _advance(self, finished: int) -> UserTurn:
        if self.task_index + 1 >= len(self.tasks):
            self.done = True
            self._last_turn = UserTurn(session_id=self.session_id, kind=TurnKind.END, content=None,
                                       task_index=self.task_index, done=True, finished_task=finished)
            return self._last_turn
        self.task_index += 1
        self.current.status = TaskStatus.RUNNING
        return self._say(TurnKind.TASK, self.user.opening(self.task_index), finished)

    def _say(self, kind: TurnKind, content: str, finished: int | None = None) -> UserTurn:
        self.transcript.append({"role": "user", "task": self.task_index, "kind": kind.value, "content": content})
        self._last_turn = UserTurn(session_id=self.session_id, kind=kind, content=content,
                                   task_index=self.task_index, finished_task=finished)
        return self._last_turn

    # -- the call hook --------------------------------------------------------------------

    def before_call(self, name: str, arguments: dict[str, Any], meta: Mapping[str, Any] | None) -> str | None:
        return self._admit(name, arguments, meta, None)

    def before_fault(self, name: str, arguments: dict[str, Any], meta: Mapping[str, Any] | None,
                     fault: Fault) -> str | None:
        """An injected fault answers this call: logged, never matched, not counted in the call budget."""
        return self._admit(name, arguments, meta, fault)

    def _admit(self, name: str, arguments: dict[str, Any], meta: Mapping[str, Any] | None,
               fault: Fault | None) -> str | None:
        """Log a call in its task and step, or return why it is refused; ``fault`` marks one a fault answers."""
        with self._lock:
            self._running = None
            task = self.current
            step_id = step_id_of(meta)
            refusal = self._refusal(task, name, arguments, step_id)
            if refusal is not None:
                return refusal
            if fault is None:
                task.calls += 1
            else:
                task.faults += 1
            step = self._step_for(task, step_id, name, arguments)
            if fault is None:
                step.calls.append(PredictedCall.of(name, arguments))
                entry = CallEntry(task=task.index, step=step.index, step_id=step_id, name=name,
                                  arguments=arguments, pinned=self._pin(task, step, name, arguments))
            else:
                step.faulted.append((name, canonical_arguments(arguments)))
                entry = CallEntry(task=task.index, step=step.index, step_id=step_id, name=name, arguments=arguments,
                                  fault=fault.code.value)
            self.entries.append(entry)
            self._running = entry
            return None

    def _refusal(self, task: LiveTask, name: str, arguments: dict[str, Any], step_id: str | None) -> str | None:
        if self.done:
            return "This scenario session has ended; no more tool calls are accepted."
        if task.calls >= self.max_steps:
            task.truncated = True
            self.entries.append(CallEntry(task=task.index, step=task.steps, step_id=step_id, name=name,
                                          arguments=arguments, refused=True, is_error=True))
            return (f"Step budget exhausted: this task allows {self.max_steps} tool calls. "
                    "Answer the user in text now.")
        return None

    def after_call(self, name: str, arguments: dict[str, Any], outcome: CallOutcome) -> None:
        with self._lock:
            entry, self._running = self._running, None
            if entry is None:
                return
            entry.seq = outcome.seq
            entry.is_error = outcome.is_error
            if outcome.fault is not None:
                entry.result = outcome.fault.body()
            else:
                entry.result = outcome.result if not outcome.is_error else {"error": outcome.message}

    def _step_for(self, task: LiveTask, step_id: str | None, name: str, arguments: dict[str, Any]) -> _OpenStep:
        """The step a call joins: the open one (same step id, or within the overlap window), else a new one.

        A retry of a call an injected fault answered joins the step of the faulted call, whatever
        its step id, so the fault never splits a step (and never costs a step or a pairing).
        """
        now = self._clock()
        if step_id is None:
            task.approximate = True
        step = task.open_step
        if step is not None:
            if step_id is not None:
                same = step_id == step.step_id
            else:
                same = step.step_id is None and now - step.last_arrival <= self.overlap_window
            retry = (name, canonical_arguments(arguments)) if step.faulted else None
            if not same and retry in step.faulted:
                step.faulted.remove(retry)
                same = True
            elif same and retry in step.faulted:
                step.faulted.remove(retry)
            if same:
                step.last_arrival = now
                return step
            self._close_step(task)
        task.open_step = _OpenStep(index=task.steps, step_id=step_id, last_arrival=now)
        task.steps += 1
        return task.open_step

    def _close_step(self, task: LiveTask) -> None:
        step, task.open_step = task.open_step, None
        if step is not None and not step.calls and step.index == task.steps - 1:
            task.steps -= 1  # only faulted calls: not a step
        if step is not None and step.calls and not task.matcher.finished:
            task.matcher.submit(PredictedStep(calls=tuple(step.calls)))

    def _pin(self, task: LiveTask, step: _OpenStep, name: str, arguments: dict[str, Any]) -> bool:
        """Pin the observation of the first unclaimed gold node this call can stand for."""
        if task.matcher.finished:
            return False
        wanted = Counter(c.name for c in step.calls)
        parameters = task.gold.tool_parameters().get(name)
        nodes = task.gold.nodes
        for move in task.matcher.cursor.candidates():
            if wanted - Counter(nodes[i].name for i in move.step):
                continue
            for i in sorted(move.step):
                node = nodes[i]
                if node.name != name or i in step.claimed or not isinstance(node.observation, dict):
                    continue
                if check_gold_call(parameters, arguments, node.arguments, node.match).ok:
                    self.env.pin_observation(self.session_id, name, arguments, node.observation)
                    step.claimed.add(i)
                    return True
        return False

    def status(self) -> SessionStatus:
        """What the session's driver may see: progress and transcript, no judgement and no gold."""
        with self._lock:
            return SessionStatus(
                session_id=self.session_id,
                scenario_id=self.spec.id,
                task_index=self.task_index,
                task_count=len(self.tasks),
                tasks_ended=sum(t.ended for t in self.tasks),
                done=self.done,
                user_channel=self.user_channel,
                tool_count=len(self.env.view(self.session_id).names) + int(self.user_channel),
                transcript=[dict(m) for m in self.transcript],
            )

    # -- results --------------------------------------------------------------------------

    def result(self) -> SessionResult:
        with self._lock:
            reports = [self._report(t) for t in self.tasks]
            recovery = fault_recovery(self.entries)
        correct = sum(r.label == "correct" for r in reports)
        return SessionResult(
            session_id=self.session_id,
            scenario_id=self.spec.id,
            task_index=self.task_index,
            done=self.done,
            tasks=reports,
            correct=correct,
            accuracy=round(correct / len(reports), 4) if reports else 0.0,
            faults=recovery.faulted,
            recovered=recovery.recovered,
            recovery=recovery.rate,
        )

    def _report(self, task: LiveTask) -> TaskReport:
        score = score_matcher(task.matcher)
        decided = task.ended or task.matcher.finished or task.truncated
        grade = score.grade
        spec = self.spec.tasks[task.index]
        return TaskReport(
            index=task.index,
            task_type=spec.task_type.value,
            subtype=spec.subtype.value if spec.subtype else None,
            status=task.status,
            label=("correct" if score.correct else "error") if decided else None,
            terminated=task.terminated,
            truncated=task.truncated,
            action_name_ok=grade.action_name_ok if decided else None,
            arguments_ok=grade.arguments_ok if decided else None,
            is_optimal=grade.is_optimal if decided else None,
            steps=task.steps,
            calls=task.calls,
            faults=task.faults,
            reason=None if score.correct or not decided else failure_reason(task, score, self.max_steps),
            error_type=score.error.reason.value if decided and score.error is not None else None,
            approximate_grouping=task.approximate,
        )


def fault_recovery(entries: list[CallEntry]) -> Recovery:
    """Faulted and recovered calls among a session's call entries (``scoring.recovery``)."""
    traces = [CallTrace(e.task, e.name, canonical_arguments(e.arguments), e.fault,
                        ok=not e.is_error and not e.refused and e.fault is None) for e in entries]
    return recovery_of(traces)


def failure_reason(task: LiveTask, score: TaskScore, max_steps: int) -> str:
    """One sentence on why a task failed."""
    if task.truncated:
        return f"step budget exhausted: more than {max_steps} tool calls"
    judged = next((r for r in task.matcher.records if r.reason), None)
    if judged is not None:
        got = ", ".join(sorted(c.name for c in judged.step.calls)) or "a text reply"
        wanted = "; ".join("+".join(c) for c in judged.candidates[:8]) or "nothing"
        return f"step {judged.index}: {judged.reason} (got {got}; expected one of: {wanted})"
    failed = score.grade.first_failed
    if failed is not None:
        return f"step {failed.step_index}: arguments of {failed.name} failed the check: {failed.message}"
    if not task.matcher.finished:
        return "the task ended before its final answer"
    return "the task was not answered correctly"
