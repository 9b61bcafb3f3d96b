"""A failed DuckDB write loses nothing that was acknowledged (issue 15, item 5).

The failure is injected into DuckDB itself: a cursor that raises ``duckdb.IOException`` on
the first statement matching a prefix, inside the store's transaction, so the rollback
path runs for real. After it, a successful flush and a restart (a new ``StateStore`` on
the same files) must show every acknowledged call exactly once.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import duckdb
import pytest

import state.store as store_module
from state import CallLog, CallRecord, Database
from state.store import Durability, StateStore
from state.world import World


class _FailingCursor:
    def __init__(self, real: duckdb.DuckDBPyConnection, db: FailingDatabase) -> None:
        self._real = real
        self._db = db

    def execute(self, sql: str, params: Any = None) -> Any:
        if self._db.failures and sql.startswith(self._db.fail_on):
            self._db.failures -= 1
            raise duckdb.IOException("injected: could not write to the database file")
        return self._real.execute(sql, params or [])


class FailingDatabase(Database):
    """A real DuckDB database whose next ``failures`` statements starting with ``fail_on`` fail."""

    def __init__(self, path: str | Path, fail_on: str) -> None:
        super().__init__(path)
        self.fail_on = fail_on
        self.failures = 0

    def cursor(self) -> Any:
        return _FailingCursor(super().cursor(), self)


def _call(seq: int) -> list[Any]:
    return CallLog.op(CallRecord(session_id="f", seq=seq, tool="t", arguments={"n": seq}, result={"n": seq},
                                 is_error=False, latency_ms=0.0, ts="2026-01-01T00:00:00+00:00"))


def _book(store: StateStore, world: World, seq: int) -> None:
    """One acknowledged call: a row written and its log line, committed together."""
    world.put("ns", "booking", f"b{seq}", {"seq": seq})
    store.commit(world, [_call(seq)])


def _reopen(path: Path, durability: Durability = Durability.JOURNAL) -> tuple[Database, CallLog, StateStore]:
    db = Database(path)
    log = CallLog(db)
    return db, log, StateStore(db, durability)


def _bookings(store: StateStore) -> list[str]:
    return sorted(eid for (_, _, eid) in store.world("f", 1).rows)


def test_a_failed_flush_keeps_its_batch_for_the_next_flush_and_a_restart(tmp_path):
    path = tmp_path / "f.duckdb"
    db = FailingDatabase(path, fail_on="UPDATE journal_state")  # the batch's last statement
    CallLog(db)
    store = StateStore(db, Durability.JOURNAL)
    world = store.world("f", 1)
    _book(store, world, 0)
    _book(store, world, 1)
    db.failures = 1
    with pytest.raises(duckdb.IOException):
        store.flush()  # the inserts ran, then the transaction rolled back
    assert db.execute("SELECT count(*) FROM call_log").fetchone()[0] == 0
    _book(store, world, 2)
    store.flush()  # succeeds: writes calls 0 and 1 (still queued) ahead of call 2
    assert [r[0] for r in db.execute("SELECT seq FROM call_log ORDER BY seq").fetchall()] == [0, 1, 2]
    db.close()

    db2, log, reopened = _reopen(path)
    assert [c.seq for c in log.calls("f")] == [0, 1, 2]  # each exactly once
    assert _bookings(reopened) == ["b0", "b1", "b2"]
    db2.close()


def test_a_restart_after_a_failed_flush_replays_the_batch_from_the_journal(tmp_path):
    path = tmp_path / "r.duckdb"
    db = FailingDatabase(path, fail_on="INSERT INTO call_log")
    CallLog(db)
    store = StateStore(db, Durability.JOURNAL)
    _book(store, store.world("f", 1), 0)
    db.failures = 1
    with pytest.raises(duckdb.IOException):
        store.flush()
    db.close()  # a crash: nothing reached DuckDB

    db2, log, reopened = _reopen(path)
    assert [c.seq for c in log.calls("f")] == [0]
    assert _bookings(reopened) == ["b0"]
    db2.close()


def test_the_background_flusher_retries_a_failed_batch(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "FLUSH_IDLE_S", 0.0)
    monkeypatch.setattr(store_module, "FLUSH_POLL_S", 0.01)
    path = tmp_path / "b.duckdb"
    db = FailingDatabase(path, fail_on="INSERT INTO call_log")
    CallLog(db)
    store = StateStore(db, Durability.JOURNAL)
    world = store.world("f", 1)
    db.failures = 2
    store.start_flusher()
    try:
        _book(store, world, 0)
        deadline = time.monotonic() + 10
        while db.failures and time.monotonic() < deadline:  # both injected failures were hit
            time.sleep(0.01)
        _book(store, world, 1)
        while time.monotonic() < deadline:
            if db.execute("SELECT count(*) FROM call_log").fetchone()[0] == 2:
                break
            time.sleep(0.01)
    finally:
        store._stop.set()
        store._wake.set()
        store._flusher.join(5)  # stop without close(): only the flusher wrote
    assert db.failures == 0
    assert [r[0] for r in db.execute("SELECT seq FROM call_log ORDER BY seq").fetchall()] == [0, 1]
    db.close()

    db2, log, reopened = _reopen(path)
    assert [c.seq for c in log.calls("f")] == [0, 1]
    assert _bookings(reopened) == ["b0", "b1"]
    db2.close()


def test_deferred_writes_survive_a_failed_flush(tmp_path):
    path = tmp_path / "d.duckdb"
    db = FailingDatabase(path, fail_on="INSERT INTO call_log")
    CallLog(db)
    store = StateStore(db, Durability.DEFERRED)
    world = store.world("f", 1)
    _book(store, world, 0)
    db.failures = 1
    with pytest.raises(duckdb.IOException):
        store.flush()
    _book(store, world, 1)
    store.flush()
    db.close()

    db2, log, reopened = _reopen(path, Durability.DEFERRED)
    assert [c.seq for c in log.calls("f")] == [0, 1]
    assert _bookings(reopened) == ["b0", "b1"]
    db2.close()


def test_a_failed_per_call_write_leaves_no_trace_in_memory_or_on_disk(tmp_path):
    path = tmp_path / "p.duckdb"
    db = FailingDatabase(path, fail_on="INSERT INTO call_log")
    CallLog(db)
    store = StateStore(db, Durability.PER_CALL)
    _book(store, store.world("f", 1), 0)
    db.failures = 1
    with pytest.raises(duckdb.IOException):
        _book(store, store.world("f", 1), 1)  # not acknowledged: its caller gets the error
    # The next call must not see the failed call's booking (a restart would not).
    assert _bookings(store) == ["b0"]
    _book(store, store.world("f", 1), 2)
    db.close()

    db2, log, reopened = _reopen(path, Durability.PER_CALL)
    assert [c.seq for c in log.calls("f")] == [0, 2]
    assert _bookings(reopened) == ["b0", "b2"]
    db2.close()
