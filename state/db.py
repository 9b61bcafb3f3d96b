"""One DuckDB database per process, one connection, a cursor per thread.

DuckDB's Python guide recommends a single connection per database and ``cursor()`` for
each thread that needs one; cursors share the database but not transaction state. A
database file can be open in one process at a time: a second process gets
:class:`DatabaseLockedError`.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import duckdb
from platformdirs import user_data_dir

MEMORY = ":memory:"


def default_db_path() -> Path:
    """``toolenv.duckdb`` under the user's data directory (created on demand)."""
    return Path(user_data_dir("toolenv", appauthor=False)) / "toolenv.duckdb"


class DatabaseOpenError(RuntimeError):
    """The database file cannot be opened; the message is one line naming the file."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot open database {path}: {reason}")
        self.path = path


class DatabaseLockedError(DatabaseOpenError):
    """Another process has the file open (DuckDB allows one process per database file)."""

    def __init__(self, path: str, holder_pid: int | None) -> None:
        holder = f" (PID {holder_pid})" if holder_pid is not None else ""
        super().__init__(path, f"another process{holder} has it open")
        self.holder_pid = holder_pid


class Database:
    """Owns the process's DuckDB connection and hands out per-thread cursors."""

    def __init__(self, path: str | Path = MEMORY, *, threads: int | None = None) -> None:
        """``threads`` caps DuckDB's worker threads (default: one per core)."""
        self.path = str(path)
        self._conn = _connect(self.path, threads)
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


def _connect(path: str, threads: int | None) -> duckdb.DuckDBPyConnection:
    """``duckdb.connect`` with its failures as one-line ``DatabaseOpenError``s."""
    try:
        if path != MEMORY:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return duckdb.connect(path, config={"threads": threads} if threads else {})
    except duckdb.IOException as exc:
        text = str(exc)
        if "lock" in text.lower():
            pid = re.search(r"\(PID (\d+)\)", text)
            raise DatabaseLockedError(path, int(pid.group(1)) if pid else None) from None
        raise DatabaseOpenError(path, text.splitlines()[0]) from None
    except (OSError, duckdb.Error) as exc:
        raise DatabaseOpenError(path, str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
