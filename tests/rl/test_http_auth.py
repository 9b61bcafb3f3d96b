"""No gold without the token on /v1/envs: evaluation scenarios need it, generated ones do not, --no-rl removes the plane."""

from __future__ import annotations

import httpx
import pytest

from clients.rollout_client import RolloutClient
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.orchestrator.models import ScenarioSpec, Split
from env_server.orchestrator.splits import is_test_split
from env_server.rl import AdminTokenError, OraclePolicy
from env_server.rl.scenarios import ScenarioPool
from state import Database
from tests.servers import running_server

SCENARIO = "airport_ride_home"
TRAIN_SCENARIO = "job_hunt_berlin"


@pytest.fixture
def server(builtin_catalog):
    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings(admin_token="rl-secret"))
    with running_server(env) as url:
        yield url, env


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_an_env_over_a_builtin_scenario_needs_the_admin_token_on_every_route(server):
    url, env = server
    with httpx.Client(base_url=url) as http:
        for body in ({"options": {"scenario_id": SCENARIO}}, {"seed": 3}, {}):  # named, or drawn from the seed
            missing = http.post("/v1/envs", json=body)
            assert missing.status_code == 401, body
            assert "admin token" in missing.json()["detail"] and "observation" not in missing.json()
        assert http.post("/v1/envs", json={"options": {"scenario_id": SCENARIO}},
                         headers=_bearer("wrong")).status_code == 403
        created = http.post("/v1/envs", json={"options": {"scenario_id": SCENARIO}}, headers=_bearer("rl-secret"))
        assert created.status_code == 201
        env_id, info = created.json()["env_id"], created.json()["info"]
        spec = ScenarioPool(env).specs[SCENARIO]
        gold_action = OraclePolicy(spec)(created.json()["observation"], info)
        for method, route, body in (("POST", "step", {"action": gold_action}), ("POST", "fork", {"n": 2}),
                                    ("DELETE", "", None)):
            refused = http.request(method, f"/v1/envs/{env_id}/{route}".rstrip("/"), json=body)
            assert refused.status_code == 401, route
            assert "reward" not in refused.text and "verdicts" not in refused.text
        # The env's own session: forking it would copy the gold observations it was served.
        assert http.post(f"/v1/sessions/{info['session_id']}/fork").status_code == 401
        assert http.post(f"/v1/sessions/{info['session_id']}/reset").status_code == 401
        stepped = http.post(f"/v1/envs/{env_id}/step", json={"action": gold_action}, headers=_bearer("rl-secret"))
        assert stepped.status_code == 200 and stepped.json()["info"]["judgement"]["verdicts"] == ["matched"]
        forked = http.post(f"/v1/envs/{env_id}/fork", json={"n": 2}, headers=_bearer("rl-secret"))
        assert forked.status_code == 201
        for fork_id in forked.json()["env_ids"]:  # forks play the same scenario: guarded too
            assert http.post(f"/v1/envs/{fork_id}/step", json={"action": {"content": "hi"}}).status_code == 401
        assert http.delete(f"/v1/envs/{env_id}", headers=_bearer("rl-secret")).status_code == 204


def test_an_env_over_a_generated_scenario_is_open(server):
    url, _ = server
    with httpx.Client(base_url=url) as http:
        created = http.post("/v1/envs", json={"seed": 7, "options": {"generator": {}}})
        assert created.status_code == 201, created.text
        env_id = created.json()["env_id"]
        stepped = http.post(f"/v1/envs/{env_id}/step", json={"action": {"content": "No idea."}})
        assert stepped.status_code == 200 and "judgement" in stepped.json()["info"]
        assert http.post(f"/v1/envs/{env_id}/fork", json={"n": 1}).status_code == 201
        session_id = created.json()["info"]["session_id"]
        assert http.post(f"/v1/sessions/{session_id}/fork").status_code == 201
        assert http.delete(f"/v1/envs/{env_id}").status_code == 204


@pytest.mark.anyio
async def test_the_rollout_client_sends_the_token_from_its_argument_or_the_environment(server, monkeypatch):
    url, _ = server
    monkeypatch.delenv("TOOLENV_ADMIN_TOKEN", raising=False)
    async with RolloutClient(url) as client:
        with pytest.raises(AdminTokenError, match="admin token"):
            await client.reset(options={"scenario_id": SCENARIO})
        generated = await client.reset(seed=1, options={"generator": {}})
        await client.close_env(generated.env_id)
    async with RolloutClient(url, admin_token="wrong") as client:
        with pytest.raises(AdminTokenError, match="wrong"):
            await client.reset(options={"scenario_id": SCENARIO})
    monkeypatch.setenv("TOOLENV_ADMIN_TOKEN", "rl-secret")
    async with RolloutClient(url) as client:
        reset = await client.reset(options={"scenario_id": SCENARIO})
        assert reset.info["scenario_id"] == SCENARIO
        await client.close_env(reset.env_id)


def test_the_rl_plane_can_be_turned_off(builtin_catalog):
    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings(rl_plane=False))
    with running_server(env) as url, httpx.Client(base_url=url) as http:
        token = _bearer(env.settings.admin_token or "")
        assert http.post("/v1/envs", json={"options": {"generator": {}}}).status_code == 404
        assert http.post("/v1/envs", json={"options": {"scenario_id": SCENARIO}}, headers=token).status_code == 404
        assert http.post("/v1/envs/env_x/step", json={"action": {"content": "x"}}, headers=token).status_code == 404
        assert not [p for p in http.get("/openapi.json").json()["paths"] if p.startswith("/v1/envs")]
        assert http.post("/v1/scenario-sessions", json={"scenario_id": SCENARIO}).status_code == 201


def test_the_declared_split_decides_which_scenarios_are_guarded(environment):
    from env_server.generator import generate_scenario

    specs = ScenarioPool(environment).specs
    guarded = {i for i, s in specs.items() if is_test_split(s)}
    assert guarded == {i for i, s in specs.items() if s.split is Split.TEST}
    assert len(specs) / 2 <= len(guarded) < len(specs)  # a fixed test split of at least half, the rest train
    assert not is_test_split(generate_scenario(5))
    assert is_test_split(ScenarioSpec(id="x", env_info="2026-01-01", tasks=[], origin="my/file.json"))
    assert not is_test_split(ScenarioSpec(id="x", env_info="2026-01-01", tasks=[], origin="f.json", split=Split.TRAIN))


def test_an_env_over_a_train_scenario_needs_no_token(server):
    url, _ = server
    with httpx.Client(base_url=url) as http:
        created = http.post("/v1/envs", json={"options": {"scenario_id": TRAIN_SCENARIO}})
        assert created.status_code == 201, created.text
        assert http.post(f"/v1/envs/{created.json()['env_id']}/step", json={"action": {"content": "hi"}}).status_code == 200
