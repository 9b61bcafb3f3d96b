"""Shared fixtures for scenario tests: the official-format fixture and the built-in set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from env_server.orchestrator import ScenarioLoad, load_scenarios

FIXTURES = Path(__file__).parent / "fixtures"
OFFICIAL = FIXTURES / "official_two_scenarios.jsonl"


@pytest.fixture
def official_lines() -> list[dict]:
    return [json.loads(line) for line in OFFICIAL.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="session")
def builtin_scenarios() -> ScenarioLoad:
    return load_scenarios()


@pytest.fixture
def live(builtin_catalog, builtin_scenarios):
    """A fresh environment and its scenario-session registry (built-in scenarios)."""
    from env_server.config import ServerSettings
    from env_server.environment import ToolEnvironment
    from env_server.orchestrator.sessions import registry_for
    from state import Database

    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings())
    return env, registry_for(env, builtin_scenarios)
