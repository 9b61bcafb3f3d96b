"""ToolEnv in process: reset/step contract, observations, determinism, Gymnasium errors."""

from __future__ import annotations

import json

import pytest

from env_server.rl import (
    ActionError,
    EpisodeFinishedError,
    OptionsError,
    OraclePolicy,
    ResetNeededError,
    ToolEnv,
)
from env_server.rl.policies import oracle_plan
from tests.rl.helpers import FlawedPolicy, play, tool_names

SCENARIO = "flight_to_tokyo"


def test_reset_without_options_draws_the_same_scenario_for_the_same_seed(environment):
    first = [ToolEnv(environment).reset(seed=s)[1]["scenario_id"] for s in range(6)]
    again = [ToolEnv(environment).reset(seed=s)[1]["scenario_id"] for s in range(6)]
    assert first == again
    assert len(set(first)) > 1


def test_reset_continues_the_seeded_sequence_when_called_without_a_seed(environment):
    a, b = ToolEnv(environment), ToolEnv(environment)
    a.reset(seed=3)
    b.reset(seed=3)
    assert [a.reset()[1]["scenario_id"] for _ in range(4)] == [b.reset()[1]["scenario_id"] for _ in range(4)]


def test_reset_sends_the_date_the_first_user_message_and_the_tool_list(environment):
    env = ToolEnv(environment)
    obs, info = env.reset(options={"scenario_id": SCENARIO})
    system, user = obs["messages"]
    assert system == {"role": "system", "content": f"Current Date: {env.scenario.env_info}"}
    assert user == {"role": "user", "content": env.scenario.tasks[0].user_message}
    assert sorted(tool_names(obs)) == sorted(env.scenario.tools)
    assert all(t["type"] == "function" and "parameters" in t["function"] for t in obs["tools"])
    assert info["task_index"] == 0 and info["task_count"] == 4 and info["episode_step"] == 0
    assert "judgement" not in info


def test_oracle_policy_solves_every_builtin_scenario(environment):
    env = ToolEnv(environment, reward="sparse")
    for scenario_id in env.pool.ids:
        obs, info = env.reset(options={"scenario_id": scenario_id})
        rollout = play(env, OraclePolicy(env.scenario), obs, info)
        assert rollout.terminated and not rollout.truncated, scenario_id
        assert rollout.infos[-1]["success"] is True, (scenario_id, rollout.infos[-1]["errors"])
        assert sum(rollout.rewards) == len(env.scenario.tasks)


def test_tool_calls_of_one_action_come_back_as_tool_messages_in_call_order(environment):
    env = ToolEnv(environment)
    obs, info = env.reset(options={"scenario_id": SCENARIO})
    tools = tool_names(obs)
    calls = [
        {"id": "first", "type": "function", "function": {"name": tools[0], "arguments": "{}"}},
        {"id": "second", "type": "function", "function": {"name": "no_such_tool", "arguments": "{}"}},
        {"id": "third", "type": "function", "function": {"name": tools[1], "arguments": "not json"}},
    ]
    obs, _, _, _, info = env.step({"role": "assistant", "content": None, "tool_calls": calls})
    assert [m["role"] for m in obs["messages"]] == ["tool", "tool", "tool"]
    assert [m["tool_call_id"] for m in obs["messages"]] == ["first", "second", "third"]
    assert "Unknown tool: no_such_tool" in obs["messages"][1]["content"]
    assert "__unparsed__" in obs["messages"][2]["content"]
    assert obs["tools"] is None
    assert len(info["judgement"]["verdicts"]) == 3
    assert any("no_such_tool" in e for e in info["errors"])


def test_all_calls_of_an_action_share_one_model_step(environment):
    env = ToolEnv(environment)
    env.reset(options={"scenario_id": SCENARIO})
    parallel = next(a for task in oracle_plan(env.scenario) for a in task if len(a.get("tool_calls") or []) > 1)
    while env.task_index != next(i for i, t in enumerate(oracle_plan(env.scenario)) if parallel in t):
        env.step({"role": "assistant", "content": "skip"})
    policy = OraclePolicy(env.scenario)
    info = {"task_index": env.task_index}
    while True:
        action = policy({}, info)
        _, _, _, _, info = env.step(action)
        if action == parallel:  # plans are recomputed per policy: equal, not the same object
            break
    assert info["judgement"]["status"] == "calls_matched"
    assert info["judgement"]["verdicts"] == ["matched"] * len(parallel["tool_calls"])
    entries = [e for e in env.session.entries if e.task == env.task_index]
    assert len({e.step for e in entries[-len(parallel["tool_calls"]):]}) == 1


def test_a_text_reply_brings_the_next_user_message(environment):
    env = ToolEnv(environment)
    env.reset(options={"scenario_id": SCENARIO})
    obs, _, terminated, _, info = env.step({"role": "assistant", "content": "No idea."})
    assert obs["messages"] == [{"role": "user", "content": env.scenario.tasks[1].user_message}]
    assert info["task_index"] == 1 and info["user_turn"] == "task" and not terminated
    assert info["judgement"]["task_ended"] is True and info["judgement"]["task_correct"] is False
    assert info["errors"] and info["errors"][0].startswith("task 0 failed")


def test_two_identical_rollouts_give_identical_observations_rewards_and_digests(environment):
    def rollout():
        env = ToolEnv(environment)
        obs, info = env.reset(seed=11)
        policy = FlawedPolicy(OraclePolicy(env.scenario), tool_names(obs), seed=5)
        out = play(env, policy, obs, info)
        for i in out.infos:
            i.pop("session_id")
        return out

    a, b = rollout(), rollout()
    assert a.observations == b.observations
    assert a.rewards == b.rewards
    assert a.infos == b.infos
    assert len(set(a.digests)) > 1


def test_stepping_before_reset_raises_reset_needed(environment):
    with pytest.raises(ResetNeededError, match="reset"):
        ToolEnv(environment).step({"role": "assistant", "content": "hi"})


def test_stepping_a_terminated_episode_raises_episode_finished(environment):
    env = ToolEnv(environment)
    obs, info = env.reset(options={"scenario_id": SCENARIO})
    terminated = False
    while not terminated:  # a text reply may also be taken as a clarifying question
        _, _, terminated, _, info = env.step({"role": "assistant", "content": "No."})
    assert info["success"] is False and info["episode_step"] <= 8
    with pytest.raises(EpisodeFinishedError, match="terminated"):
        env.step({"role": "assistant", "content": "hello?"})


def test_episode_is_truncated_when_the_step_budget_runs_out(environment):
    env = ToolEnv(environment, max_steps=3)
    obs, _ = env.reset(options={"scenario_id": SCENARIO})
    call = {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": tool_names(obs)[0], "arguments": "{}"}}]}
    flags = [env.step(call)[2:4] for _ in range(3)]
    assert flags == [(False, False), (False, False), (False, True)]
    with pytest.raises(EpisodeFinishedError, match="truncated after 3 steps"):
        env.step(call)


def test_a_malformed_action_raises_action_error_naming_the_field(environment):
    env = ToolEnv(environment)
    env.reset(options={"scenario_id": SCENARIO})
    with pytest.raises(ActionError, match=r"tool_calls\.0\.function"):
        env.step({"role": "assistant", "tool_calls": [{"id": "x"}]})
    with pytest.raises(ActionError, match="role"):
        env.step({"role": "user", "content": "hi"})
    assert env.episode_step == 0


def test_arguments_given_as_an_object_are_accepted(environment):
    env = ToolEnv(environment)
    env.reset(options={"scenario_id": SCENARIO})
    action = oracle_plan(env.scenario)[0][0]
    call = action["tool_calls"][0]
    as_object = {"role": "assistant", "tool_calls": [
        {"id": call["id"], "function": {"name": call["function"]["name"],
                                        "arguments": json.loads(call["function"]["arguments"])}}]}
    *_, info = env.step(as_object)
    assert info["judgement"]["verdicts"] == ["matched"]


def test_an_unknown_scenario_is_an_options_error_with_suggestions(environment):
    env = ToolEnv(environment)
    with pytest.raises(OptionsError, match="did you mean flight_to_tokyo"):
        env.reset(options={"scenario_id": "flight_to_tokio"})
    with pytest.raises(OptionsError, match="no phrase pack"):
        env.reset(seed=1, options={"generator": {"families": ["no_such_family"]}})
    with pytest.raises(OptionsError, match="not both"):
        env.reset(options={"generator": {}, "scenario_id": SCENARIO})


def test_scenarios_restrict_the_seeded_draw(environment):
    env = ToolEnv(environment, scenarios=["vegan_meal_plan", SCENARIO])
    drawn = {env.reset(seed=s)[1]["scenario_id"] for s in range(12)}
    assert drawn == {"vegan_meal_plan", SCENARIO}


def test_reset_releases_the_previous_session(environment):
    env = ToolEnv(environment)
    _, info = env.reset(options={"scenario_id": SCENARIO})
    old = info["session_id"]
    env.reset(options={"scenario_id": SCENARIO})
    assert environment.hook_for(old) is None
    env.close()
    assert environment.held_counts()["call_hooks"] == 0
