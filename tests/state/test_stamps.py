from __future__ import annotations

import datetime as dt
import time

import pytest

from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database
from state.stamps import elapsed_ms, utc_now
from state.store import Durability


def test_the_default_clock_is_now_in_utc():
    before = dt.datetime.now(dt.UTC)
    now = utc_now()
    assert before <= now <= dt.datetime.now(dt.UTC) and now.utcoffset() == dt.timedelta(0)


def test_latency_is_milliseconds_in_whole_microseconds():
    started = time.perf_counter_ns() - 12_345_678
    latency = elapsed_ms(started)
    assert 12.345 <= latency < 1000
    assert latency == round(latency, 3)  # no part of a microsecond
    assert 0 <= elapsed_ms(time.perf_counter_ns()) < 1


def test_the_log_records_the_injected_clock_as_isoformat_text(builtin_catalog, tmp_path):
    readings = iter([dt.datetime(2026, 11, 30, 12, 0, 0, 123456, dt.UTC), dt.datetime(2026, 11, 30, 12, 0, 1, 0, dt.UTC)])
    env = ToolEnvironment(builtin_catalog, Database(tmp_path / "clock.duckdb"), clock=lambda: next(readings))
    for i in range(2):
        env.call_tool("free", "openmeteo_get_air_quality", {"latitude": 1.0 + i, "longitude": 2.0})
    assert [c.ts for c in env.calls("free")] == ["2026-11-30T12:00:00.123456+00:00", "2026-11-30T12:00:01+00:00"]
    env.close()


@pytest.mark.parametrize("durability", [Durability.PER_CALL, Durability.JOURNAL])
def test_logged_latency_and_timestamp_come_back_typed(builtin_catalog, tmp_path, durability):
    # Bound parameters (one call) and bulk documents (many calls) both carry the latency.
    env = ToolEnvironment(builtin_catalog, Database(tmp_path / "log.duckdb"), ServerSettings(durability=durability))
    for i in range(20):
        env.call_tool("free", "openmeteo_get_air_quality", {"latitude": 1.0 + i, "longitude": 2.0})
    calls = env.calls("free")
    assert len(calls) == 20
    assert all(isinstance(c.latency_ms, float) and 0 <= c.latency_ms < 10_000 for c in calls)
    assert all(c.latency_ms == round(c.latency_ms, 3) for c in calls)
    assert all(dt.datetime.fromisoformat(c.ts).tzinfo is not None for c in calls)
    env.close()
