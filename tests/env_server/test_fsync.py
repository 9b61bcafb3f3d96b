"""``fsync``: from ``toolenv serve --fsync`` through ``ServerSettings`` to a synced journal line per call."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

import state.journal as journal_module
from env_server.catalog import Catalog, load_catalog
from env_server.cli import app
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database
from state.store import Durability

WEATHER = Path(__file__).resolve().parents[2] / "tool_specs" / "catalog" / "weather"
TOOL, ARGS = "aqicn_get_city_aqi", {"city": "Paris"}


@pytest.fixture(scope="module")
def weather() -> Catalog:
    return load_catalog([WEATHER])


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every ``os.fsync`` the journal makes (still performed)."""
    synced: list[int] = []
    real = journal_module.os.fsync

    def fsync(fd: int) -> None:
        synced.append(fd)
        real(fd)

    monkeypatch.setattr(journal_module.os, "fsync", fsync)
    return synced


def _calls_sync(env: ToolEnvironment, synced: list[int]) -> list[int]:
    """How many syncs each of three calls made."""
    env.create_session(tools=[TOOL], session_id="synced", seed=1)
    made = []
    for _ in range(3):
        before = len(synced)
        assert not env.call_tool("synced", TOOL, ARGS).is_error
        made.append(len(synced) - before)
    return made


def test_the_setting_makes_every_call_sync_its_journal_line(weather: Catalog, tmp_path: Path, fsyncs: list[int]):
    db = tmp_path / "on.duckdb"
    env = ToolEnvironment(weather, Database(db), ServerSettings(db_path=db, fsync=True))
    assert _calls_sync(env, fsyncs) == [1, 1, 1]
    env.close()


def test_without_the_setting_no_call_syncs(weather: Catalog, tmp_path: Path, fsyncs: list[int]):
    db = tmp_path / "off.duckdb"
    env = ToolEnvironment(weather, Database(db), ServerSettings(db_path=db))
    assert _calls_sync(env, fsyncs) == [0, 0, 0]
    env.close()


def test_each_sync_comes_after_the_whole_line_reached_the_file(weather: Catalog, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch):
    db = tmp_path / "ordered.duckdb"
    journal = Path(f"{db}.journal")
    seen: list[bytes] = []  # the journal's content at each sync
    real = journal_module.os.fsync

    def fsync(fd: int) -> None:
        assert os.fstat(fd).st_ino == journal.stat().st_ino  # the journal file is what is synced
        seen.append(journal.read_bytes())
        real(fd)

    monkeypatch.setattr(journal_module.os, "fsync", fsync)
    env = ToolEnvironment(weather, Database(db), ServerSettings(db_path=db, fsync=True))
    env.create_session(tools=[TOOL], session_id="ordered", seed=1)
    before = len(seen)
    assert not env.call_tool("ordered", TOOL, ARGS).is_error
    assert len(seen) == before + 1
    synced = seen[-1]
    assert synced == journal.read_bytes() and synced.endswith(b"\n")  # the call's line, whole, then the sync
    assert TOOL.encode() in synced.splitlines()[-1]
    env.close()


def test_serve_fsync_reaches_the_environment_it_serves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       fsyncs: list[int]):
    served: list[ToolEnvironment] = []
    monkeypatch.setattr("env_server.runner.run_http", served.append)
    db = tmp_path / "served.duckdb"

    result = CliRunner().invoke(app, ["serve", "--catalog", str(WEATHER), "--db", str(db), "--fsync",
                                      "--admin-token", "t"])

    assert result.exit_code == 0, result.output
    env = served[0]
    assert env.settings.fsync is True
    assert _calls_sync(env, fsyncs) == [1, 1, 1]
    env.close()
    env.db.close()


def test_fsync_outside_a_journal_is_refused():
    with pytest.raises(ValidationError, match="journal durability only"):
        ServerSettings(fsync=True, durability=Durability.PER_CALL)
    result = CliRunner().invoke(app, ["serve", "--stdio", "--fsync"])
    assert result.exit_code == 2 and "--db" in result.output
    help_text = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output
    assert "--fsync" in help_text and "journal" in help_text
