"""Usage records: a use within its limit, the rest remaining; a withdrawal fee under its
minimum size (``simulators/usage_rules.py``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from env_server.simulators import invariants
from env_server.simulators.usage_rules import FeeBelowMinimum, UsageWithinLimit

_COUNT = st.integers(0, 10**9)


@given(requests=_COUNT, limit=_COUNT, bytes_=_COUNT, bytes_limit=_COUNT)
def test_a_days_requests_and_bytes_are_within_their_daily_limits(requests, limit, bytes_, bytes_limit):
    record = {"requests": requests, "bytes": bytes_, "daily_requests_limit": limit, "daily_bytes_limit": bytes_limit}
    invariants.enforce(record, {}, invariants.rules_for(record))
    assert record["requests"] <= record["daily_requests_limit"]
    assert record["bytes"] <= record["daily_bytes_limit"]
    assert invariants.violations(record, {}) == []


@given(used=_COUNT, limit=_COUNT, left=_COUNT)
def test_what_remains_is_the_limit_less_the_use(used, limit, left):
    record = {"api_calls_used": used, "api_calls_limit": limit, "api_calls_remaining": left}
    invariants.enforce(record, {}, invariants.rules_for(record))
    assert record["api_calls_remaining"] == record["api_calls_limit"] - record["api_calls_used"] >= 0


def test_the_audit_reports_bytes_above_the_daily_limit():
    assert UsageWithinLimit().violation({"bytes": 254, "daily_bytes_limit": 149}, {}) is not None
    assert UsageWithinLimit().violation({"max_temp": 30, "temp": 31}, {}) is None  # a temperature is no use


@given(size=st.floats(0.01, 10**6), fee=st.floats(0, 10**6))
def test_a_withdrawal_fee_is_below_its_minimum_size(size, fee):
    record = {"withdrawMinSize": round(size, 2), "withdrawMinFee": round(fee, 2)}
    invariants.enforce(record, {}, invariants.rules_for(record))
    assert record["withdrawMinFee"] < record["withdrawMinSize"] or record["withdrawMinSize"] <= 0
    assert FeeBelowMinimum().violation(record, {}) is None
