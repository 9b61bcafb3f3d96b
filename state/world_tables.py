"""The DuckDB side of session worlds: entity tables, a world's changes as operations, writes, loads.

``WorldTables`` is a mixin of ``StateStore`` (``state.store``), which sets the attributes
declared here; it decides when operations are written, this module how.
"""

from __future__ import annotations

import json
import threading

from state.db import Database
from state.statements import Op, Statement, table_for
from state.world import RowState, World


class WorldTables:
    """Entity tables in DuckDB, and the conversions between them and in-memory worlds."""

    _db: Database
    _tables: set[str]
    _types: dict[str, list[str]]
    _lock: threading.RLock
    persistent: bool

    def _mutations(self, world: World) -> list[Op]:
        if not world.pending:
            return []
        if not self.persistent:
            world.pending.clear()
            return []
        rows: dict[tuple[str, str, str], RowState] = {}
        queries: dict[tuple[str, str, str], list[str]] = {}
        counter: int | None = None
        for kind, key, payload in world.pending:
            if kind == "row":
                rows[key] = payload
            elif kind == "query":
                queries[key] = payload
            else:
                counter = payload
        world.pending.clear()
        sid = world.session_id
        ops: list[Op] = []
        for (ns, entity, eid), row in rows.items():
            table = table_for(entity)
            self._ensure_table(table)
            ops.append(["upsert", table, [sid, ns, eid, json.dumps(row.data, sort_keys=True), row.deleted, row.version]])
        for (ns, entity, qk), ids in queries.items():
            ops.append(["upsert", "world_queries", [sid, ns, entity, qk, json.dumps(ids)]])
        if counter is not None:
            ops.append(["upsert", "world_meta", [sid, counter]])
        return ops

    def _write(self, stmts: list[Statement]) -> None:
        if not stmts:
            return
        cur = self._db.cursor()
        if len(stmts) == 1:
            cur.execute(*stmts[0])
            return
        cur.execute("BEGIN TRANSACTION")
        try:
            for sql, params in stmts:
                cur.execute(sql, params)
        except BaseException:
            cur.execute("ROLLBACK")
            raise
        cur.execute("COMMIT")

    def _column_types(self, table: str) -> list[str]:
        hit = self._types.get(table)
        if hit is None:
            hit = [r[0] for r in self._db.execute(
                "SELECT data_type FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position",
                [table],
            ).fetchall()]
            self._types[table] = hit
        return hit

    def _ensure_table(self, table: str) -> None:
        if table in self._tables:
            return
        with self._lock:
            self._db.execute(
                f"CREATE TABLE IF NOT EXISTS {table} (session_id VARCHAR, namespace VARCHAR, id VARCHAR, "
                "data JSON, deleted BOOLEAN, version INTEGER, PRIMARY KEY (session_id, namespace, id))"
            )
            self._tables.add(table)

    def _tables_of(self, world: World) -> set[str]:
        return {table_for(entity) for (_, entity, _) in world.rows} & self._tables

    def _load(self, session_id: str, seed: int) -> World:
        world = World(session_id=session_id, seed=seed)
        for table in sorted(self._tables):
            entity = table[4:]
            for ns, eid, data, deleted, version in self._db.execute(
                f"SELECT namespace, id, data, deleted, version FROM {table} WHERE session_id = ?", [session_id]
            ).fetchall():
                world.rows[(ns, entity, eid)] = RowState(json.loads(data), deleted, version)
        for ns, entity, qk, ids in self._db.execute(
            "SELECT namespace, entity, query_key, ids FROM world_queries WHERE session_id = ?", [session_id]
        ).fetchall():
            world.queries[(ns, entity, qk)] = json.loads(ids)
        meta = self._db.execute("SELECT created FROM world_meta WHERE session_id = ?", [session_id]).fetchone()
        world.created = meta[0] if meta else 0
        for tool, key, obs in self._db.execute(
            "SELECT tool, args_key, observation FROM world_pinned WHERE session_id = ?", [session_id]
        ).fetchall():
            world.pinned[(tool, key)] = json.loads(obs)
        return world
