"""toolenv as an OpenEnv environment: a real server on a free port, driven by OpenEnv's own clients.

Skipped, with the reason, when openenv-core (the ``openenv`` extra) is not installed. OpenEnv is
imported inside the fixtures, not at collection: its import takes seconds (fastmcp, gradio).
"""

from __future__ import annotations

import importlib.util
import json
from typing import Any

import pytest

from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.rl import OraclePolicy, ToolEnv
from state import Database
from state.store import Durability
from tests.servers import serving

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(importlib.util.find_spec("openenv") is None,
                       reason="openenv-core is not installed (pip install '.[openenv]')"),
]

SCENARIO = "adopt_a_senior_dog"  # train split; one of its tasks is a parallel step
FREE_TOOLS = ["openmeteo_get_air_quality", "ticketmaster_search_shows"]


@pytest.fixture(scope="module")
def environment(builtin_catalog) -> ToolEnvironment:
    return ToolEnvironment(builtin_catalog, Database(), ServerSettings(durability=Durability.EPHEMERAL))


@pytest.fixture(scope="module")
def served(environment):
    from clients.openenv_env import build_openenv_app, openenv_settings

    settings = openenv_settings(environment)
    with serving(build_openenv_app(settings, max_sessions=4)) as url:
        yield url, settings


def reference(environment: ToolEnvironment, scenario_id: str) -> tuple[Any, list[float]]:
    """The in-process ToolEnv's first observation and oracle rewards for ``scenario_id``."""
    env = ToolEnv(environment)
    obs, info = env.reset(options={"scenario_id": scenario_id})
    first, policy, rewards = obs, OraclePolicy(env.scenario), []
    while True:
        obs, reward, terminated, truncated, info = env.step(policy(obs, info))
        rewards.append(reward)
        if terminated or truncated:
            env.close()
            return first, rewards


async def test_oracle_episode_earns_the_in_process_reward_and_a_wrong_call_earns_less(served, environment):
    from clients.openenv_client import ToolenvEnvClient
    from clients.openenv_models import function_tool

    url, settings = served
    first, expected = reference(environment, SCENARIO)
    spec = next(s for s in settings.train if s.id == SCENARIO)
    async with ToolenvEnvClient(url) as env:
        reset = await env.reset(scenario_id=SCENARIO, episode_id="ep-oracle")
        assert reset.observation.messages == first["messages"]
        assert [function_tool(t) for t in reset.observation.tools] == first["tools"]
        rewards, state = await play_oracle(env, spec, reset.observation.info)
        assert rewards == expected and sum(rewards) > 5
        assert (state.episode_id, state.mode, state.scenario_id) == ("ep-oracle", "scenario", SCENARIO)
        assert (state.terminated, state.truncated, state.success) == (True, False, True)
        assert state.tasks_correct == state.task_count == len(spec.tasks)
        assert state.step_count == len(rewards) and state.episode_return == pytest.approx(sum(rewards))

        reset = await env.reset(scenario_id=SCENARIO)
        rewards, state = await play_oracle(env, spec, reset.observation.info, wrong_call_in_task=0)
        assert sum(rewards) < sum(expected) and state.episode_return == pytest.approx(sum(rewards))
        assert (state.terminated, state.success, state.tasks_correct) == (True, False, len(spec.tasks) - 1)
        assert state.step_count == len(rewards) == len(expected) + 1


async def play_oracle(env: Any, spec: Any, info: dict[str, Any], *,
                      wrong_call_in_task: int | None = None) -> tuple[list[float], Any]:
    """Send the oracle's messages until the episode ends; its rewards and the final state.

    With ``wrong_call_in_task``, a call to a tool the episode does not have comes before that
    task's answer: the task is lost, with no simulator run (a cold simulator takes seconds).
    """
    from openenv.core.env_server.mcp_types import CallToolAction, ToolErrorType

    policy, observation, rewards = OraclePolicy(spec), None, []
    while True:
        action = policy(observation, info)
        if info["task_index"] == wrong_call_in_task and not action.get("tool_calls"):
            wrong = await env.step(CallToolAction(tool_name="no_such_tool", arguments={}))
            assert wrong.observation.error.error_type is ToolErrorType.TOOL_NOT_FOUND
            assert wrong.observation.info["judgement"]["verdicts"] == ["unmatched"] and wrong.reward < 0
            rewards.append(wrong.reward)
            wrong_call_in_task = None
        step = await env.send(action)
        rewards.append(step.reward)
        observation, info = {"messages": step.observation.messages}, step.observation.info
        if step.done:
            return rewards, await env.state()


async def test_openenv_mcp_tool_client_plays_a_scenario_with_tool_calls_and_talk_to_user(served, environment):
    from openenv.core.env_server.mcp_types import CallToolAction
    from openenv.core.mcp_client import MCPToolClient

    url, settings = served
    _, oracle_rewards = reference(environment, SCENARIO)
    spec = next(s for s in settings.train if s.id == SCENARIO)
    async with MCPToolClient(url) as env:
        await env.reset(scenario_id=SCENARIO)
        names = [t.name for t in await env.list_tools()]
        assert names[-1] == "talk_to_user" and set(names[:-1]) == set(spec.tools)
        opening = await env.call_tool("talk_to_user", message="")  # reads the request: no step
        assert (opening["task_index"], opening["kind"], opening["done"]) == (0, "task", False)
        assert (await env.state()).step_count == 0

        policy, task, total, steps, parallel_tasks = OraclePolicy(spec), 0, 0.0, 0, set()
        while True:
            action = policy(None, {"task_index": task})
            if action.get("tool_calls"):  # one call per step: a parallel step becomes several
                if len(action["tool_calls"]) > 1:
                    parallel_tasks.add(task)
                for call in action["tool_calls"]:
                    step = await env.step(CallToolAction(tool_name=call["function"]["name"],
                                                         arguments=json.loads(call["function"]["arguments"])))
                    assert step.observation.error is None and not step.observation.result["is_error"]
                    total, steps = total + step.reward, steps + 1
                continue
            step = await env.step(CallToolAction(tool_name="talk_to_user", arguments={"message": action["content"]}))
            said = step.observation.result["data"]
            total, steps, task = total + step.reward, steps + 1, said["task_index"]
            if said["done"]:
                assert step.done and said["kind"] == "end" and "conversation is over" in said["user_message"]
                break
        # Every task is still correct; a task with a parallel step loses only its optimal-path bonus.
        assert len(parallel_tasks) >= 1
        assert total == pytest.approx(sum(oracle_rewards) - 0.2 * len(parallel_tasks))
        assert (await env.state()).step_count == steps


async def test_free_play_serves_the_tool_subset_without_reward_and_ends_on_an_answer(served, environment):
    from clients.openenv_client import ToolenvEnvClient

    url, _ = served
    args = {"latitude": 52.52, "longitude": 13.41}
    environment.create_session(tools=FREE_TOOLS, session_id="free-reference", seed=7)
    expected = environment.call_tool("free-reference", FREE_TOOLS[0], args).result
    async with ToolenvEnvClient(url) as env:
        reset = await env.reset(tools=FREE_TOOLS, seed=7)
        assert [t.name for t in reset.observation.tools] == FREE_TOOLS
        assert [t.name for t in await env.list_tools()] == FREE_TOOLS  # no talk_to_user: there is no user
        assert await env.call_tool(FREE_TOOLS[0], **args) == expected  # same seed, same world
        bad = await env.call_tool(FREE_TOOLS[0], latitude="north")
        assert "latitude" in bad
        with pytest.raises(RuntimeError, match="tool_not_found"):
            await env.call_tool("openmeteo_get_air_qualty")
        done = await env.send({"role": "assistant", "content": "The air in Berlin is fine."})
        assert done.done and done.reward is None and not done.observation.truncated
        state = await env.state()
        assert (state.mode, state.step_count, state.episode_return, state.terminated) == ("free_play", 4, None, True)
        assert state.state_digest == environment.state_digest(state.session_id)


async def test_misuse_is_refused_with_a_reason(served):
    from clients.openenv_client import ToolenvEnvClient

    url, settings = served
    held_out = sorted(settings.held_out)[0]
    async with ToolenvEnvClient(url) as env:
        with pytest.raises(RuntimeError, match="call reset"):
            await env.send({"role": "assistant", "content": "hello?"})
        with pytest.raises(RuntimeError, match=f"'{held_out}' is in the held-out test split"):
            await env.reset(scenario_id=held_out)
        with pytest.raises(RuntimeError, match="unknown tool 'weather_nope'"):
            await env.reset(tools=["weather_nope"])
        with pytest.raises(RuntimeError, match="colour"):
            await env.reset(tools=FREE_TOOLS, colour="blue")
        with pytest.raises(RuntimeError, match="colour"):
            await env.reset(scenario_id=SCENARIO, colour="blue")
        await env.reset(tools=FREE_TOOLS)
        await env.send({"role": "assistant", "content": "Nothing to do."})
        with pytest.raises(RuntimeError, match="episode is over"):
            await env.send({"role": "assistant", "content": "one more"})


@pytest.mark.slow  # the generator records its gold from the simulator: seconds on a cold process
async def test_a_generated_scenario_plays_as_in_process(served, environment):
    from clients.openenv_client import ToolenvEnvClient

    url, _ = served
    local = ToolEnv(environment)
    obs, info = local.reset(seed=42, options={"generator": {}})
    local.close()
    async with ToolenvEnvClient(url) as env:
        generated = await env.reset(seed=42, generator={})
        assert generated.observation.info["scenario_id"] == info["scenario_id"]
        assert generated.observation.messages == obs["messages"]
        ended = await env.send({"role": "assistant", "content": "I cannot help."})
        while not ended.done:
            ended = await env.send({"role": "assistant", "content": "I cannot help."})
        state = await env.state()
        assert (state.terminated, state.success) == (True, False) and state.tasks_correct < state.task_count
        with pytest.raises(RuntimeError, match="the episode is over"):
            await env.send({"role": "assistant", "content": "one more"})


def test_the_action_class_routes_openenv_mcp_payloads_to_openenv_own_actions():
    from openenv.core.env_server.mcp_types import CallToolAction, ListToolsAction
    from openenv.core.env_server.serialization import deserialize_action

    from clients.openenv_models import ToolenvAction

    call = deserialize_action({"type": "call_tool", "tool_name": "x", "arguments": {"a": 1}}, ToolenvAction)
    assert isinstance(call, CallToolAction) and call.arguments == {"a": 1}
    assert isinstance(deserialize_action({"type": "list_tools"}, ToolenvAction), ListToolsAction)
    message = deserialize_action({"type": "message", "message": {"role": "assistant", "content": "hi"}}, ToolenvAction)
    assert isinstance(message, ToolenvAction) and message.message.content == "hi"
    with pytest.raises(ValueError, match="message"):
        deserialize_action({"type": "message"}, ToolenvAction)
