"""The simulator interface: what a simulator receives and returns.

A simulator is a pure function of (spec, arguments, context). ``SimContext`` injects
everything that could otherwise leak nondeterminism: the session seed, the session's
"current date", and (from the world-state layer) a handle on the session's rows.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

DEFAULT_TODAY = dt.date(2026, 1, 15)
# The session clock: a session's day starts at 09:00 UTC, and each write moves it on.
DAY_START = dt.time(9, 0)
MINUTES_PER_WRITE = 7


def session_now(today: dt.date, writes: int) -> dt.datetime:
    """The session's "now" after ``writes`` writes: deterministic, never wall time."""
    return dt.datetime.combine(today, DAY_START) + dt.timedelta(minutes=MINUTES_PER_WRITE * writes)


@dataclass(frozen=True, kw_only=True)
class SimContext:
    """Per-call injected context. ``state`` stays None for stateless simulation."""

    session_id: str = "free"
    seed: int = 0
    today: dt.date = DEFAULT_TODAY
    state: Any = None
    # The session clock's "now" (see ``session_now``); None means the start of ``today``.
    now: dt.datetime | None = None
    # The call's arguments as canonical JSON, when the caller encoded them already (the
    # environment does, for its log): the call seed then reuses them instead of re-encoding.
    args_json: str | None = None
    # Compiled generation plans (``plans.PlanCache``), kept by the schemas' owner: the
    # environment passes its catalog's; an ad-hoc caller its own, or a fresh one per call.
    plans: dict[Any, Any] = field(default_factory=dict)
    # Validators of container values (``rows.ValidatorCache``), kept the same way.
    validators: dict[Any, Any] = field(default_factory=dict)
