"""What the scorer says about each agent step, live and offline, from one code path.

A :class:`StepJudgement` is the scoring engine's verdict on one action: one
:class:`CallVerdict` per tool call (or one for a text step), and, on the step that ends a task,
whether the task is correct and optimal. Rewards (``rewards.py``) are functions of judgements
only.

:func:`judge_steps` derives the judgements of a task from a :class:`TaskScore` (matcher records
+ argument grading) and the agent's steps in that task. The live env calls it on
``score_matcher(matcher)`` after every step and keeps the last judgement; offline,
:func:`score_rollout` rebuilds the same from recorded actions with ``score_session``. The
marks come from ``scoring.transcript.task_steps``, the view the reports use, and they are
prefix-stable (a later step never changes an earlier step's marks), so summing per-step
rewards live gives exactly the offline total.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from env_server.rl.models import Action, parse_arguments
from env_server.scoring import GoldSession, PredictedCall, PredictedStep, SessionScore, StepStatus, TaskScore, score_session
from env_server.scoring.transcript import CallMark, task_steps


class CallVerdict(str, Enum):
    """The verdict on one call (or on a text step)."""

    MATCHED = "matched"  # matched a gold node and (for calls) its arguments passed the check
    ARGUMENT_ERROR = "argument_error"  # name matched, arguments failed the check
    UNMATCHED = "unmatched"  # the step failed name matching (wrong tool, empty output, ...)
    REDUNDANT = "redundant"  # the task was already lost (or its call budget spent): never credited
    NONE = "none"  # a text reply after the task was lost: it only moves the user on


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

    def as_info(self) -> dict[str, object]:
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
