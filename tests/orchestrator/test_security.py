"""Security of the REST control plane: no gold without the admin token; 401/403/404 paths."""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client

from env_server.runner import serve_in_thread

SCENARIO = "concert_gift_tickets"


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _secrets(spec, public: str) -> set[str]:
    """Distinctive strings of gold arguments and observations that no public text contains."""
    found: set[str] = set()
    for task in spec.tasks:
        for node in task.nodes:
            found |= _strings(node.action.arguments) | _strings(node.observation)
    return {s for s in found if len(s) >= 6 and s not in public}


@pytest.fixture
def server(live):
    env, _ = live
    with serve_in_thread(env) as base:
        yield base


def test_nothing_a_session_id_reaches_returns_gold(live, server, builtin_scenarios):
    env, _ = live
    spec = builtin_scenarios.get(SCENARIO)
    created = httpx.post(f"{server}/v1/sessions", json={"scenario_id": SCENARIO, "user_channel": True,
                                                        "distractors": 5})
    assert created.status_code == 201
    sid, path = created.json()["session_id"], created.json()["mcp_path"]
    bodies = [created.text]
    for _ in range(10):  # answer in text only until the session ends
        turn = httpx.post(f"{server}/v1/scenario-sessions/{sid}/reply", json={"content": "No idea."})
        bodies.append(turn.text)
        if turn.json()["done"]:
            break
    for route in (f"/v1/scenario-sessions/{sid}", f"/v1/sessions/{sid}", f"/v1/sessions/{sid}/calls",
                  f"/v1/sessions/{sid}/state", "/v1/scenarios", f"/v1/scenario-sessions/{sid}/result",
                  f"/v1/scenario-sessions/{sid}/calls"):
        response = httpx.get(f"{server}{route}")
        bodies.append(response.text)
        if route.endswith(("/result", "/calls")) and route.startswith("/v1/scenario-sessions"):
            assert response.status_code == 401

    async def over_mcp() -> list[str]:
        async with Client(f"{server}{path}") as client:
            listing = await client.list_tools()
            talk = await client.call_tool("talk_to_user", {"message": ""})
            return [client.instructions or "", json.dumps([t.model_dump(mode="json") for t in listing.tools]),
                    json.dumps(talk.structured_content)]

    mcp_bodies = anyio.run(over_mcp)
    public = "\n".join([spec.env_info, *mcp_bodies,
                        *(t.user_message for t in spec.tasks),
                        *(n.user_input or "" for t in spec.tasks for n in t.nodes)])
    secret = _secrets(spec, public)
    assert secret, "the scenario should have gold values that are not public"
    leaked = sorted(s for s in secret if any(s in body for body in bodies + mcp_bodies))
    assert not leaked
    status = httpx.get(f"{server}/v1/scenario-sessions/{sid}").json()
    assert status["done"] and status["tasks_ended"] == 4 and "label" not in json.dumps(status)
    admin = {"Authorization": f"Bearer {env.settings.admin_token}"}
    judged = httpx.get(f"{server}/v1/scenario-sessions/{sid}/result", headers=admin)
    assert judged.status_code == 200 and [t["label"] for t in judged.json()["tasks"]].count("error") >= 3


def test_judging_routes_need_the_admin_token(live, server):
    env, _ = live
    sid = httpx.post(f"{server}/v1/scenario-sessions", json={"scenario_id": SCENARIO}).json()["session_id"]
    for route in ("result", "calls"):
        url = f"{server}/v1/scenario-sessions/{sid}/{route}"
        missing = httpx.get(url)
        assert missing.status_code == 401 and "admin token" in missing.json()["detail"]
        assert missing.headers["www-authenticate"] == "Bearer"
        malformed = httpx.get(url, headers={"Authorization": env.settings.admin_token})
        assert malformed.status_code == 401 and "Bearer" in malformed.json()["detail"]
        wrong = httpx.get(url, headers={"Authorization": "Bearer not-the-token"})
        assert wrong.status_code == 403 and wrong.json()["detail"] == "the admin token is wrong"
        right = httpx.get(url, headers={"Authorization": f"Bearer {env.settings.admin_token}"})
        assert right.status_code == 200
        unknown = httpx.get(f"{server}/v1/scenario-sessions/sc_unknown/{route}",
                            headers={"Authorization": f"Bearer {env.settings.admin_token}"})
        assert unknown.status_code == 404


def test_unknown_sessions_are_404_and_delete_releases_a_session(live, server):
    env, registry = live
    for method, route in (("GET", "sc_nope"), ("DELETE", "sc_nope"), ("POST", "sc_nope/reply")):
        response = httpx.request(method, f"{server}/v1/scenario-sessions/{route}",
                                 json={"content": "x"} if method == "POST" else None)
        assert response.status_code == 404, (method, route)
    assert httpx.post(f"{server}/v1/sessions", json={"scenario_id": "no_such"}).status_code == 404
    sid = httpx.post(f"{server}/v1/sessions", json={"scenario_id": SCENARIO, "user_channel": True}).json()["session_id"]
    assert env.hook_for(sid) is not None and env.extension_for(sid) is not None
    assert httpx.delete(f"{server}/v1/scenario-sessions/{sid}").status_code == 204
    assert env.hook_for(sid) is None and env.extension_for(sid) is None
    assert httpx.get(f"{server}/v1/scenario-sessions/{sid}").status_code == 404
    assert httpx.delete(f"{server}/v1/scenario-sessions/{sid}").status_code == 404


def test_post_sessions_routes_scenarios_and_keeps_tool_list_sessions(server, builtin_scenarios):
    listing = httpx.get(f"{server}/v1/scenarios").json()
    assert len(listing) == len(builtin_scenarios.scenarios)
    first = next(s for s in listing if s["id"] == SCENARIO)
    assert set(first) == {"id", "title", "task_count", "task_types"} and first["task_count"] == 4
    plain = httpx.post(f"{server}/v1/sessions", json={"tools": ["uber_list_products"], "seed": 3})
    assert plain.status_code == 201 and plain.json()["session"]["seed"] == 3
    assert httpx.post(f"{server}/v1/sessions", json={"tools": ["uber_list_products"],
                                                     "distractors": 2}).status_code == 422
    mixed = httpx.post(f"{server}/v1/sessions", json={"scenario_id": SCENARIO, "tools": ["uber_list_products"]})
    assert mixed.status_code == 422
    scenario = httpx.post(f"{server}/v1/sessions", json={"scenario_id": SCENARIO, "seed": 7, "max_steps": 3})
    assert scenario.status_code == 201 and scenario.json()["task_index"] == 0
    assert httpx.get(f"{server}/v1/sessions/{scenario.json()['session_id']}").json()["seed"] == 7
