"""The live protocol over a real socket: REST control plane, official MCP client, eval runner."""

from __future__ import annotations

import json

import anyio
import httpx
import pytest
from typer.testing import CliRunner

from clients.agent_runner import RunConfig, run_eval
from clients.agents import OpenAIAgent, OracleAgent, ScriptedAgent
from clients.eval_cli import eval_app
from env_server.orchestrator.sessions import registry_for
from env_server.runner import serve_in_thread

SAMPLE = [
    "airport_ride_home",        # chat, parallel, single, sequential
    "film_club_schedule",       # two-round clarification
    "reading_list_authors",     # mixed multi-tool
    "oslo_bergen_trip_weather",  # parallel calls of one tool
    "nba_player_stats",
    "concert_gift_tickets",
]


@pytest.fixture
def server(live):
    env, _ = live
    with serve_in_thread(env) as base:
        yield base


def _admin(env) -> dict[str, str]:
    return {"Authorization": f"Bearer {env.settings.admin_token}"}


def test_the_oracle_gets_every_task_right_through_the_official_mcp_client(live, server, tmp_path, builtin_scenarios):
    chosen = [builtin_scenarios.get(s) for s in SAMPLE]
    config = RunConfig(agent="oracle", concurrency=3, admin_token=live[0].settings.admin_token)
    summary = anyio.run(run_eval, server, chosen, OracleAgent, config, tmp_path / "run")
    assert summary["task_accuracy"] == 1.0 and summary["session_accuracy"] == 1.0
    assert summary["tasks"] == 4 * len(SAMPLE) and summary["failed_sessions"] == 0
    lines = [json.loads(t) for t in (tmp_path / "run" / "sessions" / "film_club_schedule.jsonl").read_text().splitlines()]
    assert lines[0]["type"] == "session" and lines[-1]["type"] == "result"
    calls = next(line for line in lines if line["type"] == "calls")["calls"]
    assert calls and all(c["pinned"] and c["step_id"] for c in calls)
    assert not any(t["approximate_grouping"] for t in lines[-1]["tasks"])
    kinds = [line.get("kind") for line in lines if line["type"] == "message" and line["role"] == "user"]
    assert kinds.count("clarification") == 2  # the two-round clarification of task 2


def test_rest_control_plane_reports_live_and_rejects_misuse(live, server):
    admin = _admin(live[0])
    created = httpx.post(f"{server}/v1/scenario-sessions", json={"scenario_id": "lisbon_comedy_weekend"})
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["mcp_path"] == f"/sessions/{body['session_id']}/mcp" and body["task_index"] == 0
    sid = body["session_id"]
    result = httpx.get(f"{server}/v1/scenario-sessions/{sid}/result", headers=admin).json()
    assert result["tasks"][0]["status"] == "running" and result["tasks"][1]["status"] == "pending"
    for _ in range(4):
        turn = httpx.post(f"{server}/v1/scenario-sessions/{sid}/reply", json={"content": "I can't."})
        assert turn.status_code == 200
    assert turn.json()["done"] is True
    again = httpx.post(f"{server}/v1/scenario-sessions/{sid}/reply", json={"content": "hello?"})
    assert again.status_code == 409 and "has ended" in again.json()["detail"]
    final = httpx.get(f"{server}/v1/scenario-sessions/{sid}/result", headers=admin).json()
    assert final["done"] and [t["label"] for t in final["tasks"]] == ["error"] * 4
    assert httpx.get(f"{server}/v1/scenario-sessions/sc_missing/result", headers=admin).status_code == 404
    assert httpx.post(f"{server}/v1/scenario-sessions/sc_missing/reply", json={"content": "x"}).status_code == 404
    missing = httpx.post(f"{server}/v1/scenario-sessions", json={"scenario_id": "lisbon"})
    assert missing.status_code == 404


def test_a_scripted_agent_fails_tool_tasks_and_passes_chat_tasks(live, server, builtin_scenarios, tmp_path):
    spec = builtin_scenarios.get("airport_ride_home")
    config = RunConfig(agent="scripted", admin_token=live[0].settings.admin_token)
    summary = anyio.run(run_eval, server, [spec], ScriptedAgent, config, tmp_path / "run")
    assert summary["correct_tasks"] == 1 and summary["by_task_type"]["Chat"]["accuracy"] == 1.0


def test_the_openai_agent_speaks_chat_completions_and_replies_in_text(live, server, builtin_scenarios, tmp_path):
    seen: list[dict] = []

    def fake_llm(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append(body)
        if len(seen) == 1:
            return httpx.Response(429)  # retried with backoff
        last = body["messages"][-1]
        if last["role"] == "user" and "ride options" in last["content"]:
            call = {"id": "c1", "type": "function",
                    "function": {"name": "uber_list_products", "arguments": '{"latitude": 40.6413, "longitude": -73.7781}'}}
            return httpx.Response(200, json={"choices": [{"message": {"role": "assistant", "content": None,
                                                                       "tool_calls": [call]}}]})
        return httpx.Response(200, json={"choices": [{"message": {"role": "assistant", "content": "Sure."}}]})

    def agent() -> OpenAIAgent:
        return OpenAIAgent(base_url="http://llm.invalid/v1", model="fake", backoff_s=0.0,
                           transport=httpx.MockTransport(fake_llm))

    spec = builtin_scenarios.get("airport_ride_home")
    summary = anyio.run(run_eval, server, [spec], agent, RunConfig(agent="openai", model="fake", admin_token=live[0].settings.admin_token), tmp_path / "run")
    assert seen[0]["messages"][0] == {"role": "system", "content": f"Current Date: {spec.env_info}"}
    assert {t["function"]["name"] for t in seen[0]["tools"]} == set(spec.tools)
    tool_messages = [m for m in seen[-1]["messages"] if m["role"] == "tool"]
    assert len(tool_messages) == 1 and tool_messages[0]["tool_call_id"] == "c1"
    assert summary["correct_tasks"] == 1  # the chat task; the partial parallel step fails task 1


def test_toolenv_eval_with_the_oracle_writes_a_run_directory_that_says_100_percent(tmp_path):
    args = ["--agent", "oracle", "--scenario", "airport_ride_home", "--scenario", "kanban_bug_triage",
            "--out", str(tmp_path)]
    result = CliRunner().invoke(eval_app, args)
    assert result.exit_code == 0, result.output
    run = tmp_path / "oracle"
    summary = json.loads((run / "summary.json").read_text())
    assert summary["task_accuracy"] == 1.0 and summary["session_accuracy"] == 1.0 and summary["tasks"] == 8
    assert sorted(p.name for p in (run / "sessions").iterdir()) == ["airport_ride_home.jsonl", "kanban_bug_triage.jsonl"]
    assert json.loads((run / "config.json").read_text())["scenarios"] == ["airport_ride_home", "kanban_bug_triage"]
    assert "task accuracy 100.0%" in result.output
    before = (run / "sessions" / "airport_ride_home.jsonl").read_text()
    again = CliRunner().invoke(eval_app, args)  # resumed: finished sessions are not replayed
    assert again.exit_code == 0 and (run / "sessions" / "airport_ride_home.jsonl").read_text() == before


def test_the_registry_is_shared_by_the_app_and_in_process_callers(live, server):
    env, registry = live
    assert registry_for(env) is registry
    sid = httpx.post(f"{server}/v1/scenario-sessions", json={"scenario_id": "euro_trip_budget"}).json()["session_id"]
    assert registry.get(sid).spec.id == "euro_trip_budget"
