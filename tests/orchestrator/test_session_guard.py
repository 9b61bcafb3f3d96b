"""Scenario sessions cannot be explored unjudged: fork/reset need the admin token, a deleted one is gone for good."""

from __future__ import annotations

import anyio
import httpx
import pytest
from mcp import Client, MCPError

from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.errors import UnknownSessionError
from env_server.orchestrator.sessions import registry_for
from state import Database
from tests.servers import running_server

SCENARIO = "concert_gift_tickets"
TOKEN = "guard-secret"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _gold_call(spec) -> tuple[str, dict, object]:
    node = next(n for n in spec.tasks[0].nodes if not n.action.is_pseudo)
    return node.action.name, node.action.arguments, node.observation


async def _call(base: str, path: str, name: str, arguments: dict) -> dict:
    async with Client(f"{base}{path}") as client:
        result = await client.call_tool(name, arguments)
        return result.structured_content


@pytest.fixture
def guarded_env(builtin_catalog, builtin_scenarios):
    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings(admin_token=TOKEN))
    registry_for(env, builtin_scenarios)
    return env


def test_fork_and_reset_of_a_scenario_session_need_the_admin_token(guarded_env, builtin_scenarios):
    name, arguments, observation = _gold_call(builtin_scenarios.get(SCENARIO))
    with running_server(guarded_env) as base, httpx.Client(base_url=base) as http:
        created = http.post("/v1/sessions", json={"scenario_id": SCENARIO}).json()
        sid = created["session_id"]
        served = anyio.run(_call, base, created["mcp_path"], name, arguments)
        assert served == observation  # a matched call is served the recorded gold observation
        assert http.get(f"/v1/sessions/{sid}").json()["gold_guarded"] is True
        for route in ("fork", "reset"):
            missing = http.post(f"/v1/sessions/{sid}/{route}", json={"session_id": "probe"} if route == "fork" else None)
            assert missing.status_code == 401 and "admin token" in missing.json()["detail"], route
            assert http.post(f"/v1/sessions/{sid}/{route}", headers={"Authorization": "Bearer no"}).status_code == 403
        assert http.get("/v1/sessions/probe").status_code == 404  # the refused fork made nothing
        fork = http.post(f"/v1/sessions/{sid}/fork", json={"session_id": "probe"}, headers=ADMIN)
        assert fork.status_code == 201 and fork.json()["session"]["gold_guarded"] is True
        fork_calls = http.get("/v1/sessions/probe/calls").json()
        assert fork_calls[-1]["result"] == observation  # why a fork is guarded: it holds gold
        assert http.post("/v1/sessions/probe/fork").status_code == 401  # the fork's forks too
        assert http.post(f"/v1/sessions/{sid}/reset", headers=ADMIN).status_code == 200
        plain = http.post("/v1/sessions", json={"tools": [name]}).json()["session"]["session_id"]
        assert http.post(f"/v1/sessions/{plain}/fork").status_code == 201
        assert http.post(f"/v1/sessions/{plain}/reset").status_code == 200
        assert http.post("/v1/sessions/s_nope/fork").status_code == 404
        assert http.post("/v1/sessions/s_nope/reset").status_code == 404


def test_a_deleted_scenario_session_answers_404_everywhere_and_never_reloads(builtin_catalog, builtin_scenarios,
                                                                             tmp_path):
    db_path = tmp_path / "guard.duckdb"
    db = Database(db_path)
    env = ToolEnvironment(builtin_catalog, db, ServerSettings(db_path=db_path, admin_token=TOKEN))
    registry_for(env, builtin_scenarios)
    name, arguments, _ = _gold_call(builtin_scenarios.get(SCENARIO))
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    with running_server(env) as base, httpx.Client(base_url=base) as http:
        created = http.post("/v1/scenario-sessions", json={"scenario_id": SCENARIO}).json()
        sid, path = created["session_id"], created["mcp_path"]
        anyio.run(_call, base, path, name, arguments)
        assert len(http.get(f"/v1/sessions/{sid}/calls").json()) == 1
        assert http.delete(f"/v1/scenario-sessions/{sid}").status_code == 204
        assert_gone(http, sid, path, call)
        unknown = pytest.RaisesGroup(pytest.RaisesExc(MCPError, match="unknown session"), flatten_subgroups=True)
        with unknown:
            anyio.run(_call, base, path, name, arguments)
        assert len(env.log.calls(sid)) == 1  # nothing served was logged; the record of what was played stays
        assert sid not in env._views
    db.close()

    restarted = ToolEnvironment(builtin_catalog, Database(db_path), ServerSettings(db_path=db_path, admin_token=TOKEN))
    with pytest.raises(UnknownSessionError):
        restarted.view(sid)
    with running_server(restarted) as base, httpx.Client(base_url=base) as http:
        assert_gone(http, sid, path, call)
        retry = http.post("/v1/sessions", json={"tools": [name], "session_id": sid})
        assert retry.status_code == 409 and "already exists" in retry.text  # the id is never reused
    assert len(restarted.log.calls(sid)) == 1


def assert_gone(http: httpx.Client, sid: str, path: str, call: dict) -> None:
    for method, route in (("GET", f"/v1/sessions/{sid}"), ("GET", f"/v1/sessions/{sid}/calls"),
                          ("GET", f"/v1/sessions/{sid}/state"), ("POST", f"/v1/sessions/{sid}/fork"),
                          ("POST", f"/v1/sessions/{sid}/reset"), ("GET", f"/v1/scenario-sessions/{sid}"),
                          ("POST", f"/v1/scenario-sessions/{sid}/reply"), ("DELETE", f"/v1/scenario-sessions/{sid}")):
        body = {"content": "hi"} if route.endswith("/reply") else None
        assert http.request(method, route, json=body, headers=ADMIN).status_code == 404, (method, route)
    over_mcp = http.post(path, json=call, headers=MCP_HEADERS)
    assert over_mcp.status_code == 404
    assert over_mcp.json()["error"]["message"] == f"unknown session '{sid}'"
