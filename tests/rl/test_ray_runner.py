"""The Ray rollout runner: 2 local actors give the same episodes as one process; an actor killed
mid-run loses nothing (its episodes are retried); Ray stays optional."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

from clients.ray_runner import (
    RayNotInstalledError,
    RolloutActorPool,
    RolloutFailedError,
    RolloutProgressRecord,
    local_runtime_env,
    run_rollouts,
)
from clients.rollout_worker import resolve_policy, run_episodes
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
    ray = pytest.importorskip("ray", reason="the Ray runner tests need the ray extra: pip install '.[ray]'")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             runtime_env=local_runtime_env())
    try:
        yield ray
    finally:
        ray.shutdown()


# Starting Ray costs ~15-25 s on this machine: the Ray tests run under the slow mark (CI runs it too).
@pytest.mark.slow
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


# -- an actor killed mid-run ----------------------------------------------------------------------

KILL_SEEDS = list(range(10, 26))


@pytest.fixture(scope="module")
def flawed_pool(local_ray) -> Iterator[RolloutActorPool]:
    """Two actors playing the seeded noisy oracle one episode a chunk (two chunks in flight each)."""
    with RolloutActorPool(2, policy="tests.rl.test_ray_runner:flawed", chunk_size=1) as pool:
        pool.nodes()  # both actors up before any run
        yield pool


class ActorKiller:
    """An ``on_progress`` hook that kills the busiest actor (``ray.kill``) once ``after`` episodes are done."""

    def __init__(self, ray: Any, after: int) -> None:
        self.ray, self.after = ray, after
        self.killed: list[Any] = []
        self.seen: list[RolloutProgressRecord] = []

    def __call__(self, progress: RolloutProgressRecord) -> None:
        self.seen.append(progress)
        if not self.killed and progress.done >= self.after and progress.busy_actors:
            victim = progress.busy_actors[0]  # it holds episodes that are playing or waiting now
            self.ray.kill(victim)
            self.killed.append(victim)


@pytest.mark.slow
def test_an_actor_killed_mid_run_has_its_episodes_retried_and_nothing_is_lost(local_ray, flawed_pool):
    expected = run_episodes(KILL_SEEDS, policy=flawed)
    undisturbed = flawed_pool.play(KILL_SEEDS)
    killer = ActorKiller(local_ray, after=3)
    disturbed = flawed_pool.play(KILL_SEEDS, on_progress=killer)

    assert len(killer.killed) == 1
    with pytest.raises(local_ray.exceptions.RayActorError):
        local_ray.get(killer.killed[0].node_id.remote())  # really dead
    assert disturbed.actor_failures == 1 and disturbed.replacements == 1
    assert disturbed.retried_episodes >= 1  # the killed actor held episodes in flight
    # every requested episode exactly once, in seed order, with the undisturbed results
    assert [r.seed for r in disturbed.episodes] == KILL_SEEDS
    assert disturbed.episodes == undisturbed.episodes == expected
    assert disturbed.steps == sum(r.steps for r in expected)
    assert (undisturbed.actor_failures, undisturbed.retried_episodes, undisturbed.replacements) == (0, 0, 0)
    assert len(flawed_pool.actors) == 2 and killer.killed[0] not in flawed_pool.actors
    assert killer.seen[-1].done == len(KILL_SEEDS) and killer.seen[-1].actor_failures == 1


@pytest.mark.slow
def test_without_replacements_the_surviving_actor_plays_the_killed_actors_episodes(local_ray, flawed_pool):
    expected = run_episodes(KILL_SEEDS, policy=flawed)
    assert len(flawed_pool.nodes()) == 2  # both actors up (a replacement from an earlier run included)
    flawed_pool.max_replacements = 0
    try:
        disturbed = flawed_pool.play(KILL_SEEDS, on_progress=ActorKiller(local_ray, after=1))
        assert (disturbed.actor_failures, disturbed.replacements) == (1, 0)
        assert disturbed.retried_episodes >= 1 and len(flawed_pool.actors) == 1
        assert disturbed.episodes == expected
        # with the last actor killed too and nothing to replace it, the run fails and says why
        with pytest.raises(RolloutFailedError, match=r"episodes are left and no actor can play them"):
            flawed_pool.play(KILL_SEEDS, on_progress=ActorKiller(local_ray, after=0))
        assert flawed_pool.actors == []
    finally:
        flawed_pool.max_replacements = 2
