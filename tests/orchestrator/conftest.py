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
