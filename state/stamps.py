"""Call-log timestamps and latencies as text, without datetime or float formatting.

Every logged call carries a UTC timestamp and a latency. ``datetime.now(utc).isoformat()``
and ``round(seconds * 1000, 3)`` cost little in a hot loop, but a server reaches them with
cold caches after the HTTP stack has run, and there each goes through a large, rarely
used stretch of C (datetime formatting, the float-to-decimal code): ~30 us a call together,
measured. Here a timestamp reuses the text of its second and appends the microseconds as
integer text, and a latency is decimal text in milliseconds, exact to the microsecond,
which DuckDB casts to the ``DOUBLE`` column on insert.
"""

from __future__ import annotations

import time

_second: tuple[int, str] = (-1, "")  # (epoch second, its "YYYY-MM-DDTHH:MM:SS"); swapped whole


def iso_from_ns(ns: int) -> str:
    """``datetime.fromtimestamp(ns / 1e9, timezone.utc).isoformat()``, truncated to the
    microsecond: ``2026-11-30T12:00:00.123456+00:00`` (no fraction when it is zero)."""
    global _second
    sec, rest = divmod(ns, 1_000_000_000)
    cached, text = _second
    if sec != cached:
        text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(sec))
        _second = (sec, text)
    micros = rest // 1000
    if not micros:
        return text + "+00:00"
    return text + "." + str(1_000_000 + micros)[1:] + "+00:00"


def utc_now_iso() -> str:
    """The wall clock as ``iso_from_ns`` text: the call log's default timestamp."""
    return iso_from_ns(time.time_ns())


def elapsed_ms_text(started_ns: int) -> str:
    """Milliseconds since ``started_ns`` (a ``perf_counter_ns`` reading) as ``"12.345"``."""
    micros = (time.perf_counter_ns() - started_ns) // 1000
    ms, frac = divmod(micros, 1000)
    return str(ms) + "." + str(1000 + frac)[1:]
