"""/v1/envs over a real uvicorn server, driven by the batch client; client retries on a mock transport."""

from __future__ import annotations

import httpx
import pytest

from clients.rollout_client import EnvStep, RolloutClient
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.rl import ActionError, EpisodeFinishedError, OptionsError, OraclePolicy, ToolEnv, UnknownEnvError
from env_server.rl.scenarios import ScenarioPool
from state import Database
from tests.rl.helpers import play
from tests.servers import running_server

pytestmark = pytest.mark.anyio
SCENARIOS = ["flight_to_tokyo", "vegan_meal_plan", "kanban_bug_triage", "news_briefing_morning"]


@pytest.fixture
def server(builtin_catalog):
    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings())
    with running_server(env) as url:
        yield url, env


async def test_batched_http_rollouts_match_in_process_rollouts(server, environment):
    url, env = server
    specs = {s: ScenarioPool(environment).specs[s] for s in SCENARIOS}
    async with RolloutClient(url, concurrency=3, admin_token=env.settings.admin_token) as client:
        resets = await client.reset_many([{"options": {"scenario_id": s}} for s in SCENARIOS])
        policies = {r.env_id: OraclePolicy(specs[r.info["scenario_id"]]) for r in resets}
        latest = {r.env_id: (r.observation, r.info) for r in resets}
        rewards: dict[str, list[float]] = {r.env_id: [] for r in resets}
        while latest:
            batch = [(env_id, policies[env_id](*latest[env_id])) for env_id in latest]
            for step in await client.step_many(batch):
                assert isinstance(step, EnvStep)
                rewards[step.env_id].append(step.reward)
                latest[step.env_id] = (step.observation, step.info)
                if step.done:
                    assert step.info["success"] is True
                    del latest[step.env_id]
        await client.close_many(list(rewards))
    for reset in resets:
        local = ToolEnv(environment)
        obs, info = local.reset(options={"scenario_id": reset.info["scenario_id"]})
        assert reset.observation == obs
        assert rewards[reset.env_id] == play(local, OraclePolicy(local.scenario), obs, info).rewards


async def test_http_errors_are_404_409_and_422_with_clear_messages(server):
    url, env = server
    async with RolloutClient(url, admin_token=env.settings.admin_token) as client:
        with pytest.raises(UnknownEnvError, match="unknown env 'env_nope'"):
            await client.step("env_nope", {"role": "assistant", "content": "hi"})
        with pytest.raises(OptionsError, match="did you mean flight_to_tokyo"):
            await client.reset(options={"scenario_id": "flight_to_tokio"})
        reset = await client.reset(seed=1)
        with pytest.raises(ActionError, match=r"malformed action: tool_calls\.0\.function"):
            await client.step(reset.env_id, {"role": "assistant", "tool_calls": [{"id": "x"}]})
        step = None
        while step is None or not step.done:
            step = await client.step(reset.env_id, {"role": "assistant", "content": "No."})
        with pytest.raises(EpisodeFinishedError, match="call reset"):
            await client.step(reset.env_id, {"role": "assistant", "content": "again"})
        await client.close_env(reset.env_id)
        with pytest.raises(UnknownEnvError):
            await client.close_env(reset.env_id)
    async with httpx.AsyncClient(base_url=url) as http:
        response = await http.post("/v1/envs/env_nope/fork", json={"n": 2})
        assert response.status_code == 404


async def test_forks_over_http_are_independent_envs_sharing_the_prefix(server):
    url, env = server
    async with RolloutClient(url, admin_token=env.settings.admin_token) as client:
        reset = await client.reset(options={"scenario_id": "vegan_meal_plan"})
        first = await client.step(reset.env_id, {"role": "assistant", "content": "No idea."})
        a, b = await client.fork(reset.env_id, 2)
        assert len({a, b, reset.env_id}) == 3
        steps = await client.step_many([(a, {"role": "assistant", "content": "x"}), (b, {"role": "assistant", "content": "y"})])
        assert all(s.info["episode_step"] == 2 and s.info["task_index"] == first.info["task_index"] + 1 for s in steps)
        assert steps[0].info["session_id"] != steps[1].info["session_id"]
        parent = await client.step(reset.env_id, {"role": "assistant", "content": "z"})
        assert parent.info["episode_step"] == 2
        sessions = [s.info["session_id"] for s in steps]
    async with httpx.AsyncClient(base_url=url) as http:
        for sid in sessions:  # RL envs are ordinary sessions on the REST plane
            assert (await http.get(f"/v1/sessions/{sid}")).status_code == 200


async def test_the_client_retries_5xx_answers_then_succeeds():
    attempts = []

    def handler(request: httpx.Request) -> httpx.Response:
        attempts.append(request.url.path)
        if len(attempts) < 3:
            return httpx.Response(503, json={"detail": "busy"})
        return httpx.Response(201, json={"env_id": "env_1", "observation": {}, "info": {}})

    async with RolloutClient("http://test", backoff_s=0, transport=httpx.MockTransport(handler)) as client:
        reset = await client.reset(seed=0)
    assert reset.env_id == "env_1" and len(attempts) == 3


async def test_the_client_does_not_replay_a_step_the_server_may_have_run():
    attempts = []

    def handler(request: httpx.Request) -> httpx.Response:
        attempts.append(request.url.path)
        raise httpx.ReadError("connection reset", request=request)

    async with RolloutClient("http://test", backoff_s=0, transport=httpx.MockTransport(handler)) as client:
        with pytest.raises(httpx.ReadError):
            await client.step("env_1", {"role": "assistant", "content": "hi"})
        assert len(attempts) == 1
        with pytest.raises(httpx.ReadError):
            await client.reset(seed=0)
        assert len(attempts) == 1 + 4


async def test_batched_calls_can_return_failures_in_place():
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("bad/step"):
            return httpx.Response(404, json={"detail": "unknown env 'bad'"})
        return httpx.Response(200, json={"observation": {}, "reward": 1, "terminated": True, "truncated": False,
                                         "info": {}})

    async with RolloutClient("http://test", transport=httpx.MockTransport(handler)) as client:
        good, bad = await client.step_many([("ok", {"content": "a"}), ("bad", {"content": "b"})], return_exceptions=True)
        with pytest.raises(UnknownEnvError):
            await client.step_many([("ok", {"content": "a"}), ("bad", {"content": "b"})])
    assert isinstance(good, EnvStep) and good.done and isinstance(bad, UnknownEnvError)
