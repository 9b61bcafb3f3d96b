"""``fsync``: from ``toolenv serve --fsync`` through ``ServerSettings`` to a synced journal line per call."""

from __future__ import annotations

import mmap
from pathlib import Path
from typing import Any

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
    """Every ``os.fsync`` the journal makes (still performed), with no memory map: one write per line."""
    synced: list[int] = []
    real = journal_module.os.fsync

    def fsync(fd: int) -> None:
        synced.append(fd)
        real(fd)

    def no_map(*args: Any, **kwargs: Any) -> mmap.mmap:
        raise OSError("no shared maps here")

    monkeypatch.setattr(journal_module.os, "fsync", fsync)
    monkeypatch.setattr(journal_module.mmap, "mmap", no_map)
    return synced


def _calls_sync(env: ToolEnvironment, synced: list[int] | list[tuple[int, int]]) -> list[int]:
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


def test_a_mapped_journal_syncs_the_pages_of_each_line(weather: Catalog, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch):
    synced: list[tuple[int, int]] = []

    class RecordingMap(mmap.mmap):
        def flush(self, *span: int) -> None:
            if span:
                synced.append((span[0], span[1]))
            super().flush(*span)

    monkeypatch.setattr(journal_module.mmap, "mmap", RecordingMap)
    db = tmp_path / "mapped.duckdb"
    env = ToolEnvironment(weather, Database(db), ServerSettings(db_path=db, fsync=True))
    assert _calls_sync(env, synced) == [1, 1, 1]
    start, length = synced[-1]
    content_end = Path(f"{db}.journal").read_bytes().index(b"\0")  # the mapped file is zero-filled past its lines
    assert start % mmap.PAGESIZE == 0 and start + length == content_end  # the pages of the last line
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
