"""ChatEpisode: a ToolEnv episode behind a chat loop, as framework adapters drive it (no verifiers needed)."""

from __future__ import annotations

import time

import anyio
import pytest

from clients.chat_episode import INVALID_CALL, ChatEpisode, EpisodeSpec, assistant_action
from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.rl import OraclePolicy, ResetOptions, ToolEnv, score_rollout
from env_server.rl.policies import oracle_plan
from state import Database
from state.store import Durability

SCENARIO = "flight_to_tokyo"


@pytest.fixture
def environment(builtin_catalog: Catalog) -> ToolEnvironment:
    return ToolEnvironment(builtin_catalog, Database(), ServerSettings(durability=Durability.EPHEMERAL))


def spec_of(scenario_id: str = SCENARIO, **fields) -> EpisodeSpec:
    options = fields.pop("options", {})
    return EpisodeSpec(options=ResetOptions(scenario_id=scenario_id, **options), **fields)


async def play_oracle(episode: ChatEpisode) -> list[str | None]:
    """Play the oracle's flattened path; the user messages the episode answered with."""
    users = []
    for action in (a for task in oracle_plan(episode.env.scenario) for a in task):
        replies = await episode.act(action)
        assert len(replies) == len(action.get("tool_calls") or ())
        assert [r["tool_call_id"] for r in replies] == [c["id"] for c in action.get("tool_calls") or ()]
        if not action.get("tool_calls"):
            users.append(episode.next_user)
    return users


@pytest.mark.anyio
async def test_the_oracle_episode_records_every_task_correct_and_the_rl_planes_return(environment):
    episode = ChatEpisode(spec_of(), environment)
    assert [m["role"] for m in episode.messages] == ["system", "user"]
    assert episode.messages[0]["content"].startswith("Current Date: ")
    assert episode.tools and all(t["type"] == "function" for t in episode.tools)
    users = await play_oracle(episode)
    record = episode.record
    assert episode.over and record.terminated and not record.truncated
    assert record.success and record.tasks_correct == record.task_count == len(episode.env.scenario.tasks)
    assert record.task_accuracy == 1.0
    assert users[-1] is None and all(users[:-1]), "each reply but the last gets the user's next message"

    # The same actions through ToolEnv directly: the same per-step rewards, and offline scoring agrees.
    env = ToolEnv(environment)
    obs, info = env.reset(options={"scenario_id": SCENARIO})
    policy, rewards, done = OraclePolicy(env.scenario), [], False
    while not done:
        obs, reward, terminated, truncated, info = env.step(policy(obs, info))
        rewards.append(reward)
        done = terminated or truncated
    assert [s.reward for s in record.steps] == rewards
    session, judgements = score_rollout(env.gold, env.actions_per_task())
    assert record.total_reward == pytest.approx(sum(rewards))
    assert [list(v.value for v in j.verdicts) for j in judgements] == [s.verdicts for s in record.steps]
    assert all(t.correct for t in session.tasks)
    episode.close()
    env.close()


@pytest.mark.anyio
async def test_a_text_reply_gets_the_next_user_message_and_a_failed_task_is_recorded(environment):
    episode = ChatEpisode(spec_of(), environment)
    assert await episode.act({"role": "assistant", "content": "I can't help with that."}) == []
    step = episode.record.steps[-1]
    assert step.kind == "reply" and step.task == 0 and step.task_ended and step.task_correct is False
    assert step.reward < 0 and step.verdicts == ["unmatched"]
    assert episode.next_user, "the next task's request"
    assert episode.record.tasks_correct == 0 and not episode.over
    episode.close()


@pytest.mark.anyio
async def test_the_step_budget_truncates_the_episode_and_leaves_no_user_message(environment):
    episode = ChatEpisode(spec_of(max_steps=1), environment)
    call = oracle_plan(episode.env.scenario)[0][0]
    await episode.act(call)
    assert episode.over and episode.record.truncated and not episode.record.terminated
    assert episode.next_user is None and not episode.record.success


@pytest.mark.anyio
async def test_a_timeout_fault_waits_its_delay_without_blocking_the_event_loop(environment):
    faults = {"seed": 1, "timeout": 1.0, "slow_ms": 150}
    episode = ChatEpisode(spec_of(options={"faults": faults}), environment)
    call = oracle_plan(episode.env.scenario)[0][0]
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await anyio.sleep(0.01)

    async with anyio.create_task_group() as tg:
        tg.start_soon(tick)
        start = time.perf_counter()
        replies = await episode.act(call)
        elapsed = time.perf_counter() - start
        tg.cancel_scope.cancel()
    assert elapsed >= 0.15 and ticks >= 5, "the ticker ran while the fault's delay passed"
    step = episode.record.steps[-1]
    assert step.faults == ["timeout"] * len(replies) and step.verdicts == ["fault"] * len(replies)
    assert step.reward == 0.0
    episode.close()


def test_the_action_keeps_content_ids_names_and_arguments_only():
    message = {"role": "assistant", "content": "checking", "refusal": None, "reasoning_content": "hmm",
               "tool_calls": [
                   {"id": "a", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}},
                   {"id": "b", "type": "function", "function": {"name": "convert", "arguments": {"amount": 3}}},
                   {"type": "function", "function": {"name": "", "arguments": "{not json"}},
               ]}
    action = assistant_action(message)
    assert set(action) == {"role", "content", "tool_calls"} and action["content"] == "checking"
    names = [c["function"]["name"] for c in action["tool_calls"]]
    assert names == ["get_weather", "convert", INVALID_CALL]
    assert [c["function"]["arguments"] for c in action["tool_calls"]] == ['{"city": "Oslo"}', '{"amount": 3}',
                                                                          "{not json"]
    assert [c["id"] for c in action["tool_calls"]] == ["a", "b", "call_2"]
    assert assistant_action({"role": "assistant", "content": "hi"}) == {"role": "assistant", "content": "hi"}


@pytest.mark.anyio
async def test_a_nameless_call_is_an_error_observation_graded_unmatched(environment):
    episode = ChatEpisode(spec_of(), environment)
    replies = await episode.act({"role": "assistant", "content": None, "tool_calls": [
        {"id": "x", "type": "function", "function": {"name": None, "arguments": "{}"}}]})
    assert len(replies) == 1 and INVALID_CALL in replies[0]["content"]
    assert episode.record.steps[-1].verdicts == ["unmatched"]
    episode.close()
