"""One session's world: the entity rows it has seen or written, held in memory.

The base world is virtual: any row a search can return is a pure function of (seed,
namespace, entity, query), so nothing is generated until a tool touches it. What a session
has touched or written lives here, keyed by (namespace, entity, id):

* ``rows``     the current version of every materialized row (and whether it is deleted);
* ``queries``  which ids a search or list returned, so repeating it returns the same ids;
* ``pinned``   recorded observations keyed by (tool, canonical arguments).

Every mutation is also appended to ``pending`` so the store can persist exactly what
changed, in the same DuckDB transaction as the call-log row.
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field
from typing import Any

from state.encoding import encode_canonical_lenient

RowKey = tuple[str, str, str]  # (namespace, entity, id)


def canonical(value: Any) -> str:
    return encode_canonical_lenient(value)


@dataclass
class RowState:
    data: dict[str, Any]
    deleted: bool = False
    version: int = 0
    _hash: bytes | None = field(default=None, repr=False, compare=False)

    def content_hash(self, key: RowKey) -> bytes:
        """Hash of the row's canonical form; rows are replaced, never mutated, so it is cached."""
        if self._hash is None:
            self._hash = hashlib.sha256(canonical([list(key), self.data, self.deleted]).encode()).digest()
        return self._hash


@dataclass
class World:
    session_id: str
    seed: int
    rows: dict[RowKey, RowState] = field(default_factory=dict)
    queries: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)
    pinned: dict[tuple[str, str], Any] = field(default_factory=dict)
    created: int = 0
    # (kind, key, payload) mutations not yet persisted; kind is "row" or "query".
    pending: list[tuple[str, Any, Any]] = field(default_factory=list)
    # digest() memo; put() and next_id() clear it (rows are only changed through them once loaded).
    _digest: str | None = field(default=None, repr=False, compare=False)

    def get(self, namespace: str, entity: str, entity_id: str) -> RowState | None:
        return self.rows.get((namespace, entity, str(entity_id)))

    def put(self, namespace: str, entity: str, entity_id: str, data: dict[str, Any], *, deleted: bool = False) -> RowState:
        key = (namespace, entity, str(entity_id))
        old = self.rows.get(key)
        state = RowState(data=data, deleted=deleted, version=(old.version + 1) if old else 0)
        self.rows[key] = state
        self._digest = None
        self.pending.append(("row", key, state))
        return state

    def remember_query(self, namespace: str, entity: str, query_key: str, ids: list[str]) -> None:
        self.queries[(namespace, entity, query_key)] = ids
        self.pending.append(("query", (namespace, entity, query_key), ids))

    def rows_of(self, namespace: str, entity: str) -> list[tuple[str, RowState]]:
        """Rows of one entity type in id order (deterministic)."""
        found = [(k[2], v) for k, v in self.rows.items() if k[0] == namespace and k[1] == entity]
        return sorted(found, key=lambda kv: kv[0])

    def next_id(self, namespace: str, entity: str, prefix: str) -> str:
        """A fresh id, deterministic in (seed, namespace, entity, creation order)."""
        self.created += 1
        self._digest = None
        blob = f"{self.seed}|{namespace}|{entity}|{self.created}".encode()
        self.pending.append(("counter", None, self.created))
        return f"{prefix}_{hashlib.sha256(blob).hexdigest()[:10]}"

    def digest(self) -> str:
        """Stable hash of every row (and the id counter) in canonical order; memoized until a change."""
        if self._digest is not None:
            return self._digest
        h = hashlib.sha256()
        h.update(f"created={self.created}\n".encode())
        for key in sorted(self.rows):
            h.update(self.rows[key].content_hash(key))
        self._digest = h.hexdigest()
        return self._digest

    def clone(self, session_id: str) -> World:
        """An independent copy (rows are replaced, never mutated in place, so a shallow row copy suffices)."""
        return World(
            session_id=session_id,
            seed=self.seed,
            rows={k: RowState(v.data, v.deleted, v.version, v._hash) for k, v in self.rows.items()},
            queries=dict(self.queries),
            pinned=copy.copy(self.pinned),
            created=self.created,
            _digest=self._digest,
        )
