"""Session records: retired ids stay retired, and databases made before ``gold_guarded`` are migrated."""

from __future__ import annotations

import datetime as dt

import pytest

from state import Database, SessionRecord, SessionStore

TODAY = dt.date(2026, 1, 15)


def test_a_retired_session_is_never_found_again_nor_its_id_reused(tmp_path):
    db = Database(tmp_path / "s.duckdb")
    store = SessionStore(db)
    store.create(SessionRecord(session_id="sc_1", today=TODAY, created_at="t0", gold_guarded=True))
    store.retire("sc_1", "t1")
    assert store.get("sc_1") is None
    with pytest.raises(KeyError):
        store.create(SessionRecord(session_id="sc_1", today=TODAY, created_at="t2"))
    db.close()
    reopened = SessionStore(Database(tmp_path / "s.duckdb"))
    assert reopened.get("sc_1") is None


def test_scenario_and_rl_sessions_of_an_older_database_become_gold_guarded(tmp_path):
    db = Database(tmp_path / "old.duckdb")
    db.execute("CREATE TABLE sessions (session_id VARCHAR PRIMARY KEY, seed BIGINT NOT NULL, today DATE NOT NULL, "
               "tools JSON NOT NULL, label VARCHAR, created_at VARCHAR NOT NULL)")
    for sid, label in (("sc_a", "scenario concert_gift_tickets"), ("rl_b", "rl airport_ride_home"),
                       ("s_c", "scenario but a plain session"), ("s_d", None)):
        db.execute("INSERT INTO sessions VALUES (?, 0, ?, '[]', ?, 't')", [sid, TODAY, label])
    store = SessionStore(db)
    guarded = {sid: store.get(sid).gold_guarded for sid in ("sc_a", "rl_b", "s_c", "s_d")}  # type: ignore[union-attr]
    assert guarded == {"sc_a": True, "rl_b": True, "s_c": False, "s_d": False}
