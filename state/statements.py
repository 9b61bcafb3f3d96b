"""DuckDB statements for session worlds: the schema, table names, and composing operations.

An operation is ``["upsert" | "insert", table, row]`` or ``["sql", statement, params]``;
``compose`` turns a list of them into few statements (see ``state.store`` for when they run).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from state.encoding import encode_compact

DDL = [
    """CREATE TABLE IF NOT EXISTS world_queries (
        session_id VARCHAR, namespace VARCHAR, entity VARCHAR, query_key VARCHAR, ids JSON,
        PRIMARY KEY (session_id, namespace, entity, query_key))""",
    "CREATE TABLE IF NOT EXISTS world_meta (session_id VARCHAR PRIMARY KEY, created INTEGER)",
    """CREATE TABLE IF NOT EXISTS world_pinned (
        session_id VARCHAR, tool VARCHAR, args_key VARCHAR, observation JSON,
        PRIMARY KEY (session_id, tool, args_key))""",
    "CREATE TABLE IF NOT EXISTS journal_state (name VARCHAR PRIMARY KEY, applied BIGINT)",
    # One row, created here, so each batch can UPDATE it: an INSERT OR REPLACE costs DuckDB
    # several milliseconds, an UPDATE of one row a fraction of that.
    "INSERT INTO journal_state SELECT 'journal', 0 WHERE NOT EXISTS (SELECT 1 FROM journal_state)",
]
SET_APPLIED = "UPDATE journal_state SET applied = ? WHERE name = 'journal'"
Statement = tuple[str, list[Any]]
# An operation: ["upsert" | "insert", table, row] or ["sql", statement, params].
Op = list[Any]
_KEY_COLUMNS = {"world_queries": 4, "world_meta": 1, "world_pinned": 3}
ROWS_PER_STATEMENT = 400
BULK_ROWS = 8
BULK_CHUNK_ROWS = 1024


def table_for(entity: str) -> str:
    return "ent_" + (re.sub(r"[^a-z0-9_]", "_", entity.lower())[:56] or "item")


def _bulk_statements(verb: str, table: str, types: list[str], rows: list[list[Any]]) -> list[Statement]:
    """Rows as column-major JSON documents ``{"c0": [...], "c1": [...]}`` that DuckDB
    unnests in parallel, one statement per ``BULK_CHUNK_ROWS`` rows.

    Column-major beats one JSON array per row (~12 vs ~16 us a call-log row, measured),
    since DuckDB parses a handful of long lists instead of a small document per row.
    Chunks bound the GIL hold of encoding (~3 ms for a full chunk); fewer, larger
    statements spare DuckDB's fixed cost per statement.
    """
    spec = "{" + ",".join(f'"c{i}":["VARCHAR"]' for i in range(len(types))) + "}"
    columns = ", ".join(f"unnest(d.c{i})::{t}" for i, t in enumerate(types))
    sql = f"{verb} {table} SELECT {columns} FROM (SELECT from_json(?::JSON, '{spec}') AS d)"
    out: list[Statement] = []
    for i in range(0, len(rows), BULK_CHUNK_ROWS):
        chunk = rows[i : i + BULK_CHUNK_ROWS]
        out.append((sql, [encode_compact({f"c{k}": list(col) for k, col in enumerate(zip(*chunk, strict=True))})]))
    return out


def compose(ops: list[Op], column_types: Callable[[str], list[str]] | None = None) -> list[Statement]:
    """Turn operations into few statements, keeping the order that matters.

    Row writes between two raw statements are grouped per (kind, table); upserts keep the
    last row per primary key. Raw statements (reset, fork copies) act as barriers. With
    ``column_types``, a large group is sent as JSON documents that DuckDB unpacks itself
    (see ``_bulk_statements``): binding parameters from Python costs ~20 us each.
    """
    out: list[Statement] = []
    groups: dict[tuple[str, str], Any] = {}

    def emit() -> None:
        for (kind, table), rows in groups.items():
            values = list(rows.values()) if isinstance(rows, dict) else rows
            verb = "INSERT OR REPLACE INTO" if kind == "upsert" else "INSERT INTO"
            if column_types is not None and len(values) >= BULK_ROWS:
                out.extend(_bulk_statements(verb, table, column_types(table), values))
                continue
            width = len(values[0])
            tuple_sql = "(" + ", ".join(["?"] * width) + ")"
            for i in range(0, len(values), ROWS_PER_STATEMENT):
                chunk = values[i : i + ROWS_PER_STATEMENT]
                out.append((f"{verb} {table} VALUES " + ",".join([tuple_sql] * len(chunk)),
                            [v for row in chunk for v in row]))
        groups.clear()

    for kind, target, payload in ops:
        if kind == "sql":
            emit()
            out.append((target, list(payload)))
        elif kind == "upsert":
            keylen = _KEY_COLUMNS.get(target, 3)
            bucket = groups.setdefault((kind, target), {})
            bucket.pop(tuple(payload[:keylen]), None)
            bucket[tuple(payload[:keylen])] = payload
        else:
            groups.setdefault((kind, target), []).append(payload)
    emit()
    return out
