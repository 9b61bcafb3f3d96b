"""Recovery from injected faults: the share of faulted calls the agent made good.

A call answered by an injected fault (``env_server.faults``) is never judged. It counts as
*recovered* when a later call in the same task, to the same tool with the same arguments (equal
as canonical JSON: key order and spacing do not matter), succeeded: it ran and answered without
an error. Several faults of one call (a retry that faulted again) are all recovered by the one
success that follows them. Live results (``SessionResult``) and offline scoring of a run
directory (``metrics.json`` ``fault_recovery``, ``report.html``) both count with :func:`recovery_of`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class CallTrace:
    """One call as recovery sees it."""

    task: int
    name: str
    arguments: str  # canonical JSON (``canonical_arguments``)
    fault: str | None  # the injected fault's code, None when the call was not faulted
    ok: bool  # ran and answered without an error


def canonical_arguments(arguments: Any) -> str:
    """Arguments (an object, or its JSON text) as canonical JSON; text that is not JSON stays as is."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except ValueError:
            return arguments
    return json.dumps(arguments, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


@dataclass
class Recovery:
    """Faulted and recovered call counts, in total and per fault code."""

    faulted: int = 0
    recovered: int = 0
    by_code: dict[str, list[int]] = field(default_factory=dict)  # code -> [faulted, recovered]

    @property
    def rate(self) -> float | None:
        """recovered / faulted; None when no call faulted."""
        return self.recovered / self.faulted if self.faulted else None

    def add(self, code: str, recovered: bool) -> None:
        cell = self.by_code.setdefault(code, [0, 0])
        cell[0] += 1
        cell[1] += int(recovered)
        self.faulted += 1
        self.recovered += int(recovered)

    def merge(self, other: Recovery) -> None:
        for code, (faulted, recovered) in other.by_code.items():
            cell = self.by_code.setdefault(code, [0, 0])
            cell[0] += faulted
            cell[1] += recovered
        self.faulted += other.faulted
        self.recovered += other.recovered

    def as_dict(self) -> dict[str, Any]:
        return {
            "faulted_calls": self.faulted,
            "recovered": self.recovered,
            "recovery": self.rate,
            "by_code": {code: {"faulted": f, "recovered": r, "recovery": r / f if f else None}
                        for code, (f, r) in sorted(self.by_code.items())},
        }


def recovery_of(calls: Sequence[CallTrace]) -> Recovery:
    """Count the faulted calls of one session (calls in order) and those recovered."""
    out = Recovery()
    for i, call in enumerate(calls):
        if call.fault is None:
            continue
        later = (c for c in calls[i + 1:] if c.task == call.task)
        out.add(call.fault, any(c.ok and c.fault is None and c.name == call.name and c.arguments == call.arguments
                                for c in later))
    return out


def total_recovery(per_session: Mapping[str, Recovery] | Iterable[Recovery]) -> Recovery:
    """The sum over sessions."""
    items = per_session.values() if isinstance(per_session, Mapping) else per_session
    total = Recovery()
    for item in items:
        total.merge(item)
    return total
