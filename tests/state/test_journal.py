from __future__ import annotations

from state import CallLog, CallRecord, Database, ErrorKind
from state.store import Durability, StateStore, compose
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
