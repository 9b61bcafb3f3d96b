"""Session worlds in memory, persisted to DuckDB: one table per entity type.

Reads are served from the in-memory ``World``. Writes are *operations* (an upsert or
insert of one row into one table, or a raw statement for reset and fork). A tool call's
operations (its state changes plus its call-log row) are committed together, by one of
three durability policies:

* ``journal`` (the server default): appended to the journal file before the response
  (see ``state.journal``), then applied to DuckDB in batched transactions by a
  background flusher (when calls pause, or every few seconds under load); a restart
  replays what DuckDB had not applied yet.
* ``per_call``: one DuckDB transaction per call, before the response.
* ``deferred``: queued in memory until ``flush()``.
* ``ephemeral``: never written at all; worlds live in memory only and are gone once evicted
  (in-process RL rollouts: no DuckDB work per call or per episode, and nothing queued).

Batches merge consecutive row writes into multi-row statements (``state.statements``);
DuckDB's per-statement cost (~0.4 ms) is what makes per-call transactions expensive.
``state.world_tables`` holds the entity tables, writes statements and loads worlds.

Tables: ``ent_<entity>`` (session_id, namespace, id, data, deleted, version),
``world_queries`` (search memo), ``world_meta`` (id counter), ``world_pinned``,
``journal_state`` (journal bytes applied).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any

from state.db import MEMORY, Database
from state.journal import Journal
from state.statements import DDL, SET_APPLIED, Op, compose
from state.world import World, canonical
from state.world_tables import WorldTables

logger = logging.getLogger(__name__)

# The background flusher applies the journal to DuckDB once calls pause for FLUSH_IDLE_S,
# or once the oldest queued write is FLUSH_MAX_DELAY_S old, or FLUSH_AT_OPS operations wait.
# DuckDB charges each batch a fixed ~3 ms of CPU (an insert and the journal offset update,
# ~1.5 ms a statement), so batches should be large: with a 0.25 s pause, an agent calling
# every few seconds paid a whole batch per call, more CPU than the call itself. Nothing
# needs DuckDB fresher than that: the journal makes a call durable, and every read of the
# log flushes first. The flusher looks at these triggers every FLUSH_POLL_S.
FLUSH_AT_OPS = 4096
FLUSH_IDLE_S = 2.0
FLUSH_MAX_DELAY_S = 5.0
FLUSH_POLL_S = 0.25
# After a failed batch the flusher waits twice as long before each retry, up to this.
FLUSH_RETRY_MAX_S = 30.0
TRUNCATE_AT_BYTES = 16 * 1024 * 1024


class Durability(str, Enum):
    JOURNAL = "journal"
    PER_CALL = "per_call"
    DEFERRED = "deferred"
    EPHEMERAL = "ephemeral"


class StateStore(WorldTables):
    def __init__(self, db: Database, durability: Durability = Durability.JOURNAL, *, fsync: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._db = db
        # Monotonic seconds for the flush triggers; tests pass a clock they advance by hand.
        self._clock = clock
        self.durability = durability
        # False for ``ephemeral`` durability: operations are dropped, DuckDB is never written.
        self.persistent = durability is not Durability.EPHEMERAL
        for ddl in DDL:
            self._db.execute(ddl)
        self._worlds: dict[str, World] = {}
        self._tables: set[str] = {
            r[0] for r in db.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'ent\\_%' ESCAPE '\\'"
            ).fetchall()
        }
        self._queued: list[Op] = []
        self._types: dict[str, list[str]] = {}
        self._lock = threading.RLock()
        self._apply_lock = threading.Lock()
        self._journal: Journal | None = None
        self._applied = 0
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._flusher: threading.Thread | None = None
        self._last_commit = 0.0  # self._clock() of the newest queued write
        self._oldest_queued = 0.0  # ... and of the oldest one still queued
        if durability is Durability.JOURNAL and db.path != MEMORY:
            self._journal = Journal(Path(db.path + ".journal"), fsync=fsync)
            self._replay()

    # -- lifecycle ------------------------------------------------------------------------

    def world(self, session_id: str, seed: int) -> World:
        """The session's world, loaded from DuckDB the first time it is touched."""
        hit = self._worlds.get(session_id)
        if hit is None:
            if not self.persistent:  # nothing was ever written: a world not held is a base world
                hit = self._worlds[session_id] = World(session_id=session_id, seed=seed)
                return hit
            self.flush()  # the database must hold every queued write before a load
            hit = self._load(session_id, seed)
            self._worlds[session_id] = hit
        return hit

    def reset(self, session_id: str, seed: int) -> World:
        """Back to the base world: drop every row, memo and pin the session accumulated."""
        with self._lock:
            old = self.world(session_id, seed)
            self._commit_or_forget(old, self._clear_ops(old))
            world = World(session_id=session_id, seed=seed)
            self._worlds[session_id] = world
            return world

    def drop(self, session_id: str, seed: int, extra: list[Op] | None = None) -> None:
        """Delete the session's state for good, in memory and in the database, with ``extra``
        operations (its call log) in the same unit."""
        with self._lock:
            ops = self._clear_ops(self.world(session_id, seed)) + list(extra or [])
            self._worlds.pop(session_id, None)
            self.commit_ops(ops)

    def _clear_ops(self, world: World) -> list[Op]:
        """Statements deleting every row, memo and pin the world has in the database."""
        self._mutations(world)  # written rows are deleted anyway
        session_id = world.session_id
        ops: list[Op] = [["sql", f"DELETE FROM {t} WHERE session_id = ?", [session_id]]
                         for t in sorted(self._tables_of(world))]
        for table, present in (("world_queries", world.queries), ("world_meta", world.created),
                               ("world_pinned", world.pinned)):
            if present:
                ops.append(["sql", f"DELETE FROM {table} WHERE session_id = ?", [session_id]])
        return ops

    def fork(self, source_id: str, seed: int, new_id: str, extra: list[Op] | None = None) -> World:
        """Copy a session's current state (memory and database) under a new session id."""
        with self._lock:
            source = self.world(source_id, seed)
            if not self.persistent:
                source.pending.clear()
                clone = self._worlds[new_id] = source.clone(new_id)
                return clone
            ops = self._mutations(source)
            ops += [["sql", f"INSERT INTO {t} SELECT ?, namespace, id, data, deleted, version FROM {t} "
                     "WHERE session_id = ?", [new_id, source_id]] for t in sorted(self._tables_of(source))]
            copies = {
                "world_queries": "SELECT ?, namespace, entity, query_key, ids",
                "world_meta": "SELECT ?, created",
                "world_pinned": "SELECT ?, tool, args_key, observation",
            }
            for table, present in (("world_queries", source.queries), ("world_meta", source.created),
                                   ("world_pinned", source.pinned)):
                if present:
                    ops.append(["sql", f"INSERT INTO {table} {copies[table]} FROM {table} WHERE session_id = ?",
                                [new_id, source_id]])
            # Queued behind the source's earlier writes, so the copies see them.
            self._commit_or_forget(source, ops + list(extra or []))
            clone = source.clone(new_id)
            self._worlds[new_id] = clone
            return clone

    def pin(self, world: World, tool: str, args: dict[str, Any], observation: Any) -> None:
        key = canonical(args)
        world.pinned[(tool, key)] = observation
        if not self.persistent:
            return
        self.commit_ops([["upsert", "world_pinned",
                          [world.session_id, tool, key, json.dumps(observation, sort_keys=True)]]])

    def adopt(self, world: World) -> None:
        """Hold ``world`` as its session's state without a load: for a session known to be new."""
        self._worlds[world.session_id] = world

    def evict(self, session_id: str, *, flush: bool = True) -> None:
        """Forget the in-memory copy (the database keeps it); used to bound memory.

        ``flush=False`` leaves the writes queued: a later ``world()`` flushes before it loads.
        """
        world = self._worlds.pop(session_id, None)
        if world is not None:
            self.commit_ops(self._mutations(world))
        if flush:
            self.flush()

    def close(self) -> None:
        """Stop the flusher and write everything still queued."""
        self._stop.set()
        self._wake.set()
        if self._flusher is not None:
            self._flusher.join(5)
        self.flush()

    # -- writes ---------------------------------------------------------------------------

    def commit(self, world: World, extra: list[Op] | None = None) -> None:
        """Commit the world's pending mutations plus ``extra`` operations as one unit."""
        if not world.pending:  # a read: only the extra operations (the call's log row)
            self.commit_ops(list(extra or []))
        else:
            self._commit_or_forget(world, self._mutations(world) + list(extra or []))

    def _commit_or_forget(self, world: World, ops: list[Op]) -> None:
        """``commit_ops``; if that fails (a per-call write, a journal append), the world in
        memory holds changes nothing stored has, so it is dropped: the next touch loads
        what was stored, and no later call builds on the failed one's changes."""
        try:
            self.commit_ops(ops)
        except BaseException:
            if self._worlds.get(world.session_id) is world:
                del self._worlds[world.session_id]
            raise

    def held(self) -> int:
        """How many session worlds are in memory (for leak checks)."""
        return len(self._worlds)

    def commit_ops(self, ops: list[Op]) -> None:
        if not ops or not self.persistent:
            return
        if self.durability is Durability.PER_CALL:
            with self._apply_lock:
                self._write(compose(ops))
            return
        with self._lock:
            if self._journal is not None:
                self._journal.append(ops)
            now = self._clock()
            if not self._queued:
                self._oldest_queued = now
            self._last_commit = now
            self._queued += ops
            full = len(self._queued) >= FLUSH_AT_OPS
        if full and self.durability is Durability.JOURNAL:
            if self._flusher is not None:
                self._wake.set()  # the batch is written off the serving thread
                return
            try:
                self.flush()
            except Exception:  # boundary: this call is journaled already; the batch stays queued
                logger.exception("flush of a full queue failed; its operations stay queued")

    def flush(self) -> None:
        """Apply every queued operation to DuckDB (one transaction).

        The batch leaves the queue only once it is written: if the write fails, its
        operations go back to the head of the queue, ahead of any queued meanwhile, and
        the journal offset stays where it was, so neither the next flush nor a restart
        skips them.
        """
        with self._apply_lock:
            with self._lock:
                queued, self._queued = self._queued, []
                oldest = self._oldest_queued
                offset = self._journal.size() if self._journal is not None else None
            try:
                stmts = compose(queued, self._column_types)
                if offset is not None and offset != self._applied:
                    stmts.append((SET_APPLIED, [offset]))
                self._write(stmts)
            except BaseException:
                self._requeue(queued, oldest)
                raise
            if offset is not None:
                self._applied = offset
                if offset > TRUNCATE_AT_BYTES:
                    self._truncate_if_idle()

    def _requeue(self, ops: list[Op], oldest: float) -> None:
        """Put a batch that was not written back in front of the queue, in order."""
        if not ops:
            return
        with self._lock:
            self._queued = ops + self._queued
            self._oldest_queued = oldest

    def start_flusher(self) -> None:
        """Apply the journal to DuckDB in the background (see ``FLUSH_IDLE_S`` and friends)."""
        if self._journal is None or self._flusher is not None:
            return

        def run() -> None:
            failures = 0
            while not self._stop.is_set():
                self._wake.wait(min(FLUSH_POLL_S * 2**failures, FLUSH_RETRY_MAX_S))
                self._wake.clear()
                if self._stop.is_set():
                    return  # close() writes what is left
                if not self._due(self._clock()):
                    continue
                try:
                    self.flush()
                    failures = 0
                except Exception:  # boundary: the batch stays queued and journaled; retried with backoff
                    failures = min(failures + 1, 16)
                    logger.exception("background flush failed (%d in a row); its operations stay queued", failures)

        self._flusher = threading.Thread(target=run, name="toolenv-flusher", daemon=True)
        self._flusher.start()

    def _due(self, now: float) -> bool:
        with self._lock:
            if not self._queued:
                return False
            return (now - self._last_commit >= FLUSH_IDLE_S or now - self._oldest_queued >= FLUSH_MAX_DELAY_S
                    or len(self._queued) >= FLUSH_AT_OPS)

    def _truncate_if_idle(self) -> None:
        with self._lock:
            if self._queued or self._journal is None or self._journal.size() != self._applied:
                return
            # File first: a crash before the offset reset leaves offset > size, read as 0.
            self._journal.truncate()
            self._write([(SET_APPLIED, [0])])
            self._applied = 0

    def _replay(self) -> None:
        assert self._journal is not None
        row = self._db.execute("SELECT applied FROM journal_state WHERE name = 'journal'").fetchone()
        offset = int(row[0]) if row else 0
        if offset > self._journal.size():
            offset = 0
        entries, end = self._journal.read_from(offset)
        if self._journal.size() > end:
            # A torn tail from a crash mid-write: its call never answered; drop it so the
            # next append starts on a clean line.
            self._journal.truncate(end)
        ops = [op for entry in entries for op in entry]
        for op in ops:
            if op[0] != "sql" and op[1].startswith("ent_"):
                self._ensure_table(op[1])
        stmts = compose(ops, self._column_types) + [(SET_APPLIED, [end])]
        self._write(stmts)
        self._applied = end
        if entries:
            logger.info("replayed %d journal entries (%d operations)", len(entries), len(ops))
        self._truncate_if_idle()
