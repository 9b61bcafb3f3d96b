"""Shared fixtures: the built-in catalog (loaded once), a fresh in-memory environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from env_server.catalog import Catalog, load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database

# The reference data sits beside the project (../shared/data); TOOLENV_SHARED_DATA points
# elsewhere (a git worktree lives one level deeper).
SHARED = Path(os.environ.get("TOOLENV_SHARED_DATA") or Path(__file__).resolve().parents[1].parent / "shared" / "data")
WTB_TOOLS = SHARED / "wildtoolbench" / "tools_en.jsonl"
TOOLALPACA = SHARED / "toolalpaca"


def require_shared(path: Path) -> Path:
    """Skip (with the reason) when the ../shared reference data is not beside the project."""
    if not path.exists():
        pytest.skip(f"reference data not found at {path} (../shared is optional)")
    return path


@pytest.fixture(scope="session")
def builtin_catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def wtb_catalog() -> Catalog:
    return load_catalog([require_shared(WTB_TOOLS)])


@pytest.fixture
def env(builtin_catalog: Catalog) -> ToolEnvironment:
    return ToolEnvironment(builtin_catalog, Database(), ServerSettings())


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
