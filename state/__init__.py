"""The DuckDB state layer: one database per server process, shared by every session."""

from state.call_log import CallLog, CallRecord, ErrorKind
from state.db import Database, DatabaseLockedError, DatabaseOpenError, default_db_path
from state.sessions import SessionRecord, SessionStore

__all__ = [
    "CallLog",
    "CallRecord",
    "Database",
    "DatabaseLockedError",
    "DatabaseOpenError",
    "ErrorKind",
    "SessionRecord",
    "SessionStore",
    "default_db_path",
]
