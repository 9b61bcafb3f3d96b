"""Shared fixtures: one batch of generated scenarios per test session (generation is the slow part)."""

from __future__ import annotations

import pytest

from env_server.catalog import Catalog
from env_server.generator import generate_scenario
from env_server.orchestrator import ScenarioSpec

SEEDS = range(100)  # 100 consecutive seeds: validation, coverage and the repetition share


@pytest.fixture(scope="session")
def generated(builtin_catalog: Catalog) -> list[ScenarioSpec]:
    return [generate_scenario(seed, catalog=builtin_catalog) for seed in SEEDS]
