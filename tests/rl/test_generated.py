"""reset(options={"generator": ...}): fresh generated scenarios, solved by the oracle, rewards = score."""

from __future__ import annotations

import pytest

from env_server.orchestrator.gold import gold_session, scenario_tools
from env_server.rl import DenseReward, OraclePolicy, ToolEnv, score_rollout
from tests.rl.helpers import FlawedPolicy, play, tool_names

SEEDS = (3, 17, 42)


@pytest.fixture(params=["environment", "ephemeral_environment"])
def any_environment(request):
    return request.getfixturevalue(request.param)


def test_the_oracle_solves_generated_scenarios_and_rewards_equal_the_scored_run(any_environment):
    weights = DenseReward()
    for seed in SEEDS:
        env = ToolEnv(any_environment)
        obs, info = env.reset(seed=seed, options={"generator": {}})
        assert info["scenario_id"] == f"gen_{seed}" and info["task_count"] == 4
        rollout = play(env, OraclePolicy(env.scenario), obs, info)
        assert rollout.terminated and rollout.infos[-1]["success"] is True, rollout.infos[-1]["errors"]
        gold = gold_session(env.scenario, scenario_tools(env.scenario, any_environment.catalog))
        session, judgements = score_rollout(gold, env.actions_per_task())
        assert session.correct
        assert [i["judgement"] for i in rollout.infos[1:]] == [j.as_info() for j in judgements]
        assert sum(rollout.rewards) == pytest.approx(sum(weights(j) for j in judgements))


def test_flawed_play_on_a_generated_scenario_still_sums_to_the_scored_run(environment):
    weights = DenseReward()
    for seed in (1, 2):
        env = ToolEnv(environment)
        obs, info = env.reset(seed=5, options={"generator": {}})
        rollout = play(env, FlawedPolicy(OraclePolicy(env.scenario), tool_names(obs), seed=seed), obs, info)
        gold = gold_session(env.scenario, scenario_tools(env.scenario, environment.catalog))
        _, judgements = score_rollout(gold, env.actions_per_task())
        assert sum(rollout.rewards) == pytest.approx(sum(weights(j) for j in judgements))


def test_generated_resets_are_deterministic_in_seed_and_settings(environment):
    a, b = ToolEnv(environment), ToolEnv(environment)
    obs_a, info_a = a.reset(seed=7, options={"generator": {"two_round_clarify": 1.0}})
    obs_b, info_b = b.reset(seed=7, options={"generator": {"two_round_clarify": 1.0}})
    assert obs_a == obs_b and info_a["scenario_id"] == info_b["scenario_id"] != "gen_7"
    _, other = b.reset(seed=8, options={"generator": {"two_round_clarify": 1.0}})
    assert other["scenario_id"] != info_a["scenario_id"]


def test_generated_scenarios_are_cached_in_a_bounded_pool(environment):
    env = ToolEnv(environment)
    env.pool.max_generated = 2
    for seed in (1, 2, 3):
        env.reset(seed=seed, options={"generator": {}})
    assert env.pool.generated_count() == 2
    assert env.scenario.id == "gen_3"
