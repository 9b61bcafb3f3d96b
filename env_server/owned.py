"""``Owned``: values derived from one object, kept by that object and freed with it.

This is the one cache rule of env_server (see ARCHITECTURE.md): a derived value lives in
the instance whose data it comes from (a ``Catalog``'s rules, search index, generator tools and
environment, compiled schema plans; a ``ToolEnvironment``'s scenario registry) and dies with it.
There are no module-level caches keyed by ``id()`` and no size-triggered clears.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["Owned"]

T = TypeVar("T")


class Owned:
    """Named values built on first use by ``get(key, build)``; ``build`` runs once per key."""

    __slots__ = ("_lock", "_values")

    def __init__(self) -> None:
        self._values: dict[str, Any] = {}
        self._lock = threading.Lock()

    def get(self, key: str, build: Callable[[], T]) -> T:
        hit = self._values.get(key)
        if hit is not None:
            return hit
        with self._lock:
            hit = self._values.get(key)
            if hit is None:
                hit = self._values[key] = build()
            return hit

    def peek(self, key: str) -> Any:
        """The value of ``key`` if it was built, else None (no build)."""
        return self._values.get(key)

    def __contains__(self, key: object) -> bool:
        return key in self._values
