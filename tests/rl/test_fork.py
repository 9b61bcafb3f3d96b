"""fork(n): copies share the prefix (state, call log, matcher, history) and then diverge."""

from __future__ import annotations

import copy

import pytest

from env_server.rl import OraclePolicy, ResetNeededError, ToolEnv
from tests.rl.helpers import FlawedPolicy, play, tool_names

SCENARIO = "film_club_schedule"


def advance(env, policy, info, steps):
    obs = None
    for _ in range(steps):
        obs, _, _, _, info = env.step(policy(obs, info))
    return info


def test_forks_share_the_prefix_state_calls_and_history(environment):
    env = ToolEnv(environment)
    _, info = env.reset(options={"scenario_id": SCENARIO})
    info = advance(env, OraclePolicy(env.scenario), info, 3)
    forks = env.fork(3)
    assert len({f.session.session_id for f in forks} | {env.session.session_id}) == 4
    for fork in forks:
        assert environment.state_digest(fork.session.session_id) == info["state_digest"]
        assert fork.history == env.history and fork.episode_step == env.episode_step
        assert fork.task_index == env.task_index
        assert [c.replay_view() | {"session_id": ""} for c in environment.calls(fork.session.session_id)] == \
            [c.replay_view() | {"session_id": ""} for c in environment.calls(env.session.session_id)]
        assert fork.session.tasks[fork.task_index].matcher.records == env.session.tasks[env.task_index].matcher.records


def test_a_fork_finishes_exactly_like_the_unforked_episode(environment):
    whole = ToolEnv(environment)
    obs, info = whole.reset(options={"scenario_id": SCENARIO})
    full = play(whole, OraclePolicy(whole.scenario), obs, info)

    env = ToolEnv(environment)
    _, info = env.reset(options={"scenario_id": SCENARIO})
    policy = OraclePolicy(env.scenario)
    info = advance(env, policy, info, 4)
    (fork,) = env.fork(1)
    rest = play(fork, copy.copy(policy), None, info)
    assert full.rewards[4:] == rest.rewards
    assert full.digests[-1] == rest.digests[-1]
    assert rest.infos[-1]["success"] is True


def test_forks_diverge_without_touching_each_other_or_the_parent(environment):
    env = ToolEnv(environment)
    obs, info = env.reset(options={"scenario_id": SCENARIO})
    tools = tool_names(obs)
    policy = OraclePolicy(env.scenario)
    info = advance(env, policy, info, 3)
    parent_digest, parent_step = info["state_digest"], env.episode_step
    good, bad = env.fork(2)
    good_run = play(good, copy.copy(policy), None, info)
    bad_run = play(bad, FlawedPolicy(OraclePolicy(env.scenario), tools, seed=4, rate=0.9), None, info)
    assert good_run.infos[-1]["success"] is True
    assert bad_run.infos[-1]["success"] is False
    assert sum(good_run.rewards) != sum(bad_run.rewards)
    assert good_run.digests[-1] != bad_run.digests[-1]
    assert environment.state_digest(env.session.session_id) == parent_digest
    assert env.episode_step == parent_step and len(env.history) == parent_step


def test_fork_before_reset_raises_reset_needed(environment):
    with pytest.raises(ResetNeededError):
        ToolEnv(environment).fork(2)
