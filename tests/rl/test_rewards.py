"""Rewards agree with offline scoring of the same actions: sparse, dense, success flag."""

from __future__ import annotations

import pytest

from env_server.orchestrator.gold import gold_session, scenario_tools
from env_server.rl import CallVerdict, DenseReward, OraclePolicy, SparseReward, StepJudgement, ToolEnv, score_rollout
from env_server.rl.policies import oracle_plan
from env_server.scoring import compute_official_metrics
from tests.rl.helpers import FlawedPolicy, play, tool_names

SCENARIOS = ["flight_to_tokyo", "kanban_bug_triage", "film_club_schedule", "study_abroad_questions", "euro_trip_budget"]


def rollouts(environment, reward):
    """(env, rollout) for the oracle and three flawed policies on each scenario."""
    out = []
    for scenario_id in SCENARIOS:
        for seed in (None, 1, 2, 3):
            env = ToolEnv(environment, reward=reward)
            obs, info = env.reset(options={"scenario_id": scenario_id})
            oracle = OraclePolicy(env.scenario)
            policy = oracle if seed is None else FlawedPolicy(oracle, tool_names(obs), seed=seed)
            rollout = play(env, policy, obs, info)
            assert rollout.terminated
            out.append((env, rollout))
    return out


def offline(environment, env):
    """Score the env's recorded actions from scratch, with gold rebuilt from the scenario file."""
    gold = gold_session(env.scenario, scenario_tools(env.scenario, environment.catalog))
    return score_rollout(gold, env.actions_per_task())


def test_dense_rewards_sum_to_the_offline_score_of_the_same_actions(environment):
    weights = DenseReward()
    seen: set[CallVerdict] = set()
    for env, rollout in rollouts(environment, "dense"):
        session, judgements = offline(environment, env)
        assert [i["judgement"] for i in rollout.infos[1:]] == [j.as_info() for j in judgements]
        assert sum(rollout.rewards) == pytest.approx(sum(weights(j) for j in judgements))
        assert rollout.infos[-1]["success"] is session.correct
        seen.update(v for j in judgements for v in j.verdicts)
    # the flawed rollouts exercise every verdict, so the equality above covers each weight
    assert seen >= {CallVerdict.MATCHED, CallVerdict.ARGUMENT_ERROR, CallVerdict.UNMATCHED, CallVerdict.REDUNDANT}


def test_sparse_rewards_sum_to_the_correct_tasks_of_the_scored_run(environment):
    sessions, total, successes = [], 0.0, 0
    for env, rollout in rollouts(environment, "sparse"):
        session, _ = offline(environment, env)
        assert sum(rollout.rewards) == sum(t.correct for t in session.tasks) == env.session.result().correct
        sessions.append(session)
        total += sum(rollout.rewards)
        successes += rollout.infos[-1]["success"]
    metrics = compute_official_metrics(sessions, "rl")["total_info"]
    assert metrics["task"]["correct_count"] == total
    assert metrics["session"]["correct_count"] == successes
    assert 0 < successes < len(sessions)


def test_the_oracle_earns_the_completion_and_optimal_bonus_on_every_task(environment):
    env = ToolEnv(environment)
    obs, info = env.reset(options={"scenario_id": "kanban_bug_triage"})
    rollout = play(env, OraclePolicy(env.scenario), obs, info)
    weights = DenseReward()
    ends = [i["judgement"] for i in rollout.infos[1:] if i["judgement"]["task_ended"]]
    assert len(ends) == 4 and all(e["task_correct"] for e in ends)
    units = sum(len(i["judgement"]["verdicts"]) for i in rollout.infos[1:])
    expected = 4 * (weights.task_correct + weights.optimal_bonus) + units * weights.matched
    assert sum(rollout.rewards) == pytest.approx(expected)


def test_a_wrong_argument_is_penalized_and_the_answer_after_it_earns_nothing(environment):
    env = ToolEnv(environment)
    env.reset(options={"scenario_id": "kanban_bug_triage"})
    call, answer = oracle_plan(env.scenario)[0][:2]
    name = call["tool_calls"][0]["function"]["name"]
    wrong = {"role": "assistant", "tool_calls": [{"id": "w", "function": {"name": name, "arguments": '{"zzz": 1}'}}]}
    _, reward, *_, info = env.step(wrong)
    assert info["judgement"]["verdicts"] == ["argument_error"]
    assert reward == pytest.approx(DenseReward().argument_error)
    _, reward, *_, info = env.step(answer)
    assert info["judgement"] == {"task": 0, "status": "answered", "verdicts": ["none"],
                                 "task_ended": True, "task_correct": False}
    assert reward == 0.0


def test_calls_after_the_task_is_lost_are_redundant(environment):
    env = ToolEnv(environment)
    obs, _ = env.reset(options={"scenario_id": "kanban_bug_triage"})
    call = oracle_plan(env.scenario)[0][0]
    gold_names = {c["function"]["name"] for c in call["tool_calls"]}
    other = next(n for n in tool_names(obs) if n not in gold_names)
    env.step({"role": "assistant", "tool_calls": [{"id": "x", "function": {"name": other, "arguments": "{}"}}]})
    _, reward, *_, info = env.step(call)
    assert info["judgement"]["verdicts"] == ["redundant"] * len(call["tool_calls"])
    assert info["judgement"]["status"] is None
    assert reward == pytest.approx(DenseReward().redundant * len(call["tool_calls"]))


def test_a_call_to_a_tool_off_the_gold_path_is_unmatched(environment):
    env = ToolEnv(environment)
    obs, _ = env.reset(options={"scenario_id": "kanban_bug_triage"})
    gold_names = {c["function"]["name"] for c in oracle_plan(env.scenario)[0][0]["tool_calls"]}
    other = next(n for n in tool_names(obs) if n not in gold_names)
    _, reward, *_, info = env.step({"role": "assistant", "tool_calls": [
        {"id": "x", "function": {"name": other, "arguments": "{}"}}]})
    assert info["judgement"] == {"task": 0, "status": "name_mismatch", "verdicts": ["unmatched"],
                                 "task_ended": False, "task_correct": None}
    assert reward == pytest.approx(DenseReward().unmatched)


def test_a_custom_reward_callable_gets_every_judgement(environment):
    seen: list[StepJudgement] = []

    def reward(judgement: StepJudgement) -> float:
        seen.append(judgement)
        return 7.0

    env = ToolEnv(environment, reward=reward)
    obs, info = env.reset(options={"scenario_id": "vegan_meal_plan"})
    rollout = play(env, OraclePolicy(env.scenario), obs, info)
    assert rollout.rewards == [7.0] * len(rollout.rewards)
    assert [j.as_info() for j in seen] == [i["judgement"] for i in rollout.infos[1:]]


def test_sparse_reward_counts_only_correct_task_ends():
    sparse = SparseReward()
    assert sparse(StepJudgement(0, None, (CallVerdict.MATCHED,))) == 0.0
    assert sparse(StepJudgement(0, None, (CallVerdict.MATCHED,), task_ended=True, task_correct=True)) == 1.0
    assert sparse(StepJudgement(0, None, (CallVerdict.UNMATCHED,), task_ended=True, task_correct=False)) == 0.0
