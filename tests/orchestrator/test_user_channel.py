"""The user channel: a plain MCP client plays a whole scenario through talk_to_user, no REST."""

from __future__ import annotations

import anyio
import httpx
from mcp import Client

from env_server.orchestrator.channel import TALK_TOOL_NAME
from env_server.orchestrator.gold import gold_task
from env_server.orchestrator.live import STEP_META_KEY
from env_server.runner import serve_in_thread
from env_server.scoring import ASK, PREPARE, PathEngine

SCENARIO = "film_club_schedule"  # has a two-round clarification


async def _play_over_mcp(url: str, scenario) -> tuple[str | None, list[dict], list[str]]:
    """The oracle, speaking only MCP: gold calls plus talk_to_user for every text turn."""
    said: list[dict] = []
    async with Client(url) as client:
        instructions = client.instructions
        names = [t.name for t in (await client.list_tools()).tools]

        async def talk(message: str) -> dict:
            result = await client.call_tool(TALK_TOOL_NAME, {"message": message})
            assert not result.is_error
            said.append(result.structured_content)
            return result.structured_content

        turn = await talk("")
        while not turn["done"]:
            index = turn["task_index"]
            gold = gold_task(scenario.tasks[index], index, [])
            for k, step in enumerate(PathEngine.from_task(gold).first_optimal_path()):
                first = gold.nodes[step[0]]
                if first.name in (ASK, PREPARE):
                    turn = await talk(first.observation or "Done.")
                    if first.name == PREPARE:
                        break
                    continue
                async with anyio.create_task_group() as group:
                    for i in step:
                        node = gold.nodes[i]
                        group.start_soon(lambda n=node, tag=f"{index}-{k}": client.call_tool(
                            n.name, n.arguments, meta={STEP_META_KEY: tag}))
        assert (await talk(""))["done"]  # still over, and says so
    return instructions, said, names


def test_a_plain_mcp_client_plays_a_whole_scenario_through_talk_to_user(live, builtin_scenarios):
    env, registry = live
    spec = builtin_scenarios.get(SCENARIO)
    with serve_in_thread(env) as base:
        created = httpx.post(f"{base}/v1/sessions", json={"scenario_id": SCENARIO, "user_channel": True})
        assert created.status_code == 201, created.text
        body = created.json()
        assert body["user_channel"] and body["tool_count"] == len(spec.tools) + 1
        instructions, said, names = anyio.run(_play_over_mcp, f"{base}{body['mcp_path']}", spec)
        admin = {"Authorization": f"Bearer {env.settings.admin_token}"}
        result = httpx.get(f"{base}/v1/scenario-sessions/{body['session_id']}/result", headers=admin).json()
        other = httpx.post(f"{base}/v1/sessions", json={"tools": spec.tools[:1]}).json()

        async def other_instructions() -> str | None:
            async with Client(f"{base}{other['mcp_path']}") as client:
                return client.instructions

        plain = anyio.run(other_instructions)
    assert result["accuracy"] == 1.0 and result["done"]
    assert sorted(names) == sorted([*spec.tools, TALK_TOOL_NAME])
    assert spec.tasks[0].user_message in instructions and TALK_TOOL_NAME in instructions
    assert TALK_TOOL_NAME not in (plain or "")  # other sessions keep the global instructions
    assert said[0] == {"user_message": spec.tasks[0].user_message, "task_index": 0, "kind": "task", "done": False}
    assert [s["kind"] for s in said].count("clarification") == 2
    assert said[-1]["done"] and "conversation is over" in said[-1]["user_message"]
    session = registry.get(body["session_id"])
    assert all(e.name != TALK_TOOL_NAME for e in session.entries)  # never matched as a tool call
    logged = [c.tool for c in env.calls(body["session_id"])]
    assert logged.count(TALK_TOOL_NAME) == len(said)


def test_talk_to_user_with_an_empty_message_judges_nothing(live):
    env, registry = live
    session, turn = registry.create("lisbon_comedy_weekend", user_channel=True)
    for _ in range(2):
        outcome = env.call_tool(session.session_id, TALK_TOOL_NAME, {"message": ""})
        assert outcome.result["user_message"] == turn.content and outcome.result["task_index"] == 0
    assert session.result().tasks[0].status.value == "running" and session.result().tasks[0].steps == 0
    bad = env.call_tool(session.session_id, TALK_TOOL_NAME, {"text": "hi"})
    assert bad.is_error and "message" in bad.message
    plain, _ = registry.create("lisbon_comedy_weekend")
    assert TALK_TOOL_NAME not in env.listed_names(env.view(plain.session_id))
