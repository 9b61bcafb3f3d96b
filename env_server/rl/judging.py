"""What the scorer says about each agent step, live and offline, from one code path.

A :class:`StepJudgement` is the scoring engine's verdict on one action: one
:class:`CallVerdict` per tool call (or one for a text step), and, on the step that ends a task,
whether the task is correct and optimal. Rewards (``rewards.py``) are functions of judgements
only.

:func:`judge_steps` derives the judgements of a task from a :class:`TaskScore` (matcher records
+ argument grading) and the agent's steps in that task; offline, :func:`score_rollout`
rebuilds them from recorded actions with ``score_session``. The marks come from
``scoring.transcript.task_steps``, the view the reports use, and they are prefix-stable (a
later step never changes an earlier step's marks), so summing per-step rewards live gives
exactly the offline total.

Live, the env uses :class:`TaskJudge`: because the marks are prefix-stable it runs the
argument pass (``scoring.grading``) only over the matcher records it has not seen yet and
judges only the newest step, instead of re-grading the whole task every step. It gives the
same judgement as ``judge_steps(task, score_matcher(matcher), steps, ended=...)[-1]``; the
reward-equals-score tests compare the two over flawed rollouts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from env_server.rl.models import Action, Judgement, parse_arguments
from env_server.scoring import (
    GoldSession,
    GoldTask,
    PredictedCall,
    PredictedStep,
    SessionScore,
    StepStatus,
    TaskMatcher,
    TaskScore,
    score_session,
)
from env_server.scoring.grading import ArgsMode, CallCheck, check_step_calls
from env_server.scoring.matching import StepRecord
from env_server.scoring.scorer import DEFAULT_OPTIONS
from env_server.scoring.transcript import CallMark, task_steps


class CallVerdict(str, Enum):
    """The verdict on one call (or on a text step)."""

    MATCHED = "matched"  # matched a gold node and (for calls) its arguments passed the check
    ARGUMENT_ERROR = "argument_error"  # name matched, arguments failed the check
    UNMATCHED = "unmatched"  # the step failed name matching (wrong tool, empty output, ...)
    REDUNDANT = "redundant"  # the task was already lost (or its call budget spent): never credited
    NONE = "none"  # a text reply after the task was lost: it only moves the user on
    FAULT = "fault"  # an injected fault answered the call: never judged, never charged


_BY_MARK = {
    CallMark.MATCHED: CallVerdict.MATCHED,
    CallMark.ARGUMENT_ERROR: CallVerdict.ARGUMENT_ERROR,
    CallMark.NOT_GRADED: CallVerdict.REDUNDANT,
    CallMark.MISMATCHED: CallVerdict.UNMATCHED,
}


@dataclass(frozen=True, slots=True)
class StepJudgement:
    task: int
    status: StepStatus | None
    verdicts: tuple[CallVerdict, ...]
    task_ended: bool = False
    task_correct: bool = False
    task_optimal: bool = False

    def as_info(self) -> Judgement:
        return {
            "task": self.task,
            "status": self.status.value if self.status is not None else None,
            "verdicts": [v.value for v in self.verdicts],
            "task_ended": self.task_ended,
            "task_correct": self.task_correct if self.task_ended else None,
        }


def predicted_step(action: Action) -> PredictedStep:
    """The scorer's view of an action: its calls (content ignored, as the live matcher does), or its text."""
    if action.tool_calls:
        calls = tuple(PredictedCall.of(c.function.name, parse_arguments(c.function.arguments)) for c in action.tool_calls)
        return PredictedStep(calls=calls)
    return PredictedStep(content=action.content or None)


def judge_steps(task: int, score: TaskScore, steps: Sequence[PredictedStep], *, ended: bool) -> list[StepJudgement]:
    """One judgement per step of a task; the last carries the task outcome when ``ended``."""
    views = task_steps(score)
    failed = score.grade.first_failed
    lost_after = failed.step_index if failed is not None else len(steps)
    out: list[StepJudgement] = []
    for i, step in enumerate(steps):
        if i < len(views):
            view = views[i]
            if step.calls:
                verdicts = tuple(_BY_MARK[c.mark] for c in view.calls) or (CallVerdict.UNMATCHED,) * len(step.calls)
            elif not view.status.name_ok:
                verdicts = (CallVerdict.UNMATCHED,)
            else:  # a matched question or answer earns nothing once an argument error lost the task
                verdicts = (CallVerdict.MATCHED if i <= lost_after else CallVerdict.NONE,)
            out.append(StepJudgement(task, view.status, verdicts))
        elif step.calls:
            out.append(StepJudgement(task, None, (CallVerdict.REDUNDANT,) * len(step.calls)))
        else:
            out.append(StepJudgement(task, None, (CallVerdict.NONE,)))
    if ended and out:
        last = out[-1]
        out[-1] = StepJudgement(task, last.status, last.verdicts, True, score.correct, score.grade.is_optimal)
    return out


class TaskJudge:
    """Live judge of one task: grades each matcher record once, judges the newest step.

    Mirrors ``grading.grade_steps`` (strict mode, default quirks: the scorer's defaults): the
    argument pass walks the records in order and stops at the first argument error or name
    failure; later calls are never graded.
    """

    __slots__ = ("parameters", "graded", "stopped", "first_failed", "checks")

    def __init__(self, gold: GoldTask) -> None:
        self.parameters = gold.tool_parameters()
        self.graded = 0  # matcher records the argument pass has seen
        self.stopped = False
        self.first_failed: CallCheck | None = None
        self.checks: dict[int, list[CallCheck]] = {}  # record index -> its checks

    def copy(self) -> TaskJudge:
        clone = TaskJudge.__new__(TaskJudge)
        clone.parameters, clone.graded, clone.stopped = self.parameters, self.graded, self.stopped
        clone.first_failed, clone.checks = self.first_failed, dict(self.checks)
        return clone

    def _grade(self, records: Sequence[StepRecord]) -> None:
        while self.graded < len(records):
            record = records[self.graded]
            self.graded += 1
            if self.stopped:
                continue
            if self.first_failed is not None or not record.name_ok:
                self.stopped = True
                continue
            if record.gold_is_pseudo or not record.is_tool_step:
                continue
            checks = check_step_calls(record, self.parameters, ArgsMode.STRICT, DEFAULT_OPTIONS.quirks)
            self.checks[record.index] = checks
            self.first_failed = next((c for c in checks if not c.ok), None)

    def _marks(self, record: StepRecord) -> list[CallMark]:
        if record.status is StepStatus.CALLS_MATCHED:
            checks = list(self.checks.get(record.index, ()))
            marks = []
            for call in record.step.calls:
                k = next((k for k, c in enumerate(checks) if c.name == call.name and c.pred_arguments == call.arguments),
                         None)
                if k is None:
                    marks.append(CallMark.NOT_GRADED)
                else:
                    marks.append(CallMark.MATCHED if checks.pop(k).ok else CallMark.ARGUMENT_ERROR)
            return marks
        if record.status.name_ok:
            return []
        return [CallMark.MISMATCHED] * len(record.step.calls)

    def judge_last(self, task: int, matcher: TaskMatcher, steps: Sequence[PredictedStep], *, ended: bool
                   ) -> StepJudgement:
        """``judge_steps(task, score_matcher(matcher), steps, ended=ended)[-1]``, incrementally."""
        records = matcher.records
        self._grade(records)
        i = len(steps) - 1
        step = steps[i]
        if i < len(records):
            record = records[i]
            status = record.status
            if step.calls:
                verdicts = tuple(_BY_MARK[m] for m in self._marks(record)) or (CallVerdict.UNMATCHED,) * len(step.calls)
            elif not status.name_ok:
                verdicts = (CallVerdict.UNMATCHED,)
            else:
                lost_after = self.first_failed.step_index if self.first_failed is not None else len(steps)
                verdicts = (CallVerdict.MATCHED if i <= lost_after else CallVerdict.NONE,)
            judged = StepJudgement(task, status, verdicts)
        elif step.calls:
            judged = StepJudgement(task, None, (CallVerdict.REDUNDANT,) * len(step.calls))
        else:
            judged = StepJudgement(task, None, (CallVerdict.NONE,))
        if ended:
            args_ok = self.first_failed is None
            judged = StepJudgement(task, judged.status, judged.verdicts, True,
                                   matcher.succeeded and args_ok, matcher.is_optimal and args_ok)
        return judged


def score_rollout(gold: GoldSession, actions_per_task: Sequence[Sequence[Action]]) -> tuple[SessionScore, list[StepJudgement]]:
    """Offline: score recorded actions (one list per task) and judge every step, in order.

    Every task in ``actions_per_task`` is taken as ended (its last action ended it).
    """
    steps = [[predicted_step(a) for a in actions] for actions in actions_per_task]
    steps += [[] for _ in range(len(gold.tasks) - len(steps))]
    session = score_session(gold, steps)
    judgements: list[StepJudgement] = []
    for i, (score, task_steps_) in enumerate(zip(session.tasks, steps, strict=True)):
        judgements += judge_steps(i, score, task_steps_, ended=True)
    return session, judgements
