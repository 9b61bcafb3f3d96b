"""POST /v1/envs/batch/reset and /batch/step over a real uvicorn server: order, per-item errors, auth, limits,
a batch that leaves the event loop free, and the rollout client's batch path against its single-route path."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from clients.rollout_client import EnvReset, EnvStep, RolloutClient
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.rl import ActionError, AdminTokenError, EpisodeFinishedError, OraclePolicy, UnknownEnvError
from env_server.rl.scenarios import ScenarioPool
from state import Database
from state.store import Durability
from tests.rl.helpers import FlawedPolicy, tool_names
from tests.servers import running_server

pytestmark = pytest.mark.anyio
TOKEN = "batch-secret"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
EVAL_SCENARIO = "airport_ride_home"  # test split: needs the token
GENERATED = {"generator": {}}  # open to anyone


@pytest.fixture
def server(builtin_catalog):
    settings = ServerSettings(durability=Durability.EPHEMERAL, admin_token=TOKEN, max_batch=8, max_envs=6)
    env = ToolEnvironment(builtin_catalog, Database(), settings)
    with running_server(env) as url:
        yield url, env


def _reset_items(http: httpx.Client, items: list[dict[str, Any]], **kw: Any) -> list[dict[str, Any]]:
    response = http.post("/v1/envs/batch/reset", json={"items": items}, **kw)
    assert response.status_code == 200, response.text
    return list(response.json()["results"])


def _step_items(http: httpx.Client, items: list[dict[str, Any]], **kw: Any) -> list[dict[str, Any]]:
    response = http.post("/v1/envs/batch/step", json={"items": items}, **kw)
    assert response.status_code == 200, response.text
    return list(response.json()["results"])


def test_a_batch_answers_every_item_in_order_and_one_bad_item_fails_only_itself(server):
    url, env = server
    # The first generated scenario builds the catalog's generator tables: seconds on a loaded
    # machine, past httpx's default 5 s read timeout.
    with httpx.Client(base_url=url, headers=AUTH, timeout=60) as http:
        resets = _reset_items(http, [{"seed": 3, "options": GENERATED}, {"options": {"scenario_id": EVAL_SCENARIO}},
                                     {"options": {"scenario_id": "airport_ride_hom"}}, {"seed": 4}])
        assert [r["status"] for r in resets] == [201, 201, 422, 201]
        assert "did you mean airport_ride_home" in resets[2]["error"]["detail"] and resets[2]["result"] is None
        assert resets[1]["result"]["info"]["scenario_id"] == EVAL_SCENARIO and resets[1]["error"] is None
        gen, named, _, seeded = (r["result"] for r in resets)
        spec = ScenarioPool(env).specs[EVAL_SCENARIO]
        gold = OraclePolicy(spec)(named["observation"], named["info"])
        single = http.post(f"/v1/envs/{named['env_id']}/fork", json={"n": 1}).json()["env_ids"][0]
        steps = _step_items(http, [
            {"env_id": "env_nope", "action": {"content": "hi"}},
            {"env_id": named["env_id"], "action": gold},
            {"env_id": gen["env_id"], "action": {"role": "assistant", "tool_calls": [{"id": "x"}]}},
            {"env_id": seeded["env_id"], "action": {"content": "No."}},
        ])
        assert [s["status"] for s in steps] == [404, 200, 422, 200]
        assert "unknown env 'env_nope'" in steps[0]["error"]["detail"]
        assert steps[2]["error"]["detail"].startswith("malformed action: tool_calls.0.function")
        assert steps[1]["result"]["info"]["judgement"]["verdicts"] == ["matched"]
        # The same step on the single route gives the same answer.
        alone = http.post(f"/v1/envs/{single}/step", json={"action": gold}).json()
        assert {**alone["info"], "session_id": ""} == {**steps[1]["result"]["info"], "session_id": ""}
        assert alone["observation"] == steps[1]["result"]["observation"]
        # Items run in order: an env named twice takes both steps; a finished episode is 409 like the single route.
        result = None
        while result is None or not (result["terminated"] or result["truncated"]):
            result = _step_items(http, [{"env_id": seeded["env_id"], "action": {"content": "No."}}])[0]["result"]
        twice = _step_items(http, [{"env_id": seeded["env_id"], "action": {"content": "again"}},
                                   {"env_id": gen["env_id"], "action": {"content": "one"}},
                                   {"env_id": gen["env_id"], "action": {"content": "two"}}])
        assert [s["status"] for s in twice] == [409, 200, 200]
        assert "the episode is over" in twice[0]["error"]["detail"]
        assert [s["result"]["info"]["episode_step"] for s in twice[1:]] == [1, 2]


def test_batch_items_need_the_admin_token_exactly_where_the_single_routes_do(server):
    url, env = server
    with httpx.Client(base_url=url) as http:
        resets = _reset_items(http, [{"options": {"scenario_id": EVAL_SCENARIO}}, {"seed": 1, "options": GENERATED},
                                     {"seed": 2}])
        assert [r["status"] for r in resets] == [401, 201, 401]
        assert "admin token" in resets[0]["error"]["detail"] and resets[0]["result"] is None
        named = _reset_items(http, [{"options": {"scenario_id": EVAL_SCENARIO}}], headers=AUTH)[0]["result"]
        gen = resets[1]["result"]
        items = [{"env_id": named["env_id"], "action": {"content": "hi"}},
                 {"env_id": gen["env_id"], "action": {"content": "hi"}}]
        refused = http.post("/v1/envs/batch/step", json={"items": items})
        assert [s["status"] for s in refused.json()["results"]] == [401, 200]
        assert "reward" not in str(refused.json()["results"][0]) and "verdicts" not in str(refused.json()["results"][0])
        wrong = _step_items(http, items, headers={"Authorization": "Bearer wrong"})
        assert [s["status"] for s in wrong] == [403, 200]
        assert [s["status"] for s in _step_items(http, items, headers=AUTH)] == [200, 200]


def test_a_batch_past_max_batch_is_refused_whole_with_422_and_full_registry_items_get_429(server):
    url, env = server
    with httpx.Client(base_url=url, headers=AUTH) as http:
        too_many = http.post("/v1/envs/batch/step", json={"items": [{"env_id": "e", "action": {}}] * 9})
        assert too_many.status_code == 422
        assert "at most 8 items (the server's --max-batch) and this one has 9: split it" in str(too_many.json())
        schema = http.get("/openapi.json").json()["components"]["schemas"]
        assert schema["BatchStepRequest"]["properties"]["items"]["maxItems"] == 8
        assert schema["BatchResetRequest"]["properties"]["items"]["maxItems"] == 8
        # max_envs=6: the seventh and eighth resets are 429, the first six are created.
        resets = _reset_items(http, [{"seed": k} for k in range(8)])
        assert [r["status"] for r in resets] == [201] * 6 + [429] * 2
        assert "too many open envs" in resets[6]["error"]["detail"]
        malformed = http.post("/v1/envs/batch/step", json={"items": [{"action": {}}]})  # no env_id: the body's schema
        assert malformed.status_code == 422


async def test_the_event_loop_answers_other_requests_while_a_batch_runs(server):
    url, env = server
    started, release = threading.Event(), threading.Event()
    original = env.call_tool

    def held_call(*args: Any, **kwargs: Any) -> Any:  # the batch's first tool call waits for the test
        started.set()
        release.wait(10)
        return original(*args, **kwargs)

    async with httpx.AsyncClient(base_url=url, timeout=20) as http:
        reset = (await http.post("/v1/envs/batch/reset", json={"items": [{"seed": 5, "options": GENERATED}]})).json()
        created = reset["results"][0]["result"]
        call = {"id": "c1", "type": "function", "function": {"name": tool_names(created["observation"])[0],
                                                             "arguments": "{}"}}
        items = [{"env_id": created["env_id"], "action": {"role": "assistant", "tool_calls": [call]}}]
        answers: dict[str, httpx.Response] = {}

        async def run_batch() -> None:
            answers["batch"] = await http.post("/v1/envs/batch/step", json={"items": items})

        env.call_tool = held_call  # type: ignore[method-assign]
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(run_batch)
                assert await anyio.to_thread.run_sync(started.wait, 10), "the batch never reached its tool call"
                # The batch is parked inside a tool call; the server must still answer.
                health = await http.get("/v1/health", timeout=3)
                assert health.status_code == 200 and "batch" not in answers
                release.set()
        finally:
            release.set()
            env.call_tool = original  # type: ignore[method-assign]
    assert answers["batch"].status_code == 200
    assert answers["batch"].json()["results"][0]["status"] == 200


async def _episodes(client: RolloutClient, env: ToolEnvironment, seeds: list[int]) -> list[list[Any]]:
    """Play FlawedPolicy episodes for ``seeds`` with ``step_many``; every result per env, session ids blanked."""
    specs = ScenarioPool(env).specs
    resets = await client.reset_many([{"seed": s} for s in seeds] + [{"options": {"scenario_id": "nope"}}],
                                     return_exceptions=True)
    assert isinstance(resets[-1], Exception) and "unknown scenario" in str(resets[-1])
    resets = resets[:-1]
    assert all(isinstance(r, EnvReset) for r in resets)
    policies = {r.env_id: FlawedPolicy(OraclePolicy(specs[r.info["scenario_id"]]), tool_names(r.observation), seed)
                for r, seed in zip(resets, seeds, strict=True)}
    trace: dict[str, list[Any]] = {r.env_id: [r.observation, _blank(r.info)] for r in resets}
    latest = {r.env_id: (r.observation, r.info) for r in resets}
    while latest:
        batch = [(env_id, policies[env_id](*latest[env_id])) for env_id in latest]
        results = await client.step_many(batch + [("env_gone", {"content": "hi"})], return_exceptions=True)
        assert isinstance(results[-1], UnknownEnvError)
        for step in results[:-1]:
            assert isinstance(step, EnvStep)
            trace[step.env_id] += [step.observation, step.reward, step.terminated, step.truncated, _blank(step.info)]
            latest[step.env_id] = (step.observation, step.info)
            if step.done:
                del latest[step.env_id]
    finished = await client.step_many([(resets[0].env_id, {"content": "more"})], return_exceptions=True)
    assert isinstance(finished[0], EpisodeFinishedError)
    with pytest.raises(ActionError, match="malformed action"):
        await client.step_many([(resets[0].env_id, {"tool_calls": "nope"})])
    await client.close_many([r.env_id for r in resets])
    return [trace[r.env_id] for r in resets]


def _blank(info: dict[str, Any]) -> dict[str, Any]:
    return {**info, "session_id": None}


async def test_the_client_uses_the_batch_routes_and_gets_what_the_single_routes_give(builtin_catalog):
    settings = ServerSettings(durability=Durability.EPHEMERAL, admin_token=TOKEN, max_batch=3)
    env = ToolEnvironment(builtin_catalog, Database(), settings)
    seeds = [0, 1, 2, 7, 11]
    with running_server(env) as url:
        async with RolloutClient(url, admin_token=TOKEN, concurrency=2) as batched:
            assert await batched.batch_limit() == 3  # the server's --max-batch, read from its schema
            via_batch = await _episodes(batched, env, seeds)
        async with RolloutClient(url, admin_token=TOKEN, concurrency=2, batch=False) as single:
            assert await single.batch_limit() == 0
            via_single = await _episodes(single, env, seeds)
        async with RolloutClient(url, batch=True) as no_token:  # per-item auth errors map like the single route
            with pytest.raises(AdminTokenError):
                await no_token.reset_many([{"seed": 0}])
    assert via_batch == via_single
    assert sum(len(t) for t in via_batch) > 60  # several steps per episode, not a trivial comparison


async def test_the_client_falls_back_to_single_routes_on_a_server_without_batch_routes():
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        if request.url.path == "/openapi.json":
            return httpx.Response(200, json={"paths": {"/v1/envs": {}}, "components": {"schemas": {}}})
        env_id = request.url.path.split("/")[3]
        return httpx.Response(200, json={"observation": {"messages": [], "tools": None}, "reward": 0.5,
                                         "terminated": False, "truncated": False, "info": {"env": env_id}})

    async with RolloutClient("http://old", transport=httpx.MockTransport(handler)) as client:
        steps = await client.step_many([("env_a", {"content": "x"}), ("env_b", {"content": "y"})])
        assert [s.info["env"] for s in steps] == ["env_a", "env_b"]
        await client.step_many([("env_c", {"content": "z"})])
    assert seen.count("/openapi.json") == 1
    assert sorted(seen[1:]) == ["/v1/envs/env_a/step", "/v1/envs/env_b/step", "/v1/envs/env_c/step"]
    async with RolloutClient("http://old", transport=httpx.MockTransport(handler), batch=True) as insisting:
        with pytest.raises(RuntimeError, match="no /v1/envs/batch routes"):
            await insisting.step_many([("env_a", {"content": "x"})])


def test_serve_flags_set_the_batch_limit_and_durability_and_refuse_fsync_without_a_journal(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from env_server.cli import app

    served: list[ToolEnvironment] = []
    monkeypatch.setattr("env_server.runner.run_http", served.append)
    weather = str(Path(__file__).resolve().parents[2] / "tool_specs" / "catalog" / "weather")
    args = ["serve", "--catalog", weather, "--db", str(tmp_path / "s.duckdb"), "--admin-token", "t"]
    result = CliRunner().invoke(app, [*args, "--max-batch", "7", "--durability", "ephemeral"])
    assert result.exit_code == 0, result.output
    assert served[0].settings.max_batch == 7 and served[0].settings.durability is Durability.EPHEMERAL
    assert served[0].store.persistent is False
    served[0].close()
    served[0].db.close()
    refused = CliRunner().invoke(app, [*args, "--durability", "deferred", "--fsync"])
    assert refused.exit_code == 2 and "--fsync syncs the journal; it needs --durability journal" in refused.output
    help_text = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output
    assert "--max-batch" in help_text and "--durability" in help_text
