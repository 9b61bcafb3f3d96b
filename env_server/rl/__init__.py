"""RL rollouts: toolenv scenarios as Gymnasium-style environments, in process and over HTTP.

* ``env.py``: :class:`ToolEnv` (reset / step / fork); ``models.py``: action, observation, info.
* ``judging.py``: the scorer's verdict on each step, live and offline; ``rewards.py``: sparse
  and dense rewards over those verdicts.
* ``scenarios.py``: scenario sessions for envs (cached per scenario, forked, released).
* ``policies.py``: oracle and scripted stand-in policies.
* ``api.py``: the ``/v1/envs`` REST router; ``batch.py``: its batch routes; ``http_ops.py``: one
  reset or step over the registry, shared by both, and the status each failure answers with.
"""

from __future__ import annotations

from env_server.rl.env import DEFAULT_MAX_EPISODE_STEPS, ToolEnv, default_environment
from env_server.rl.errors import (
    ActionError,
    AdminTokenError,
    EpisodeFinishedError,
    OptionsError,
    ResetNeededError,
    RolloutError,
    TooManyEnvsError,
    UnknownEnvError,
)
from env_server.rl.judging import CallVerdict, StepJudgement, judge_steps, score_rollout
from env_server.rl.models import Action, Observation, ResetOptions, StepInfo, parse_action, parse_arguments
from env_server.rl.policies import OraclePolicy, ScriptedPolicy
from env_server.rl.rewards import DenseReward, RewardFn, SparseReward

__all__ = [
    "Action", "ActionError", "AdminTokenError", "CallVerdict", "DEFAULT_MAX_EPISODE_STEPS", "DenseReward",
    "EpisodeFinishedError", "Observation", "OptionsError", "OraclePolicy", "ResetNeededError", "ResetOptions",
    "RewardFn", "RolloutError", "ScriptedPolicy", "SparseReward", "StepInfo", "StepJudgement", "TooManyEnvsError",
    "ToolEnv", "UnknownEnvError", "default_environment", "judge_steps", "parse_action", "parse_arguments", "score_rollout",
]
