"""The Ray rollout runner: 2 local actors give the same episodes as one process; Ray stays optional."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

from clients.ray_runner import (
    RayNotInstalledError,
    local_runtime_env,
    resolve_policy,
    run_episodes,
    run_rollouts,
)
from env_server.rl import OraclePolicy, ToolEnv
from tests.rl.helpers import FlawedPolicy

SEEDS = [0, 1, 2, 3, 7]
OPTIONS: list[dict[str, Any] | None] = [
    None, {"scenario_id": "flight_to_tokyo"}, None, None, {"scenario_id": "film_club_schedule"},
]


def flawed(env: ToolEnv, seed: int) -> FlawedPolicy:
    """A seeded noisy oracle, named as ``tests.rl.test_ray_runner:flawed`` to reach the actors."""
    return FlawedPolicy(OraclePolicy(env.scenario), list(env.scenario.tools), seed=seed, rate=0.5)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             runtime_env=local_runtime_env())
    try:
        yield ray
    finally:
        ray.shutdown()


def test_two_ray_actors_give_the_in_process_results_for_the_same_seeds(local_ray):
    expected = run_episodes(SEEDS, options=OPTIONS) + run_episodes(SEEDS, policy=flawed)
    got = run_rollouts(SEEDS, num_actors=2, options=OPTIONS) + \
        run_rollouts(SEEDS, num_actors=2, policy="tests.rl.test_ray_runner:flawed")
    assert got == expected
    oracle, noisy = got[:len(SEEDS)], got[len(SEEDS):]
    assert [r.seed for r in oracle] == SEEDS
    assert oracle[1].scenario_id == "flight_to_tokyo" and oracle[4].scenario_id == "film_club_schedule"
    assert all(r.success and r.terminated and r.steps == len(r.rewards) for r in oracle)
    assert not all(r.success for r in noisy)
    assert local_ray.is_initialized()  # a Ray the caller started is left running


def test_local_mode_runs_the_actor_code_in_process_without_ray():
    assert run_rollouts([4, 5], local_mode=True, policy="scripted") == run_episodes([4, 5], policy="scripted")


def test_results_keep_their_per_step_rewards_and_episode_totals():
    (result,) = run_episodes([0], policy="scripted")
    assert result.total_reward == sum(result.rewards)
    assert result.success is False and result.terminated


def test_missing_ray_raises_an_error_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RayNotInstalledError, match=r"toolenv\[ray\]"):
        run_rollouts([0])


def test_unknown_policy_names_and_misaligned_options_are_rejected():
    with pytest.raises(ValueError, match="unknown policy 'greedy'"):
        resolve_policy("greedy")
    with pytest.raises(ValueError, match="2 entries for 3 seeds"):
        run_rollouts([0, 1, 2], local_mode=True, options=[None, None])
