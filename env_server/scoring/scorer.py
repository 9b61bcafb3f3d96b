"""Score tasks and sessions: match names, grade arguments, classify failures.

This is the one entry point both the live orchestrator (after a task ends, or at any time with the
steps so far) and offline scoring use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from env_server.scoring.args_strict import OFFICIAL, StrictQuirks
from env_server.scoring.grading import ArgsMode, TaskGrade, grade_steps
from env_server.scoring.matching import StepRecord, TaskMatcher, match_steps
from env_server.scoring.models import GoldSession, GoldTask, PredictedStep, TaskType, TurnSubtype
from env_server.scoring.taxonomy import TaskError, classify_argument_failure, classify_name_failure


@dataclass(frozen=True, slots=True)
class TaskScore:
    """Everything the metrics need about one task."""

    position: int
    task_type: TaskType
    turn_subtype: TurnSubtype | None
    grade: TaskGrade
    records: tuple[StepRecord, ...] = ()
    error: TaskError | None = None

    @property
    def correct(self) -> bool:
        return self.grade.label


@dataclass(frozen=True, slots=True)
class SessionScore:
    """The task scores of one session. ``failed`` marks a session whose inference crashed."""

    session_id: str
    tasks: tuple[TaskScore, ...] = ()
    failed: bool = False
    failure: str = ""

    @property
    def correct(self) -> bool:
        return not self.failed and bool(self.tasks) and all(t.correct for t in self.tasks)


@dataclass(frozen=True, kw_only=True)
class ScoringOptions:
    """How to grade arguments."""

    mode: ArgsMode = ArgsMode.STRICT
    quirks: StrictQuirks = field(default=OFFICIAL)


DEFAULT_OPTIONS = ScoringOptions()


def tool_names(task: GoldTask) -> list[str]:
    return list(task.tool_parameters())


def finish_task(
    task: GoldTask,
    records: Sequence[StepRecord],
    *,
    names_ok: bool,
    names_optimal: bool,
    options: ScoringOptions = DEFAULT_OPTIONS,
) -> TaskScore:
    """Grade arguments and classify a failure, given the judged steps of one task."""
    grade = grade_steps(
        task, records, names_ok=names_ok, names_optimal=names_optimal, mode=options.mode, quirks=options.quirks
    )
    error: TaskError | None = None
    if not grade.label:
        if grade.failed_on_arguments and grade.first_failed is not None:
            error = classify_argument_failure(grade.first_failed)
        else:
            error = classify_name_failure([r.step for r in records], task.names, tool_names(task))
    return TaskScore(task.position, task.task_type, task.turn_subtype, grade, tuple(records), error)


def score_matcher(matcher: TaskMatcher, options: ScoringOptions = DEFAULT_OPTIONS) -> TaskScore:
    """Score a (possibly still running) live matcher; an unfinished task counts as failed so far."""
    return finish_task(
        matcher.task, matcher.records, names_ok=matcher.succeeded, names_optimal=matcher.is_optimal, options=options
    )


def score_task(task: GoldTask, steps: Sequence[PredictedStep], options: ScoringOptions = DEFAULT_OPTIONS) -> TaskScore:
    """Offline: match recorded steps, then grade."""
    return score_matcher(match_steps(task, steps), options)


def score_session(
    session: GoldSession, steps_per_task: Sequence[Sequence[PredictedStep]], options: ScoringOptions = DEFAULT_OPTIONS
) -> SessionScore:
    if len(steps_per_task) != len(session.tasks):
        raise ValueError("one step list per task is required")
    tasks = tuple(score_task(t, s, options) for t, s in zip(session.tasks, steps_per_task, strict=True))
    return SessionScore(session.session_id, tasks)
