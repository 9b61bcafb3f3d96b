"""Invariants that bind a record's fields (``simulators/invariants.py``)."""

from __future__ import annotations

from env_server.environment import ToolEnvironment
from env_server.simulators import invariants
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)


def test_a_message_whose_thread_seems_to_start_later_becomes_its_threads_parent():
    record = {"ts": "1765909499.658089", "thread_ts": "1767501905.281163"}
    invariants.enforce(record, {}, invariants.rules_for(record))
    assert record["thread_ts"] == "1765909499.658089"
    assert invariants.violations(record, {}) == []


def test_a_reply_keeps_a_thread_ts_before_its_own_ts():
    record = {"ts": "1767501905.281163", "thread_ts": "1765909499.658089"}
    invariants.enforce(record, {}, invariants.rules_for(record))
    assert record["thread_ts"] == "1765909499.658089"


def test_the_audit_reports_a_thread_ts_after_the_messages_ts():
    broken = {"ts": "1765909499.658089", "thread_ts": "1767501905.281163"}
    assert any("thread" in v for v in invariants.violations(broken, {}))


def test_slack_history_never_shows_a_thread_starting_after_its_message(env: ToolEnvironment):
    for channel in ("C0123ABCDEF", "C0999ZZZZZZ", "CGENERAL01"):
        for message in call(env, "slack_get_conversation_history", channel=channel)["messages"]:
            if "thread_ts" in message:
                assert message["thread_ts"] <= message["ts"], message
