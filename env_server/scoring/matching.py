"""Step matching ("enumerate-match", doc 3.2-3.3), one model step at a time.

:class:`TaskMatcher` is the live view: an orchestrator submits each model step as it arrives and
gets back a :class:`StepRecord` saying whether the step matched, which gold nodes it consumed (so
their observations or user replies can be fed back) and whether the task is over. Offline
scoring drives the same class with a recorded list of steps (:func:`match_steps`).

Only names are matched here; arguments are graded afterwards (grading.py), exactly as the
official loop does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from env_server.scoring.models import ASK, PREPARE, GoldTask, PredictedStep, ScoringError
from env_server.scoring.paths import PathCursor, PathEngine
from env_server.scoring.rules import ArgRule

EMPTY_OUTPUT_REASON = "tool_calls and content are None or empty"
PARSE_FAILED_REASON = "parse tool_calls failed"
NAME_MISMATCH_REASON = "action name not in candidate_answer_function_list"
MAX_LOGGED_CANDIDATES = 64


class StepStatus(str, Enum):
    """How one model step was judged by name."""

    CALLS_MATCHED = "calls_matched"
    ASKED = "asked"
    ANSWERED = "answered"
    EMPTY_OUTPUT = "empty_output"
    PARSE_FAILED = "parse_failed"
    NO_CANDIDATE_ENTRY = "no_candidate_entry"
    NAME_MISMATCH = "name_mismatch"

    @property
    def name_ok(self) -> bool:
        return self in (StepStatus.CALLS_MATCHED, StepStatus.ASKED, StepStatus.ANSWERED)


@dataclass(frozen=True, slots=True)
class StepRecord:
    """One judged model step. ``gold_actions`` are (name, JSON arguments) in name-sorted order."""

    index: int
    step: PredictedStep
    status: StepStatus
    gold_nodes: tuple[int, ...] = ()
    gold_actions: tuple[tuple[str, str], ...] = ()
    reason: str | None = None
    candidates: tuple[tuple[str, ...], ...] = ()
    gold_rules: tuple[Mapping[str, ArgRule] | None, ...] = ()
    """Native match rules of ``gold_actions`` (same order); None entries grade officially."""

    @property
    def graded_natively(self) -> bool:
        return any(rules is not None for rules in self.gold_rules)

    @property
    def name_ok(self) -> bool:
        return self.status.name_ok

    @property
    def ends_task(self) -> bool:
        return self.status not in (StepStatus.CALLS_MATCHED, StepStatus.ASKED)

    @property
    def is_tool_step(self) -> bool:
        return bool(self.step.calls)

    @property
    def gold_is_pseudo(self) -> bool:
        return any(name in (ASK, PREPARE) for name, _ in self.gold_actions)


class TaskMatcher:
    """Incremental matcher of one task's model steps against its gold DAG."""

    def __init__(self, task: GoldTask, engine: PathEngine | None = None) -> None:
        self.task = task
        self.engine = engine or PathEngine.from_task(task)
        self.min_length = self.engine.min_length
        self.cursor = PathCursor(self.engine)
        self.records: list[StepRecord] = []
        self.finished = False
        self.succeeded = False

    @property
    def is_optimal(self) -> bool:
        """Name-level optimality: finished correctly in ``min_length`` steps (before args)."""
        return self.succeeded and len(self.records) == self.min_length

    def submit(self, step: PredictedStep) -> StepRecord:
        if self.finished:
            raise ScoringError("task already finished; no more steps are accepted")
        record = self._judge(step, len(self.records))
        self.records.append(record)
        if record.ends_task:
            self.finished = True
            self.succeeded = record.status is StepStatus.ANSWERED
        return record

    def observations(self, record: StepRecord) -> list[Any]:
        """Gold observations for a matched tool step, in the order tool messages are sent."""
        return [self.task.nodes[i].observation for i in record.gold_nodes]

    def user_reply(self, record: StepRecord) -> str | None:
        """The gold user reply after an ask step."""
        return self.task.nodes[record.gold_nodes[0]].user_input if record.gold_nodes else None

    def _sorted_nodes(self, nodes: Iterable[int]) -> tuple[int, ...]:
        return tuple(sorted(nodes, key=lambda i: self.task.nodes[i].name))

    def _record(self, index: int, step: PredictedStep, status: StepStatus, nodes: tuple[int, ...] = ()) -> StepRecord:
        ordered = self._sorted_nodes(nodes)
        actions = tuple((self.task.nodes[i].name, self.task.nodes[i].arguments_json()) for i in ordered)
        rules = tuple(self.task.nodes[i].match for i in ordered)
        return StepRecord(index, step, status, ordered, actions, gold_rules=rules)

    def _name_error(self, index: int, step: PredictedStep) -> StepRecord:
        logged: list[tuple[str, ...]] = []
        for move in self.cursor.candidates():
            if len(logged) >= MAX_LOGGED_CANDIDATES:
                break
            logged.append(tuple(sorted(self.task.nodes[i].name for i in move.step)))
        return StepRecord(index, step, StepStatus.NAME_MISMATCH, reason=NAME_MISMATCH_REASON, candidates=tuple(logged))

    def _judge(self, step: PredictedStep, index: int) -> StepRecord:
        if not step.calls:
            if not step.content:
                return StepRecord(index, step, StepStatus.EMPTY_OUTPUT, reason=EMPTY_OUTPUT_REASON)
            move = self.cursor.match_text()
            if move is None:
                return self._name_error(index, step)
            if self.task.nodes[move.step[0]].name == ASK:
                self.cursor.advance_unpruned()
                return self._record(index, step, StepStatus.ASKED, move.step)
            return self._record(index, step, StepStatus.ANSWERED, move.step)
        if any(not call.name for call in step.calls):
            return StepRecord(index, step, StepStatus.PARSE_FAILED, reason=PARSE_FAILED_REASON)
        if index >= self.engine.size:
            return StepRecord(index, step, StepStatus.NO_CANDIDATE_ENTRY, reason=f"current step: {index}, idx_list is None")
        move = self.cursor.match_calls([call.name for call in step.calls])
        if move is None:
            return self._name_error(index, step)
        self.cursor.advance_pruned(move.step)
        return self._record(index, step, StepStatus.CALLS_MATCHED, move.step)


def match_steps(task: GoldTask, steps: Iterable[PredictedStep], engine: PathEngine | None = None) -> TaskMatcher:
    """Offline: feed recorded steps until the task ends; extra steps after the end are ignored."""
    matcher = TaskMatcher(task, engine)
    for step in steps:
        if matcher.finished:
            break
        matcher.submit(step)
    return matcher
