"""The oracle agent scores 100% on generated scenarios through the live protocol."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import anyio
import pytest

from clients.agent_runner import RunConfig, run_eval
from clients.agents import OracleAgent, ToolReply
from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.generator import GeneratorSettings, generated_scenario_load, register_generated, scenario_id
from env_server.orchestrator import ScenarioLoad, ScenarioSpec
from env_server.orchestrator.live import STEP_META_KEY, ScenarioSession
from env_server.orchestrator.native import to_scenario_spec
from env_server.orchestrator.reports import UserTurn
from env_server.orchestrator.sessions import registry_for
from env_server.runner import serve_in_thread
from state import Database


class InProcessEpisode:
    """The agent's side of a live scenario session, without a transport."""

    def __init__(self, env: ToolEnvironment, session: ScenarioSession, first: UserTurn) -> None:
        self.scenario = session.spec
        self.env_info = session.spec.env_info
        self.user_message: str | None = first.content
        self.task_index = first.task_index
        self.done = False
        self.tools: list[dict[str, Any]] = []
        self._env, self._session, self._steps = env, session, 0

    async def call_tools(self, calls: Sequence[tuple[str, dict[str, Any]]]) -> list[ToolReply]:
        step = f"t{self.task_index}-s{self._steps}"
        self._steps += 1
        replies = []
        for k, (name, arguments) in enumerate(calls):
            outcome = self._env.call_tool(self._session.session_id, name, arguments, {STEP_META_KEY: step})
            text = json.dumps(outcome.result) if outcome.result is not None else outcome.message or ""
            replies.append(ToolReply(f"{step}-c{k}", name, outcome.is_error, text))
        return replies

    async def reply(self, content: str) -> UserTurn:
        turn = self._session.reply(content)
        self.done, self.task_index, self.user_message = turn.done, turn.task_index, turn.content
        return turn


def _fresh_env(catalog: Catalog) -> ToolEnvironment:
    return ToolEnvironment(catalog, Database(), ServerSettings())


def test_the_oracle_gets_every_task_of_the_sampled_generated_scenarios_right(generated: list[ScenarioSpec],
                                                                     builtin_catalog: Catalog):
    env = _fresh_env(builtin_catalog)
    registry = registry_for(env, ScenarioLoad(scenarios=list(generated)))
    for spec in generated:
        session, first = registry.create(spec.id)
        anyio.run(OracleAgent().play, InProcessEpisode(env, session, first))
        result = session.result()
        assert result.done and result.accuracy == 1.0, (spec.id, [t.reason for t in result.tasks])
        assert all(t.is_optimal for t in result.tasks)
        assert all(e.pinned for e in session.entries), spec.id


def test_register_generated_adds_a_playable_scenario_to_a_live_registry(builtin_catalog: Catalog):
    env = _fresh_env(builtin_catalog)
    registry = registry_for(env, ScenarioLoad())
    settings = GeneratorSettings.model_validate({"families": ["ticketmaster", "tmdb"]})
    spec = register_generated(registry, 1234, settings)
    assert spec.id == scenario_id(1234, settings)
    assert register_generated(registry, 1234, settings) is spec  # idempotent
    session, first = registry.create(spec.id)
    assert first.content == spec.tasks[0].user_message
    anyio.run(OracleAgent().play, InProcessEpisode(env, session, first))
    assert session.result().accuracy == 1.0


def test_the_oracle_is_right_on_generated_scenarios_over_http_and_the_official_mcp_client(builtin_catalog: Catalog,
                                                                                         tmp_path):
    load = generated_scenario_load(range(500, 504), catalog=builtin_catalog)
    env = _fresh_env(builtin_catalog)
    registry_for(env, load)
    with serve_in_thread(env) as base:
        summary = anyio.run(run_eval, base, load.scenarios, OracleAgent, RunConfig(agent="oracle", concurrency=2, admin_token=env.settings.admin_token),
                            tmp_path / "run")
    assert summary["task_accuracy"] == 1.0 and summary["session_accuracy"] == 1.0
    assert summary["tasks"] == 16 and summary["failed_sessions"] == 0


@pytest.mark.slow
def test_the_oracle_gets_every_task_of_200_generated_scenarios_right(checked_natives, builtin_catalog: Catalog):
    specs = [to_scenario_spec(n, origin=f"generated:seed={n.seed}") for n in checked_natives]
    env = _fresh_env(builtin_catalog)
    registry = registry_for(env, ScenarioLoad(scenarios=specs))
    for spec in specs:
        session, first = registry.create(spec.id)
        anyio.run(OracleAgent().play, InProcessEpisode(env, session, first))
        result = session.result()
        assert result.done and result.accuracy == 1.0, (spec.id, [t.reason for t in result.tasks])
