"""Tests that call built-in tools in free play share these: one environment per test module over the
session's built-in catalog (``tests/conftest.py``).

Import the fixtures into a test module (``from tests.env_server.free_play import call, catalog, env``);
``call`` returns a tool's result and fails the test on an ``isError`` answer.
"""

from __future__ import annotations

from typing import Any

import pytest

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database


@pytest.fixture(scope="module")
def catalog(builtin_catalog: Catalog) -> Catalog:
    return builtin_catalog


@pytest.fixture(scope="module")
def env(builtin_catalog: Catalog) -> ToolEnvironment:
    return ToolEnvironment(builtin_catalog, Database())


def call(env: ToolEnvironment, name: str, /, **args: Any) -> Any:
    outcome = env.call_tool("free", name, args)
    assert not outcome.is_error, outcome.message
    return outcome.result


def session(catalog: Catalog, family_of: str, sid: str = "s") -> ToolEnvironment:
    """An environment with one session ``sid`` (seed 3) over the family of tool ``family_of``."""
    env = ToolEnvironment(catalog, Database(), ServerSettings())
    family = catalog.tools[family_of].family
    env.create_session(tools=[n for n, s in catalog.tools.items() if s.family == family], session_id=sid, seed=3)
    return env


def ok(env: ToolEnvironment, tool: str, /, **args: Any) -> Any:
    """The result of ``tool`` in session "s", which must not be an error."""
    outcome = env.call_tool("s", tool, args)
    assert not outcome.is_error, outcome.message
    return outcome.result
