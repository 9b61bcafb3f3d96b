"""Shared fixtures: one batch of generated scenarios per test session (generation is the slow part).

The default run checks a sample of 40 seeds; the ``slow`` tests check 200 (``checked``).
"""

from __future__ import annotations

import pytest

from env_server.catalog import Catalog
from env_server.generator import generate_native
from env_server.orchestrator import ScenarioSpec
from env_server.orchestrator.native import NativeScenarioFile, to_scenario_spec

SAMPLE = range(40)  # the default run
CHECKED = range(200)  # under the slow mark


def _spec(native: NativeScenarioFile) -> ScenarioSpec:
    return to_scenario_spec(native, origin=f"generated:seed={native.seed}")


@pytest.fixture(scope="session")
def natives(builtin_catalog: Catalog) -> list[NativeScenarioFile]:
    return [generate_native(seed, catalog=builtin_catalog) for seed in SAMPLE]


@pytest.fixture(scope="session")
def generated(natives: list[NativeScenarioFile]) -> list[ScenarioSpec]:
    return [_spec(n) for n in natives]


@pytest.fixture(scope="session")
def checked_natives(builtin_catalog: Catalog, natives: list[NativeScenarioFile]) -> list[NativeScenarioFile]:
    more = [generate_native(seed, catalog=builtin_catalog) for seed in CHECKED if seed not in SAMPLE]
    return [*natives, *more]
