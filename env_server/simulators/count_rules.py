"""Counts that count: a record's count of its own list is that list's length.

A poem with four ``lines`` has a ``linecount`` of 4, not 2153. ``Counted`` binds a count
field to the list it counts, by their possible names; it is an invariant like the others
(``invariants.RULES``): the generator enforces it and the audit checks it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Counted:
    """``count`` is ``len(items)``: the record counts the list it carries."""

    name: str
    field: tuple[str, ...]  # the count's possible names
    items: tuple[str, ...]  # the list's possible names

    def _pair(self, record: Mapping[str, Any]) -> tuple[str, int] | None:
        count = next((k for k in self.field if k in record), None)
        items = next((record[k] for k in self.items if isinstance(record.get(k), list)), None)
        value = record.get(count) if count is not None else None
        if count is None or items is None or isinstance(value, bool) or not isinstance(value, int):
            return None
        return count, len(items)

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        pair = self._pair(record)
        if pair is not None:
            record[pair[0]] = pair[1]

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        pair = self._pair(record)
        if pair is not None and record[pair[0]] != pair[1]:
            return f"{self.name}: {pair[0]} is {record[pair[0]]} but the list holds {pair[1]}"
        return None


COUNT_RULES: tuple[Any, ...] = (  # typed as CONTENT_RULES is: rules of their own shape
    Counted("a poem's line count is its lines", ("linecount", "line_count", "lineCount", "lines_count"), ("lines",)),
)
