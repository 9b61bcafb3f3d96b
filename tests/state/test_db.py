"""The process-wide DuckDB handle."""

from __future__ import annotations

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.runner import SERVER_DUCKDB_THREADS, build_environment
from state import Database


def _threads(db: Database) -> int:
    return int(db.execute("SELECT current_setting('threads')").fetchone()[0])


def test_threads_caps_duckdb_workers_and_the_default_leaves_duckdb_alone(tmp_path):
    assert _threads(Database(tmp_path / "one.duckdb", threads=1)) == 1
    assert _threads(Database(tmp_path / "two.duckdb", threads=2)) == 2
    default = _threads(Database(tmp_path / "default.duckdb"))
    assert default == _threads(Database())  # DuckDB's own choice, the same in memory


def test_the_server_environment_runs_duckdb_with_its_thread_cap(tmp_path):
    env = build_environment(Catalog(), ServerSettings(db_path=tmp_path / "srv.duckdb"))
    assert _threads(env.db) == SERVER_DUCKDB_THREADS
