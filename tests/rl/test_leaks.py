"""Closing envs gives back everything they held in the environment: a leak test that can fail."""

from __future__ import annotations

import gc

import pytest

from env_server.rl import OraclePolicy, ToolEnv
from env_server.rl.api import EnvRegistry


@pytest.fixture(params=["environment", "ephemeral_environment"])
def any_environment(request):
    return request.getfixturevalue(request.param)


# Under the slow mark (CI runs it too): a server process or 300 environments, 4-7 s of the default run.
@pytest.mark.slow
def test_opening_and_closing_300_envs_returns_every_count_to_its_baseline(any_environment):
    warm = ToolEnv(any_environment)
    warm.reset(seed=0)
    warm.close()
    baseline = any_environment.held_counts()
    envs = []
    for k in range(300):
        env = ToolEnv(any_environment)
        obs, info = env.reset(seed=k, options={"generator": {}} if k % 100 == 0 else None)
        policy = OraclePolicy(env.scenario)
        for _ in range(2):
            obs, _, terminated, truncated, info = env.step(policy(obs, info))
        envs.append(env)
        if k % 50 == 0:
            envs += env.fork(2)
    held = any_environment.held_counts()
    assert all(held[key] >= baseline[key] + len(envs) for key in ("views", "call_hooks", "worlds", "records"))
    for env in envs:
        env.close()
    envs.clear()
    gc.collect()
    assert any_environment.held_counts() == baseline


def test_deleting_envs_from_the_rest_registry_releases_them(ephemeral_environment):
    registry = EnvRegistry(ephemeral_environment)
    baseline = ephemeral_environment.held_counts()
    ids = []
    for k in range(50):
        env = ToolEnv(ephemeral_environment)
        env.reset(seed=k)
        ids.append(registry.add(env))
    for env_id in ids:
        registry.remove(env_id)
    assert len(registry) == 0
    assert ephemeral_environment.held_counts() == baseline


def test_a_closed_env_can_be_reset_again_and_close_is_idempotent(ephemeral_environment):
    env = ToolEnv(ephemeral_environment)
    env.reset(seed=1)
    env.close()
    env.close()
    _, info = env.reset(seed=1)
    assert ephemeral_environment.hook_for(info["session_id"]) is not None
    env.close()
    assert ephemeral_environment.held_counts()["call_hooks"] == 0
