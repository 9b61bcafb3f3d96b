"""One DuckDB database per process, one connection, a cursor per thread.

DuckDB's Python guide recommends a single connection per database and ``cursor()`` for
each thread that needs one; cursors share the database but not transaction state.
"""

from __future__ import annotations

import threading
from pathlib import Path

import duckdb
from platformdirs import user_data_dir

MEMORY = ":memory:"


def default_db_path() -> Path:
    """``toolenv.duckdb`` under the user's data directory (created on demand)."""
    return Path(user_data_dir("toolenv", appauthor=False)) / "toolenv.duckdb"


class Database:
    """Owns the process's DuckDB connection and hands out per-thread cursors."""

    def __init__(self, path: str | Path = MEMORY, *, threads: int | None = None) -> None:
        """``threads`` caps DuckDB's worker threads (default: one per core)."""
        self.path = str(path)
        if self.path != MEMORY:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = duckdb.connect(self.path, config={"threads": threads} if threads else {})
        self._local = threading.local()
        self._lock = threading.Lock()

    def cursor(self) -> duckdb.DuckDBPyConnection:
        cur = getattr(self._local, "cursor", None)
        if cur is None:
            with self._lock:
                cur = self._conn.cursor()
            self._local.cursor = cur
        return cur

    def execute(self, sql: str, params: list[object] | tuple[object, ...] | None = None) -> duckdb.DuckDBPyConnection:
        return self.cursor().execute(sql, params or [])

    def close(self) -> None:
        self._conn.close()
