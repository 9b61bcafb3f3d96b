from __future__ import annotations

from state import CallLog, CallRecord, Database


def _record(seq: int) -> CallRecord:
    return CallRecord(session_id="s1", seq=seq, tool="t", arguments={"a": seq}, result={"ok": True},
                      is_error=False, latency_ms=0.1, ts="2026-01-01T00:00:00+00:00")


def test_calls_survive_reopening_the_database(tmp_path):
    path = tmp_path / "log.duckdb"
    db = Database(path)
    log = CallLog(db)
    for _ in range(3):
        log.append(_record(log.next_seq("s1")))
    db.close()
    reopened = CallLog(Database(path))
    assert [c.seq for c in reopened.calls("s1")] == [0, 1, 2]
    assert reopened.next_seq("s1") == 3


def test_replay_view_drops_wall_time_fields():
    view = _record(0).replay_view()
    assert "ts" not in view and "latency_ms" not in view and view["arguments"] == {"a": 0}
