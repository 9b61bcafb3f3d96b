from __future__ import annotations

import datetime as dt
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database
from state.stamps import elapsed_ms_text, iso_from_ns, utc_now_iso
from state.store import Durability

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


@given(st.integers(0, 4_102_444_800 * 10**9))  # up to 2100
def test_timestamps_read_like_datetime_isoformat(ns):
    expected = (EPOCH + dt.timedelta(microseconds=ns // 1000)).isoformat()
    assert iso_from_ns(ns) == expected
    assert iso_from_ns(ns + 1) == (EPOCH + dt.timedelta(microseconds=(ns + 1) // 1000)).isoformat()


def test_a_whole_second_has_no_fraction_and_the_cached_second_moves_on():
    assert iso_from_ns(1_700_000_000 * 10**9) == "2023-11-14T22:13:20+00:00"
    assert iso_from_ns(1_700_000_000 * 10**9 + 5_000) == "2023-11-14T22:13:20.000005+00:00"
    assert iso_from_ns(1_700_000_001 * 10**9 + 999_999_999) == "2023-11-14T22:13:21.999999+00:00"


def test_the_default_timestamp_is_now():
    before = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
    stamp = dt.datetime.fromisoformat(utc_now_iso())
    assert before <= stamp <= dt.datetime.now(dt.UTC)


def test_latency_text_is_milliseconds_to_the_microsecond():
    started = time.perf_counter_ns() - 12_345_678
    text = elapsed_ms_text(started)
    whole, frac = text.split(".")
    assert len(frac) == 3 and 12.345 <= float(text) < 1000
    assert elapsed_ms_text(time.perf_counter_ns()).startswith("0.")


@pytest.mark.parametrize("durability", [Durability.PER_CALL, Durability.JOURNAL])
def test_logged_latency_and_timestamp_come_back_typed(builtin_catalog, tmp_path, durability):
    # Bound parameters (one call) and bulk documents (many calls) both cast the latency text.
    env = ToolEnvironment(builtin_catalog, Database(tmp_path / "log.duckdb"), ServerSettings(durability=durability))
    for i in range(20):
        env.call_tool("free", "openmeteo_get_air_quality", {"latitude": 1.0 + i, "longitude": 2.0})
    calls = env.calls("free")
    assert len(calls) == 20
    assert all(isinstance(c.latency_ms, float) and 0 <= c.latency_ms < 10_000 for c in calls)
    assert all(dt.datetime.fromisoformat(c.ts).tzinfo is not None for c in calls)
    env.close()
