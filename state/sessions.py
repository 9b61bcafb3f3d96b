"""Persisted session records: which tools a session sees, its seed and its clock.

Sessions survive a restart on the same database, so a client can keep using
``/sessions/{id}/mcp`` after the server comes back. A *retired* session (a deleted scenario
session) keeps its row, marked with ``deleted_at``: its call log stays for audit, but no
lookup finds it again and its id is never reused.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from state.db import Database

_DDL = """
CREATE TABLE IF NOT EXISTS sessions (
    session_id VARCHAR PRIMARY KEY,
    seed BIGINT NOT NULL,
    today DATE NOT NULL,
    tools JSON NOT NULL,
    label VARCHAR,
    created_at VARCHAR NOT NULL
);
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS base_world VARCHAR DEFAULT 'seeded';
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS deleted_at VARCHAR;
"""
# Added with gold_guarded: scenario (sc_) and RL (rl_) sessions made before it existed play
# built-in scenarios, so they are guarded too.
_GUARD_COLUMN = """
ALTER TABLE sessions ADD COLUMN gold_guarded BOOLEAN DEFAULT FALSE;
UPDATE sessions SET gold_guarded = TRUE
 WHERE (starts_with(session_id, 'sc_') AND starts_with(label, 'scenario '))
    OR (starts_with(session_id, 'rl_') AND starts_with(label, 'rl '));
"""
_COLUMNS = "session_id, seed, today, tools, label, created_at, base_world, gold_guarded"


class SessionRecord(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    session_id: str
    seed: int = 0
    today: dt.date
    # [name the session exposes, catalog name]; empty means the whole catalog.
    tools: list[tuple[str, str]] = Field(default_factory=list)
    label: str | None = None
    created_at: str
    # "seeded": user-owned collections (calendars, issues, files, …) start with a few rows;
    # "empty": they start empty.
    base_world: Literal["seeded", "empty"] = "seeded"
    # The session plays an evaluation-split scenario: its world may hold gold observations,
    # so forking or resetting it over REST needs the admin token.
    gold_guarded: bool = False


class SessionStore:
    """Session records in DuckDB, cached in memory.

    ``persist=False`` keeps records in memory only (in-process RL with ephemeral durability):
    no DuckDB statement per session, and a forgotten record is gone.
    """

    def __init__(self, db: Database, *, persist: bool = True) -> None:
        self._db = db
        self.persist = persist
        self._db.execute(_DDL)
        columns = {r[0] for r in self._db.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'sessions'").fetchall()}
        if "gold_guarded" not in columns:
            self._db.execute(_GUARD_COLUMN)
        self._cache: dict[str, SessionRecord] = {}
        self._lock = threading.Lock()

    def create(self, record: SessionRecord) -> SessionRecord:
        with self._lock:
            if self.get(record.session_id) is not None or self._retired(record.session_id):
                raise KeyError(record.session_id)
            if not self.persist:
                self._cache[record.session_id] = record
                return record
            self._db.execute(
                f"INSERT INTO sessions ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    record.session_id,
                    record.seed,
                    record.today,
                    json.dumps(record.tools),
                    record.label,
                    record.created_at,
                    record.base_world,
                    record.gold_guarded,
                ],
            )
            self._cache[record.session_id] = record
        return record

    def get(self, session_id: str) -> SessionRecord | None:
        hit = self._cache.get(session_id)
        if hit is not None or not self.persist:
            return hit
        row = self._db.execute(
            f"SELECT {_COLUMNS} FROM sessions WHERE session_id = ? AND deleted_at IS NULL", [session_id],
        ).fetchone()
        if row is None:
            return None
        record = SessionRecord(
            session_id=row[0],
            seed=row[1],
            today=row[2],
            tools=[tuple(t) for t in json.loads(row[3])],
            label=row[4],
            created_at=row[5],
            base_world=row[6] or "seeded",
            gold_guarded=bool(row[7]),
        )
        self._cache[session_id] = record
        return record

    def delete(self, session_id: str) -> None:
        """Remove the record for good (from DuckDB too when persisted)."""
        with self._lock:
            self._cache.pop(session_id, None)
            if self.persist:
                self._db.execute("DELETE FROM sessions WHERE session_id = ?", [session_id])

    def forget(self, session_id: str) -> None:
        """Drop the cached record (a persisted one is re-read on the next ``get``)."""
        self._cache.pop(session_id, None)

    def retire(self, session_id: str, at: str) -> None:
        """Mark a session deleted for good: ``get`` no longer finds it, ``create`` refuses its id."""
        with self._lock:
            self._cache.pop(session_id, None)
            if self.persist:
                self._db.execute("UPDATE sessions SET deleted_at = ? WHERE session_id = ?", [at, session_id])

    def _retired(self, session_id: str) -> bool:
        if not self.persist:
            return False
        row = self._db.execute("SELECT 1 FROM sessions WHERE session_id = ?", [session_id]).fetchone()
        return row is not None

    def cached(self) -> int:
        return len(self._cache)
