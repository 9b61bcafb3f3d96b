"""Persisted session records: which tools a session sees, its seed and its clock.

Sessions survive a restart on the same database, so a client can keep using
``/sessions/{id}/mcp`` after the server comes back.
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
"""


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


class SessionStore:
    """Session records in DuckDB, cached in memory.

    ``persist=False`` keeps records in memory only (in-process RL with ephemeral durability):
    no DuckDB statement per session, and a forgotten record is gone.
    """

    def __init__(self, db: Database, *, persist: bool = True) -> None:
        self._db = db
        self.persist = persist
        self._db.execute(_DDL)
        self._cache: dict[str, SessionRecord] = {}
        self._lock = threading.Lock()

    def create(self, record: SessionRecord) -> SessionRecord:
        with self._lock:
            if self.get(record.session_id) is not None:
                raise KeyError(record.session_id)
            if not self.persist:
                self._cache[record.session_id] = record
                return record
            self._db.execute(
                "INSERT INTO sessions (session_id, seed, today, tools, label, created_at, base_world)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    record.session_id,
                    record.seed,
                    record.today,
                    json.dumps(record.tools),
                    record.label,
                    record.created_at,
                    record.base_world,
                ],
            )
            self._cache[record.session_id] = record
        return record

    def get(self, session_id: str) -> SessionRecord | None:
        hit = self._cache.get(session_id)
        if hit is not None or not self.persist:
            return hit
        row = self._db.execute(
            "SELECT session_id, seed, today, tools, label, created_at, base_world FROM sessions WHERE session_id = ?",
            [session_id],
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

    def cached(self) -> int:
        return len(self._cache)
