from __future__ import annotations

import json
import threading
import time

import pytest

import state.journal as journal_module
import state.store as store_module
from state import CallLog, CallRecord, Database, ErrorKind
from state.journal import Journal
from state.statements import BULK_CHUNK_ROWS, compose
from state.store import Durability, StateStore
from state.world import World


def test_compose_merges_row_writes_and_keeps_barriers_in_order():
    ops = [
        ["upsert", "ent_show", ["s", "ns", "a", "{}", False, 0]],
        ["insert", "call_log", ["s", 0]],
        ["upsert", "ent_show", ["s", "ns", "a", '{"v":1}', False, 1]],
        ["upsert", "ent_show", ["s", "ns", "b", "{}", False, 0]],
        ["sql", "DELETE FROM ent_show WHERE session_id = ?", ["s"]],
        ["insert", "call_log", ["s", 1]],
    ]
    stmts = compose(ops)
    assert [sql.split(" VALUES")[0] for sql, _ in stmts] == [
        "INSERT OR REPLACE INTO ent_show", "INSERT INTO call_log",
        "DELETE FROM ent_show WHERE session_id = ?", "INSERT INTO call_log",
    ]
    # The upsert keeps only the last version of row a, and row b.
    assert stmts[0][1] == ["s", "ns", "a", '{"v":1}', False, 1, "s", "ns", "b", "{}", False, 0]


def _record(seq: int) -> CallRecord:
    return CallRecord(session_id="j", seq=seq, tool="t", arguments={}, result={"n": seq}, is_error=False,
                      latency_ms=0.0, ts="2026-01-01T00:00:00+00:00")


def test_journaled_writes_survive_a_crash_before_any_flush(tmp_path):
    path = tmp_path / "j.duckdb"
    db = Database(path)
    CallLog(db)
    store = StateStore(db, Durability.JOURNAL)
    world = World(session_id="j", seed=1)
    world.put("ns", "show", "show_1", {"title": "Hamlet"})
    store.commit(world, [CallLog.op(_record(0))])
    store.commit(world, [CallLog.op(_record(1))])
    db.close()  # no flush: DuckDB has nothing, the journal has both calls

    db2 = Database(path)
    log = CallLog(db2)
    reopened = StateStore(db2, Durability.JOURNAL)
    assert [c.seq for c in log.calls("j")] == [0, 1]
    assert reopened.world("j", 1).get("ns", "show", "show_1").data == {"title": "Hamlet"}
    db2.close()

    # Replaying again applies nothing twice.
    db3 = Database(path)
    log3 = CallLog(db3)
    StateStore(db3, Durability.JOURNAL)
    assert [c.seq for c in log3.calls("j")] == [0, 1]


def test_a_torn_last_journal_line_is_ignored(tmp_path):
    path = tmp_path / "t.duckdb"
    db = Database(path)
    CallLog(db)
    store = StateStore(db, Durability.JOURNAL)
    store.commit(World(session_id="j", seed=1), [CallLog.op(_record(0))])
    db.close()
    with open(str(path) + ".journal", "ab") as fh:
        fh.write(b'[["insert","call_log",["j",1')  # a crash mid-write
    db2 = Database(path)
    log = CallLog(db2)
    store2 = StateStore(db2, Durability.JOURNAL)
    assert [c.seq for c in log.calls("j")] == [0]
    store2.commit(World(session_id="j", seed=1), [CallLog.op(_record(1))])
    db2.close()
    db3 = Database(path)
    log3 = CallLog(db3)
    StateStore(db3, Durability.JOURNAL)
    assert [c.seq for c in log3.calls("j")] == [0, 1]


def test_large_batches_go_through_the_json_bulk_path_and_read_back_exactly():
    db = Database()
    log = CallLog(db)
    store = StateStore(db, Durability.DEFERRED)
    world = World(session_id="j", seed=1)
    records = [_record(i) for i in range(30)]
    records[3] = records[3].model_copy(update={"is_error": True, "error_kind": ErrorKind.NOT_FOUND, "result": None})
    for i, record in enumerate(records):
        world.put("ns", "show", f"show_{i}", {"title": f"Ünïcode 'quoted' {i}", "price": i * 1.5})
        store.commit(world, [CallLog.op(record)])
    stmts = compose(store._queued, store._column_types)
    assert any("from_json" in sql for sql, _ in stmts)
    store.flush()
    assert log.calls("j") == records
    fresh = StateStore(db, Durability.DEFERRED).world("j", 1)
    assert fresh.get("ns", "show", "show_7").data == {"title": "Ünïcode 'quoted' 7", "price": 10.5}


def _rows_in_duckdb(db: Database) -> int:
    return db.execute("SELECT count(*) FROM call_log").fetchone()[0]


def _wait_for_rows(db: Database, n: int, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _rows_in_duckdb(db) >= n:
            return True
        time.sleep(0.02)
    return False


class ManualClock:
    """Monotonic seconds that move only when a test says so; counts the flusher's reads."""

    def __init__(self) -> None:
        self.now = 0.0
        self.flusher_reads = 0

    def __call__(self) -> float:
        if threading.current_thread().name == "toolenv-flusher":
            self.flusher_reads += 1
        return self.now

    def flusher_looked_again(self, timeout: float = 5.0) -> bool:
        """Whether the flusher has since read the clock, decided, and (if due) flushed.

        Read c+1 starts after this call began; the flusher finishes that round (any flush
        included) before read c+2, so once c+2 is seen the round's outcome is visible.
        """
        target = self.flusher_reads + 2
        deadline = time.monotonic() + timeout
        while self.flusher_reads < target:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.001)
        return True


def _journaled_store(tmp_path, clock: ManualClock | None = None) -> tuple[Database, StateStore]:
    db = Database(tmp_path / "f.duckdb")
    CallLog(db)
    if clock is None:
        return db, StateStore(db, Durability.JOURNAL)
    return db, StateStore(db, Durability.JOURNAL, clock=clock)


def test_the_flusher_writes_queued_calls_once_calls_pause(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "FLUSH_POLL_S", 0.001)  # only how often it looks, not when it is due
    clock = ManualClock()
    db, store = _journaled_store(tmp_path, clock)
    store.start_flusher()
    store.commit_ops([CallLog.op(_record(0)), CallLog.op(_record(1))])
    clock.now = store_module.FLUSH_IDLE_S - 0.01
    assert clock.flusher_looked_again()
    assert _rows_in_duckdb(db) == 0  # not idle long enough yet: still queued
    clock.now = store_module.FLUSH_IDLE_S
    assert clock.flusher_looked_again()
    assert _rows_in_duckdb(db) == 2
    store.close()


def test_under_steady_load_the_flusher_still_writes_by_the_max_delay(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "FLUSH_POLL_S", 0.001)
    clock = ManualClock()
    db, store = _journaled_store(tmp_path, clock)
    store.start_flusher()
    # A call every half idle period: the store is never idle, so only the max delay flushes.
    step = store_module.FLUSH_IDLE_S / 2
    calls = 0
    while calls * step < store_module.FLUSH_MAX_DELAY_S:
        clock.now = calls * step
        store.commit_ops([CallLog.op(_record(calls))])
        calls += 1
        assert clock.flusher_looked_again()
        assert _rows_in_duckdb(db) == 0, clock.now
    clock.now = store_module.FLUSH_MAX_DELAY_S  # less than the idle period after the last call
    assert clock.now - (calls - 1) * step < store_module.FLUSH_IDLE_S
    assert clock.flusher_looked_again()
    assert _rows_in_duckdb(db) == calls  # the oldest write reached the max delay: all queued went out
    store.close()


def test_a_full_queue_wakes_the_flusher_instead_of_writing_on_the_callers_thread(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "FLUSH_AT_OPS", 4)
    db, store = _journaled_store(tmp_path, ManualClock())  # time stands still: only the queue size triggers
    writers: list[str] = []
    flush = store.flush

    def recording_flush() -> None:
        writers.append(threading.current_thread().name)
        flush()

    monkeypatch.setattr(store, "flush", recording_flush)
    store.start_flusher()
    store.commit_ops([CallLog.op(_record(i)) for i in range(4)])
    assert _wait_for_rows(db, 4, timeout=2.0)
    assert writers == ["toolenv-flusher"]
    store.close()


def test_a_large_batch_is_written_as_bounded_bulk_documents_in_order(tmp_path):
    # Each document is one encode holding the GIL; chunking keeps that short.
    rows = [["s", i] for i in range(2 * BULK_CHUNK_ROWS + 7)]
    stmts = compose([["insert", "t", r] for r in rows], lambda table: ["VARCHAR", "INTEGER"])
    assert len(stmts) == 3
    docs = [json.loads(params[0]) for _, params in stmts]
    assert [len(doc["c0"]) for doc in docs] == [BULK_CHUNK_ROWS] * 2 + [7]
    decoded = [list(row) for doc in docs for row in zip(doc["c0"], doc["c1"], strict=True)]
    assert decoded == rows

    db = Database(tmp_path / "bulk.duckdb")
    db.execute("CREATE TABLE t (s VARCHAR, n INTEGER)")
    for sql, params in stmts:
        db.execute(sql, params)
    assert db.execute("SELECT count(*), sum(n) FROM t").fetchone() == (len(rows), sum(range(len(rows))))


def test_each_append_is_one_json_line_in_the_file_before_it_returns(tmp_path):
    path = tmp_path / "m.journal"
    journal = Journal(path)
    journal.append([["insert", "call_log", ["j", 0]]])
    journal.append([["insert", "call_log", ["j", "Zürich"]]])
    content = '[["insert","call_log",["j",0]]]\n[["insert","call_log",["j","Zürich"]]]\n'.encode()
    assert path.read_bytes() == content  # what a kill -9 now would leave behind: nothing buffered
    reopened = Journal(path)  # a restart after that crash
    assert reopened.size() == journal.size() == len(content)
    assert reopened.read_from(0) == ([[["insert", "call_log", ["j", 0]]], [["insert", "call_log", ["j", "Zürich"]]]],
                                     len(content))
    reopened.close()
    journal.close()
    assert path.read_bytes() == content


@pytest.mark.parametrize("tail", [b'[["insert","t",[2', b'[["insert","t",[2]]]', '[["insert","t",["Zür'.encode()[:-1]])
def test_a_torn_last_line_is_not_read_and_is_cut_off_on_restart(tmp_path, tail):
    path = tmp_path / "torn.journal"
    journal = Journal(path)
    journal.append([["insert", "t", [1]]])
    whole = journal.size()
    journal.close()
    with path.open("ab") as fh:
        fh.write(tail)  # a crash mid-write: the line never got its newline
    reopened = Journal(path)
    assert reopened.size() == whole + len(tail)
    assert reopened.read_from(0) == ([[["insert", "t", [1]]]], whole)
    assert reopened.read_from(whole) == ([], whole)
    reopened.truncate(whole)  # what the store does on restart
    reopened.append([["insert", "t", [3]]])
    assert Journal(path).read_from(0) == ([[["insert", "t", [1]]], [["insert", "t", [3]]]], reopened.size())
    reopened.close()


def test_truncation_leaves_no_stale_lines(tmp_path):
    path = tmp_path / "g.journal"
    journal = Journal(path)
    for i in range(500):
        journal.append([["insert", "t", [i, "x" * 8]]])
    entries, end = Journal(path).read_from(0)
    assert [e[0][2][0] for e in entries] == list(range(500)) and end == journal.size()
    journal.truncate()
    journal.append([["insert", "t", ["after"]]])
    restarted = Journal(path)  # as a restart would see it, without a clean close
    assert restarted.size() == journal.size() == path.stat().st_size
    assert restarted.read_from(0) == ([[["insert", "t", ["after"]]]], journal.size())
    journal.close()


def test_a_failed_sync_leaves_no_part_of_its_line_and_later_lines_read_back(tmp_path, monkeypatch):
    path = tmp_path / "s.journal"
    journal = Journal(path, fsync=True)
    journal.append([["insert", "t", [1]]])
    kept = path.read_bytes()
    real = journal_module.os.fsync

    def failing_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(journal_module.os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="Input/output"):
        journal.append([["insert", "t", [2]]])  # its call gets no success answer
    assert path.read_bytes() == kept and journal.size() == len(kept)
    monkeypatch.setattr(journal_module.os, "fsync", real)
    journal.append([["insert", "t", [3]]])
    assert Journal(path).read_from(0) == ([[["insert", "t", [1]]], [["insert", "t", [3]]]], journal.size())
    journal.close()


def test_a_store_whose_journal_append_fails_queues_nothing_and_answers_with_the_error(tmp_path, monkeypatch):
    db = Database(tmp_path / "e.duckdb")
    CallLog(db)
    store = StateStore(db, Durability.JOURNAL, fsync=True)

    def failing_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(journal_module.os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="No space"):
        store.commit_ops([CallLog.op(_record(0))])
    monkeypatch.undo()
    store.commit_ops([CallLog.op(_record(1))])
    store.close()
    db.close()
    db2 = Database(tmp_path / "e.duckdb")
    log = CallLog(db2)
    StateStore(db2, Durability.JOURNAL)
    assert [c.seq for c in log.calls("j")] == [1]
    db2.close()
