"""In-process RL rollouts: a thin re-export of :mod:`env_server.rl`.

::

    from clients.rollout import ToolEnv, OraclePolicy

    env = ToolEnv(reward="dense")
    obs, info = env.reset(seed=0)
    policy = OraclePolicy(env.scenario)
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(policy(obs, info))
        done = terminated or truncated

Over HTTP, use :class:`clients.rollout_client.RolloutClient` against ``/v1/envs``.
"""

from __future__ import annotations

from env_server.rl import (
    Action,
    ActionError,
    CallVerdict,
    DenseReward,
    EpisodeFinishedError,
    Observation,
    OptionsError,
    OraclePolicy,
    ResetNeededError,
    ResetOptions,
    RewardFn,
    RolloutError,
    ScriptedPolicy,
    SparseReward,
    StepInfo,
    StepJudgement,
    ToolEnv,
    score_rollout,
)

__all__ = [
    "Action", "ActionError", "CallVerdict", "DenseReward", "EpisodeFinishedError", "Observation", "OptionsError",
    "OraclePolicy", "ResetNeededError", "ResetOptions", "RewardFn", "RolloutError", "ScriptedPolicy", "SparseReward",
    "StepInfo", "StepJudgement", "ToolEnv", "score_rollout",
]
