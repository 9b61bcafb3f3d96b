"""Append-only log of every ``tools/call``, committed before the response is returned.

A row per call: session, per-session sequence number, tool, arguments, result, whether it
was an error and which kind, latency and a timestamp. Timestamps come from an injected
clock; ``CallRecord.replay_view()`` drops the two wall-time fields so two runs of the same
script compare equal.
"""

from __future__ import annotations

import hashlib
import json
import threading
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict

from state.db import Database
from state.encoding import encode_canonical, encode_text

_DDL = """
CREATE TABLE IF NOT EXISTS call_log (
    session_id VARCHAR NOT NULL,
    seq INTEGER NOT NULL,
    tool VARCHAR NOT NULL,
    arguments JSON NOT NULL,
    result JSON,
    is_error BOOLEAN NOT NULL,
    error_kind VARCHAR,
    latency_ms DOUBLE NOT NULL,
    ts VARCHAR NOT NULL,
    PRIMARY KEY (session_id, seq)
)
"""


TRUNCATED = "_truncated"


def truncation_marker(text: str) -> dict[str, Any]:
    """What the log keeps of a text too long to store: its length and SHA-256 (of UTF-8)."""
    return {TRUNCATED: True, "chars": len(text), "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}


def bounded_json(text: str, max_chars: int) -> str:
    """``text`` (a JSON document) as the log stores it: whole up to ``max_chars`` characters,
    beyond that the canonical JSON of its ``truncation_marker``."""
    return text if len(text) <= max_chars else encode_canonical(truncation_marker(text))


class ErrorKind(str, Enum):
    """Why a call failed; ``infra_error`` and ``fault`` are never the agent's fault."""

    INVALID_ARGUMENTS = "invalid_arguments"
    UNKNOWN_TOOL = "unknown_tool"
    NOT_FOUND = "not_found"
    TOOL_ERROR = "tool_error"
    INFRA_ERROR = "infra_error"
    FAULT = "fault"  # injected by the session's fault options (env_server.faults); never judged


class CallRecord(BaseModel):
    """One logged call. Arguments or a result whose JSON is longer than the server's
    ``max_logged_json_chars`` are logged as ``{"_truncated": true, "chars": N, "sha256": ...}``
    (and a single over-long argument string, in a call rejected for it, the same way)."""

    model_config = ConfigDict(extra="forbid")

    session_id: str
    seq: int
    tool: str
    arguments: dict[str, Any]
    result: Any = None
    is_error: bool
    error_kind: ErrorKind | None = None
    latency_ms: float
    ts: str

    def replay_view(self) -> dict[str, Any]:
        """The record without wall-time fields, for determinism comparisons."""
        return self.model_dump(mode="json", exclude={"latency_ms", "ts"})


class CallLog:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._db.execute(_DDL)
        self._next: dict[str, int] = {}
        self._lock = threading.Lock()

    def next_seq(self, session_id: str) -> int:
        """Reserve the session's next sequence number (continues after a restart)."""
        with self._lock:
            seq = self._next.get(session_id)
            if seq is None:
                seq = self._stored_next(session_id)
            self._next[session_id] = seq + 1
            return seq

    def _stored_next(self, session_id: str) -> int:
        row = self._db.execute(
            "SELECT coalesce(max(seq), -1) + 1 FROM call_log WHERE session_id = ?", [session_id]
        ).fetchone()
        return int(row[0]) if row else 0

    def start(self, session_id: str) -> None:
        """A new session numbers its calls from 0 (no database lookup)."""
        with self._lock:
            self._next[session_id] = 0

    def forget(self, session_id: str) -> None:
        """Drop the session's sequence counter (it is re-read from the database if needed)."""
        with self._lock:
            self._next.pop(session_id, None)

    def tracked(self) -> int:
        return len(self._next)

    def append(self, record: CallRecord) -> None:
        self._db.execute(*self.statement(record))

    @staticmethod
    def statement(record: CallRecord) -> tuple[str, list[object]]:
        return ("INSERT INTO call_log VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", CallLog.row(record))

    @staticmethod
    def op(record: CallRecord) -> list[object]:
        """The record as a state-store operation, committed with the call's state changes."""
        return ["insert", "call_log", CallLog.row(record)]

    @staticmethod
    def call_op(
        session_id: str, seq: int, tool: str, arguments_json: str, result_json: str,
        error_kind: ErrorKind | None, latency_ms: float, ts: str,
    ) -> list[object]:
        """``op`` for the serving hot path: no ``CallRecord`` is built (pydantic costs more
        than the rest of the row), and arguments and result come already encoded."""
        return ["insert", "call_log", [
            session_id, seq, tool, arguments_json, result_json,
            error_kind is not None, error_kind.value if error_kind else None, latency_ms, ts,
        ]]  # same columns as ``row``; here a call is an error exactly when it has a kind

    @staticmethod
    def row(record: CallRecord) -> list[object]:
        # The result keeps its own key order (the simulator's is deterministic); arguments
        # come from the agent, so they are sorted into a canonical form.
        return [
            record.session_id, record.seq, record.tool,
            encode_canonical(record.arguments), encode_text(record.result), record.is_error,
            record.error_kind.value if record.error_kind else None, record.latency_ms, record.ts,
        ]

    @staticmethod
    def copy_op(source_id: str, new_id: str) -> list[object]:
        """Copy a session's log under a new id (a fork shares its parent's prefix)."""
        return [
            "sql",
            "INSERT INTO call_log SELECT ?, seq, tool, arguments, result, is_error, error_kind, latency_ms, ts "
            "FROM call_log WHERE session_id = ?",
            [new_id, source_id],
        ]

    @staticmethod
    def delete_op(session_id: str) -> list[object]:
        """Delete a session's whole log (queued behind its earlier rows)."""
        return ["sql", "DELETE FROM call_log WHERE session_id = ?", [session_id]]

    def inherit(self, source_id: str, new_id: str) -> None:
        """A fork continues its parent's numbering (its copied rows may still be queued)."""
        with self._lock:
            seq = self._next.get(source_id)
            if seq is None:
                seq = self._stored_next(source_id)
            self._next[new_id] = seq

    def calls(self, session_id: str) -> list[CallRecord]:
        rows = self._db.execute(
            "SELECT session_id, seq, tool, arguments, result, is_error, error_kind, latency_ms, ts "
            "FROM call_log WHERE session_id = ? ORDER BY seq",
            [session_id],
        ).fetchall()
        return [
            CallRecord(
                session_id=r[0],
                seq=r[1],
                tool=r[2],
                arguments=json.loads(r[3]),
                result=json.loads(r[4]) if r[4] is not None else None,
                is_error=r[5],
                error_kind=ErrorKind(r[6]) if r[6] else None,
                latency_ms=r[7],
                ts=r[8],
            )
            for r in rows
        ]
