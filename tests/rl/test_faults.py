"""Seeded fault injection in RL envs: reset options, determinism, verdicts and rewards, REST."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.rl import OptionsError, OraclePolicy, ToolEnv
from state import Database
from tests.rl.helpers import Rollout, play
from tests.servers import running_server

# Single-call and parallel tasks; heavy, fast faults.
SCENARIOS = ["flight_to_tokyo", "airport_ride_home", "oslo_bergen_trip_weather"]
HEAVY = {"seed": 5, "rate_limit": 0.25, "timeout": 0.1, "server_error": 0.15, "slow_ms": 1}


def _rollout(environment: ToolEnvironment, scenario_id: str, faults: Any) -> tuple[ToolEnv, Rollout]:
    env = ToolEnv(environment)
    obs, info = env.reset(options={"scenario_id": scenario_id, "faults": faults})
    return env, play(env, OraclePolicy(env.scenario), obs, info)


def test_the_same_fault_seed_faults_the_same_calls_and_another_seed_others(environment):
    for scenario_id in SCENARIOS:
        _, first = _rollout(environment, scenario_id, HEAVY)
        _, again = _rollout(environment, scenario_id, HEAVY)
        _, other = _rollout(environment, scenario_id, {**HEAVY, "seed": 6})
        faults = [i.get("faults") for i in first.infos]
        assert any(faults), scenario_id
        assert [i.get("faults") for i in again.infos] == faults
        assert again.rewards == first.rewards and again.digests == first.digests
        assert [i.get("faults") for i in other.infos] != faults


def test_faulted_calls_earn_nothing_and_cost_nothing_and_tasks_without_faults_stay_correct(environment):
    for scenario_id in SCENARIOS:
        env, rollout = _rollout(environment, scenario_id, HEAVY)
        faulted_tasks = set()
        for info, reward in zip(rollout.infos[1:], rollout.rewards, strict=True):
            verdicts = info["judgement"]["verdicts"]
            assert verdicts.count("fault") == len(info["faults"])
            if info["faults"]:
                faulted_tasks.add(info["judgement"]["task"])
            if info["faults"] and set(verdicts) == {"fault"}:
                assert reward == 0.0  # only faults: neither credited nor charged
        result = env.session.result()
        assert result.faults > 0 and result.recovery == 1.0  # the oracle retries every fault
        for task in result.tasks:
            if task.index not in faulted_tasks:
                assert task.label == "correct", (scenario_id, task)
        assert rollout.terminated


def test_an_always_failing_api_charges_no_wrong_call(environment):
    env = ToolEnv(environment)
    obs, info = env.reset(options={"scenario_id": "flight_to_tokyo", "faults": {"server_error": 1.0}})
    action = OraclePolicy(env.scenario)(obs, info)
    for _ in range(3):
        obs, reward, _, _, info = env.step(action)
        assert reward == 0.0 and set(info["judgement"]["verdicts"]) == {"fault"}
        assert info["faults"] == ["service_unavailable"] * len(action["tool_calls"])
        assert '"status": 503' in obs["messages"][0]["content"]
    assert env.actions_per_task()[0] == []  # nothing the scorer would see
    assert env.session.result().tasks[0].calls == 0


@pytest.mark.parametrize(("faults", "named"), [
    ({"rate_limit": 2}, "rate_limit"), ({"seed": -1}, "seed"), ("sometimes", "faults"), ({"jitter": 1}, "jitter"),
])
def test_bad_fault_options_raise_options_error_naming_the_field(environment, faults, named):
    with pytest.raises(OptionsError, match=named):
        ToolEnv(environment).reset(options={"scenario_id": "flight_to_tokyo", "faults": faults})


def test_rest_envs_take_fault_options_and_refuse_bad_ones(builtin_catalog):
    environment = ToolEnvironment(builtin_catalog, Database(), ServerSettings())
    with running_server(environment) as url, httpx.Client(base_url=url) as http:
        admin = {"Authorization": f"Bearer {environment.settings.admin_token}"}
        bad = http.post("/v1/envs", json={"options": {"scenario_id": "flight_to_tokyo", "faults": {"timeout": 7}}},
                        headers=admin)
        assert bad.status_code == 422 and "timeout" in bad.text
        created = http.post("/v1/envs", json={"options": {"scenario_id": "flight_to_tokyo",
                                                          "faults": {"timeout": 1.0, "slow_ms": 400}}}, headers=admin)
        assert created.status_code == 201, created.text
        body = created.json()
        policy = OraclePolicy(ToolEnv(environment).pool.entry("flight_to_tokyo").spec)
        action = policy(body["observation"], body["info"])
        start = time.monotonic()
        step = http.post(f"/v1/envs/{body['env_id']}/step", json={"action": action}, headers=admin)
        assert step.status_code == 200 and time.monotonic() - start >= 0.4  # the timeout took slow_ms
        assert step.json()["info"]["faults"] == ["timeout"] * len(action["tool_calls"])
