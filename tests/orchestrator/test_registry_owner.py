"""``registry_for``: one scenario registry per environment, kept by it and freed with it."""

from __future__ import annotations

import gc
import weakref

import pytest

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.orchestrator import ScenarioError, ScenarioLoad, registry_for
from state import Database
from state.store import Durability


def _env(catalog: Catalog) -> ToolEnvironment:
    return ToolEnvironment(catalog, Database(), ServerSettings(durability=Durability.EPHEMERAL))


def test_a_second_call_with_other_scenarios_is_an_error_not_ignored(builtin_catalog: Catalog):
    env = _env(builtin_catalog)
    load = ScenarioLoad()
    registry = registry_for(env, load)
    assert registry_for(env) is registry and registry_for(env, load) is registry
    assert registry.scenarios is load
    with pytest.raises(ScenarioError, match="already exists with other scenarios"):
        registry_for(env, ScenarioLoad())
    other = _env(builtin_catalog)
    assert registry_for(other, ScenarioLoad()) is not registry  # one registry per environment


def test_dropping_an_environment_frees_its_registry(builtin_catalog: Catalog):
    env = _env(builtin_catalog)
    registry = registry_for(env, ScenarioLoad())
    env_ref, registry_ref = weakref.ref(env), weakref.ref(registry)
    del env, registry
    gc.collect()
    assert env_ref() is None and registry_ref() is None
