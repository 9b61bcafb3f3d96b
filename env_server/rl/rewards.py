"""Reward functions: plain callables from a :class:`StepJudgement` to a float.

``ToolEnv(reward=...)`` takes ``"dense"`` (default), ``"sparse"`` or any callable
``(StepJudgement) -> float``. Both built-ins read only the scorer's judgement, so the
rewards of an episode add up to what offline scoring of the same actions gives (see
``judging.score_rollout``).

**Sparse** (:class:`SparseReward`): 1 on the step that ends a task labelled correct, else 0.
An episode's total is its number of correct tasks.

**Dense** (:class:`DenseReward`), per step, the sum of:

* per call: ``matched`` (+0.1) for a call matched to a gold node whose arguments pass the
  check; ``argument_error`` (-0.1) when the name matched but the arguments failed;
  ``unmatched`` (-0.1) for every call of a step that failed name matching; ``redundant``
  (-0.05) for a call the scorer never credits because the task was already lost or its call
  budget spent; ``fault`` (0) for a call an injected fault answered (never charged). A text
  step counts as one unit: a matched clarifying question or final answer
  is ``matched``, text that matches nothing (or an empty action) is ``unmatched``, and text
  once the task is lost (``none``) earns nothing;
* at task end: ``task_correct`` (+1.0) when the task is labelled correct, and
  ``optimal_bonus`` (+0.2) when it was also solved in the fewest steps (``is_optimal``).

Weights are fields: ``DenseReward(redundant=-0.1)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from env_server.rl.errors import OptionsError
from env_server.rl.judging import CallVerdict, StepJudgement

RewardFn = Callable[[StepJudgement], float]


@dataclass(frozen=True, kw_only=True)
class SparseReward:
    correct: float = 1.0

    def __call__(self, judgement: StepJudgement) -> float:
        return self.correct if judgement.task_ended and judgement.task_correct else 0.0


@dataclass(frozen=True, kw_only=True)
class DenseReward:
    matched: float = 0.1
    argument_error: float = -0.1
    unmatched: float = -0.1
    redundant: float = -0.05
    task_correct: float = 1.0
    optimal_bonus: float = 0.2

    def __call__(self, judgement: StepJudgement) -> float:
        weights = {
            CallVerdict.MATCHED: self.matched,
            CallVerdict.ARGUMENT_ERROR: self.argument_error,
            CallVerdict.UNMATCHED: self.unmatched,
            CallVerdict.REDUNDANT: self.redundant,
            CallVerdict.NONE: 0.0,
            CallVerdict.FAULT: 0.0,
        }
        total = sum(weights[v] for v in judgement.verdicts)
        if judgement.task_ended and judgement.task_correct:
            total += self.task_correct + (self.optimal_bonus if judgement.task_optimal else 0.0)
        return total


def resolve_reward(reward: str | RewardFn) -> RewardFn:
    """``"dense"``, ``"sparse"`` or a callable. Raises ``OptionsError`` for an unknown name."""
    if callable(reward):
        return reward
    if reward == "dense":
        return DenseReward()
    if reward == "sparse":
        return SparseReward()
    raise OptionsError(f"unknown reward '{reward}': use 'dense', 'sparse' or a callable(StepJudgement) -> float")
