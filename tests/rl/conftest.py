"""Fixtures for RL env tests: a fresh in-memory environment per test (deferred or ephemeral durability)."""

from __future__ import annotations

import pytest

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database
from state.store import Durability


@pytest.fixture
def environment(builtin_catalog: Catalog) -> ToolEnvironment:
    return ToolEnvironment(builtin_catalog, Database(), ServerSettings(durability=Durability.DEFERRED))


@pytest.fixture
def ephemeral_environment(builtin_catalog: Catalog) -> ToolEnvironment:
    """What ``default_environment()`` uses: no DuckDB writes, session records in memory."""
    return ToolEnvironment(builtin_catalog, Database(), ServerSettings(durability=Durability.EPHEMERAL))
