"""The /v1/envs registry is bounded (max envs, idle expiry), and env work runs off the event loop."""

from __future__ import annotations

import threading
from typing import Any

import anyio
import httpx
import pytest

from clients.rollout_client import RolloutClient
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.rl import (
    EpisodeFinishedError,
    OraclePolicy,
    ToolEnv,
    TooManyEnvsError,
    UnknownEnvError,
)
from env_server.rl.api import env_registry_for
from state import Database
from tests.servers import running_server

pytestmark = pytest.mark.anyio
GENERATED: dict[str, Any] = {"generator": {}}  # open scenarios: no admin token involved
NO = {"role": "assistant", "content": "No."}


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _serve(builtin_catalog, **settings: Any) -> tuple[ToolEnvironment, FakeClock]:
    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings(**settings))
    clock = FakeClock()
    env_registry_for(env, clock=clock)
    return env, clock


async def test_creates_and_forks_past_max_envs_answer_429_and_build_nothing(builtin_catalog):
    env, _ = _serve(builtin_catalog, max_envs=3)
    with running_server(env) as url:
        async with RolloutClient(url) as client, httpx.AsyncClient(base_url=url) as http:
            first = await client.reset(seed=1, options=GENERATED)
            await client.fork(first.env_id, 1)
            second = await client.reset(seed=2, options=GENERATED)
            held = env.held_counts()
            full = await http.post("/v1/envs", json={"seed": 3, "options": GENERATED})
            assert full.status_code == 429
            assert "3 of 3 (--max-envs)" in full.json()["detail"] and "DELETE /v1/envs/" in full.json()["detail"]
            with pytest.raises(TooManyEnvsError):
                await client.fork(first.env_id, 1)
            assert env.held_counts() == held  # nothing was built for the refused requests
            await client.close_env(first.env_id)
            with pytest.raises(TooManyEnvsError, match="2 of 3 .* 2 more"):  # all or none: 2 do not fit in 1
                await client.fork(second.env_id, 2)
            assert len(env_registry_for(env)) == 2
            await client.fork(second.env_id, 1)
            assert len(env_registry_for(env)) == 3


async def test_an_env_idle_past_the_timeout_is_freed_and_then_answers_404(builtin_catalog):
    env, clock = _serve(builtin_catalog, env_idle_timeout=60)
    with running_server(env) as url:
        async with RolloutClient(url) as client:
            busy = await client.reset(seed=1, options=GENERATED)
            idle = await client.reset(seed=2, options=GENERATED)
            clock.now += 50
            await client.step(busy.env_id, NO)  # a request keeps an env alive
            clock.now += 20  # idle: 70 s without a request; busy: 20 s
            assert env.hook_for(idle.info["session_id"]) is not None
            with pytest.raises(UnknownEnvError, match="freed after 60 s without a request"):
                await client.step(idle.env_id, NO)
            assert env.hook_for(idle.info["session_id"]) is None  # its session's memory is released
            await client.step(busy.env_id, NO)
            clock.now += 61
            await client.reset(seed=3, options=GENERATED)  # any use of the registry sweeps
            assert env.hook_for(busy.info["session_id"]) is None
            assert len(env_registry_for(env)) == 1


async def test_a_finished_env_cannot_be_forked(builtin_catalog):
    env, _ = _serve(builtin_catalog)
    with running_server(env) as url:
        async with RolloutClient(url) as client, httpx.AsyncClient(base_url=url) as http:
            reset = await client.reset(seed=5, options=GENERATED)
            done = False
            for _ in range(64):
                done = (await client.step(reset.env_id, NO)).done
                if done:
                    break
            assert done
            refused = await http.post(f"/v1/envs/{reset.env_id}/fork", json={"n": 2})
            assert refused.status_code == 409 and "the episode is over" in refused.json()["detail"]
            with pytest.raises(EpisodeFinishedError):
                await client.fork(reset.env_id, 1)


def test_a_finished_env_cannot_be_forked_in_process_either(environment):
    env = ToolEnv(environment, max_steps=1)
    obs, info = env.reset(options={"scenario_id": "vegan_meal_plan"})
    *_, truncated, _ = env.step(OraclePolicy(env.scenario)(obs, info))
    assert truncated
    with pytest.raises(EpisodeFinishedError, match="truncated after 1 steps"):
        env.fork(2)


async def test_the_server_keeps_answering_while_a_fork_runs(builtin_catalog, monkeypatch):
    """A fork is held inside the env until /v1/health has answered: on the event loop this deadlocks."""
    env, _ = _serve(builtin_catalog)
    entered, release = threading.Event(), threading.Event()
    fork = ToolEnv.fork

    def held_fork(self: ToolEnv, n: int) -> list[ToolEnv]:
        entered.set()
        release.wait(10)
        return fork(self, n)

    monkeypatch.setattr(ToolEnv, "fork", held_fork)
    with running_server(env) as url:
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            created = (await http.post("/v1/envs", json={"seed": 1, "options": GENERATED})).json()
            answers: dict[str, httpx.Response] = {}

            async def fork_64() -> None:
                answers["fork"] = await http.post(f"/v1/envs/{created['env_id']}/fork", json={"n": 64})

            async with anyio.create_task_group() as group:
                group.start_soon(fork_64)
                assert await anyio.to_thread.run_sync(entered.wait, 10)
                health = await http.get("/v1/health", timeout=3)
                session = await http.get(f"/v1/sessions/{created['info']['session_id']}", timeout=3)
                assert "fork" not in answers  # both answered while the fork was still running
                release.set()
            assert health.status_code == 200 and session.status_code == 200
            assert answers["fork"].status_code == 201 and len(answers["fork"].json()["env_ids"]) == 64
