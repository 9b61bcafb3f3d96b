"""examples/: the GRPO loop's group advantages, and the skyrl-gym wrapper through a whole episode."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # examples/ is not an installed package
    sys.path.insert(0, str(ROOT))

from env_server.rl import OraclePolicy, ToolEnv  # noqa: E402
from examples.grpo_loop import group_advantages, main  # noqa: E402

SCENARIO = "flight_to_tokyo"


def test_grpo_example_prints_advantages_that_sum_to_zero_per_group(capsys):
    groups = main(["--prompts", "2", "--group-size", "4", "--epsilon", "0.5"])
    out = capsys.readouterr().out
    assert len(groups) == 2 and out.count("advantage") == 8
    for group in groups:
        assert len(group.returns) == len(group.advantages) == 4
        assert math.isclose(sum(group.advantages), 0.0, abs_tol=1e-6)
        for r1, a1 in zip(group.returns, group.advantages, strict=True):
            for r2, a2 in zip(group.returns, group.advantages, strict=True):
                assert (r1 < r2) == (a1 < a2)  # advantages rank the branches as their returns do
    assert any(len(set(g.returns)) > 1 for g in groups), "the seeded noise should split some group"


def test_grpo_example_is_deterministic_for_its_seeds(capsys):
    assert main(["--prompts", "1", "--seed", "3"]) == main(["--prompts", "1", "--seed", "3"])


def test_group_advantages_are_zero_when_every_return_is_the_same():
    assert group_advantages([2.5, 2.5, 2.5]) == [0.0, 0.0, 0.0]
    assert group_advantages([1.0, 3.0])[0] < 0 < group_advantages([1.0, 3.0])[1]


def test_skyrl_gym_wrapper_plays_a_whole_oracle_episode_from_text_actions():
    pytest.importorskip("skyrl_gym")
    import skyrl_gym

    from examples.skyrl_gym_env import ENV_ID, format_action, register

    register()
    register()  # idempotent
    env = skyrl_gym.make(ENV_ID, env_config=None, extras={"options": {"scenario_id": SCENARIO}, "seed": 5})
    prompt, meta = env.init([{"role": "system", "content": "You are a careful assistant."}])
    system, user = prompt
    assert system["content"].startswith("You are a careful assistant.")
    assert "<tools>" in system["content"] and "<tool_call>" in system["content"]
    assert all(name in system["content"] for name in env.env.scenario.tools)
    assert user["role"] == "user" and meta["scenario_id"] == SCENARIO

    reference = ToolEnv()
    ref_obs, ref_info = reference.reset(seed=5, options={"scenario_id": SCENARIO})
    oracle, ref_oracle = OraclePolicy(env.env.scenario), OraclePolicy(reference.scenario)
    info, rewards, ref_rewards, done = meta, [], [], False
    while not done:
        step = env.step(format_action(oracle(None, info)))
        info, done = step["metadata"], step["done"]
        rewards.append(step["reward"])
        assert all(m["role"] in ("tool", "user") for m in step["observations"])
        ref_obs, reward, terminated, truncated, ref_info = reference.step(ref_oracle(ref_obs, ref_info))
        ref_rewards.append(reward)
        assert done == (terminated or truncated)
    assert rewards == ref_rewards
    assert info["state_digest"] == ref_info["state_digest"]
    metrics = env.get_metrics()
    assert metrics["success"] == 1.0 and metrics["turns"] == len(rewards)
    assert metrics["tasks_correct"] == len(env.env.scenario.tasks)
    env.close()


def test_skyrl_text_parsing_makes_parallel_calls_replies_and_invalid_calls():
    pytest.importorskip("skyrl_gym")
    from examples.skyrl_gym_env import INVALID_CALL, parse_tool_calls

    text = ('Checking both.\n<tool_call>{"name": "a", "arguments": {"x": 1}}</tool_call>\n'
            '<tool_call>\n{"name": "b", "arguments": {}}\n</tool_call><tool_call>{oops</tool_call>')
    action = parse_tool_calls(text, turn=2)
    assert action["content"] == "Checking both."
    assert [c["function"]["name"] for c in action["tool_calls"]] == ["a", "b", INVALID_CALL]
    assert json.loads(action["tool_calls"][0]["function"]["arguments"]) == {"x": 1}
    assert [c["id"] for c in action["tool_calls"]] == ["call_2_0", "call_2_1", "call_2_2"]
    reply = "All booked for Friday."
    assert parse_tool_calls(reply, turn=3) == {"role": "assistant", "content": reply}
