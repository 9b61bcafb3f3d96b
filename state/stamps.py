"""The call log's clock and latencies.

Every logged call carries a timestamp and a latency. The timestamp is a reading of the
environment's clock (``ToolEnvironment(clock=...)``; by default ``utc_now``) written by
``datetime.isoformat``: ``2026-11-30T12:00:00.123456+00:00``, without a fraction when the
microseconds are zero. The latency is in milliseconds, to the microsecond.
"""

from __future__ import annotations

import datetime as dt
import time


def utc_now() -> dt.datetime:
    """The wall clock in UTC, to the microsecond: the call log's default clock."""
    return dt.datetime.now(dt.UTC)


def elapsed_ms(started_ns: int) -> float:
    """Milliseconds since ``started_ns`` (a ``perf_counter_ns`` reading), whole microseconds: ``12.345``."""
    return (time.perf_counter_ns() - started_ns) // 1000 / 1000
