"""Session worlds in memory, persisted to DuckDB: one table per entity type.

Reads are served from the in-memory ``World``; every mutation is written through to
DuckDB. ``commit`` writes a world's pending mutations and any extra statements (the call-log
row) in one transaction, so state and log are durable together before a response leaves.
In ``deferred`` durability (in-process RL rollouts) ``commit`` only queues, and ``flush``
writes everything queued.

Tables: ``ent_<entity>`` (session_id, namespace, id, data, deleted, version),
``world_queries`` (search memo), ``world_meta`` (id counter), ``world_pinned``.
"""

from __future__ import annotations

import json
import re
import threading
from enum import Enum
from typing import Any

from state.db import Database
from state.world import RowState, World, canonical

_DDL = [
    """CREATE TABLE IF NOT EXISTS world_queries (
        session_id VARCHAR, namespace VARCHAR, entity VARCHAR, query_key VARCHAR, ids JSON,
        PRIMARY KEY (session_id, namespace, entity, query_key))""",
    "CREATE TABLE IF NOT EXISTS world_meta (session_id VARCHAR PRIMARY KEY, created INTEGER)",
    """CREATE TABLE IF NOT EXISTS world_pinned (
        session_id VARCHAR, tool VARCHAR, args_key VARCHAR, observation JSON,
        PRIMARY KEY (session_id, tool, args_key))""",
]
Statement = tuple[str, list[Any]]


class Durability(str, Enum):
    PER_CALL = "per_call"
    DEFERRED = "deferred"


def table_for(entity: str) -> str:
    return "ent_" + (re.sub(r"[^a-z0-9_]", "_", entity.lower())[:56] or "item")


class StateStore:
    def __init__(self, db: Database, durability: Durability = Durability.PER_CALL) -> None:
        self._db = db
        self.durability = durability
        for ddl in _DDL:
            self._db.execute(ddl)
        self._worlds: dict[str, World] = {}
        self._tables: set[str] = {
            r[0] for r in db.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'ent\\_%' ESCAPE '\\'"
            ).fetchall()
        }
        self._queued: list[Statement] = []
        self._lock = threading.RLock()

    # -- lifecycle ------------------------------------------------------------------------

    def world(self, session_id: str, seed: int) -> World:
        """The session's world, loaded from DuckDB the first time it is touched."""
        hit = self._worlds.get(session_id)
        if hit is None:
            hit = self._load(session_id, seed)
            self._worlds[session_id] = hit
        return hit

    def reset(self, session_id: str, seed: int) -> World:
        """Back to the base world: drop every row, memo and pin the session accumulated."""
        with self._lock:
            old = self._worlds.get(session_id) or self._load(session_id, seed)
            tables = sorted(self._tables_of(old))
            stmts = [(f"DELETE FROM {t} WHERE session_id = ?", [session_id]) for t in tables]
            if old.queries:
                stmts.append(("DELETE FROM world_queries WHERE session_id = ?", [session_id]))
            if old.created:
                stmts.append(("DELETE FROM world_meta WHERE session_id = ?", [session_id]))
            if old.pinned:
                stmts.append(("DELETE FROM world_pinned WHERE session_id = ?", [session_id]))
            old.pending.clear()
            self.commit_statements(stmts)
            world = World(session_id=session_id, seed=seed)
            self._worlds[session_id] = world
            return world

    def fork(self, source_id: str, seed: int, new_id: str) -> World:
        """Copy a session's current state (memory and database) under a new session id."""
        with self._lock:
            source = self.world(source_id, seed)
            stmts = self._mutations(source)
            stmts += [
                (f"INSERT INTO {t} SELECT ?, namespace, id, data, deleted, version FROM {t} WHERE session_id = ?",
                 [new_id, source_id]) for t in sorted(self._tables_of(source))
            ]
            if source.queries:
                stmts.append(("INSERT INTO world_queries SELECT ?, namespace, entity, query_key, ids "
                              "FROM world_queries WHERE session_id = ?", [new_id, source_id]))
            if source.created:
                stmts.append(("INSERT INTO world_meta SELECT ?, created FROM world_meta WHERE session_id = ?",
                              [new_id, source_id]))
            if source.pinned:
                stmts.append(("INSERT INTO world_pinned SELECT ?, tool, args_key, observation "
                              "FROM world_pinned WHERE session_id = ?", [new_id, source_id]))
            # Queued in deferred mode: the copies run after the source's earlier queued writes.
            self.commit_statements(stmts)
            clone = source.clone(new_id)
            self._worlds[new_id] = clone
            return clone

    def pin(self, world: World, tool: str, args: dict[str, Any], observation: Any) -> None:
        key = canonical(args)
        world.pinned[(tool, key)] = observation
        self.commit_statements([("INSERT OR REPLACE INTO world_pinned VALUES (?, ?, ?, ?)",
                      [world.session_id, tool, key, json.dumps(observation, sort_keys=True)])])

    def evict(self, session_id: str) -> None:
        """Forget the in-memory copy (the database keeps it); used to bound memory."""
        world = self._worlds.pop(session_id, None)
        if world is not None:
            self.commit_statements(self._mutations(world))
        self.flush()

    # -- writes ---------------------------------------------------------------------------

    def commit(self, world: World, extra: list[Statement] = ()) -> None:  # type: ignore[assignment]
        """Persist the world's pending mutations plus ``extra`` statements atomically."""
        self.commit_statements(self._mutations(world) + list(extra))

    def commit_statements(self, stmts: list[Statement]) -> None:
        if self.durability is Durability.DEFERRED:
            with self._lock:
                self._queued += stmts
            return
        self._write(stmts)

    def flush(self) -> None:
        with self._lock:
            queued, self._queued = self._queued, []
        self._write(queued)

    def _mutations(self, world: World) -> list[Statement]:
        if not world.pending:
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
        by_table: dict[str, list[Any]] = {}
        for (ns, entity, eid), row in rows.items():
            by_table.setdefault(table_for(entity), []).extend(
                [sid, ns, eid, json.dumps(row.data, sort_keys=True), row.deleted, row.version]
            )
        stmts: list[Statement] = []
        for table, params in sorted(by_table.items()):
            self._ensure_table(table)
            n = len(params) // 6
            stmts.append((f"INSERT OR REPLACE INTO {table} VALUES " + ",".join(["(?, ?, ?, ?, ?, ?)"] * n), params))
        if queries:
            params = [v for (ns, e, q), ids in queries.items() for v in (sid, ns, e, q, json.dumps(ids))]
            stmts.append(("INSERT OR REPLACE INTO world_queries VALUES " + ",".join(["(?, ?, ?, ?, ?)"] * len(queries)), params))
        if counter is not None:
            stmts.append(("INSERT OR REPLACE INTO world_meta VALUES (?, ?)", [sid, counter]))
        return stmts

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

    # -- reads ----------------------------------------------------------------------------

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
