"""A write's answer records when it happened with the session's "now", whatever the field is called."""

from __future__ import annotations

import datetime as dt

import pytest

from env_server.catalog import Catalog
from env_server.catalog.models import Operation
from env_server.simulators.base import DEFAULT_TODAY
from env_server.simulators.write_stamps import stamp_pattern
from env_server.specs.audit_checks import clock_hits
from tests.env_server.free_play import catalog, ok, session  # noqa: F401  (a fixture)


@pytest.mark.parametrize(("tool", "args", "field"), [
    ("google_keep_create_note", {"title": "Groceries"}, "createTime"),
    ("binance_place_order", {"symbol": "BTCUSDT", "side": "BUY", "type": "MARKET", "quantity": 0.1}, "transactTime"),
    ("gofile_create_folder", {"parent_folder_id": "abc", "folder_name": "Receipts"}, "create_time"),
    ("lyft_request_ride", {"ride_type": "lyft", "origin": {"lat": 37.77, "lng": -122.42}}, "requested_at"),
])
def test_a_create_stamps_its_creation_with_the_session_today(catalog: Catalog, tool, args, field):
    made = ok(session(catalog, tool), tool, **args)
    assert made[field].startswith(DEFAULT_TODAY.isoformat())


def test_merging_a_merge_request_stamps_merged_at_now(catalog: Catalog):
    made = ok(session(catalog, "gitlab_merge_merge_request"), "gitlab_merge_merge_request", project_id="42",
              merge_request_iid=7)
    assert made["merged_at"].startswith(DEFAULT_TODAY.isoformat())


def test_an_action_named_write_stamps_the_field_of_its_action():
    merge = stamp_pattern("gitlab_merge_merge_request", Operation.UPDATE)
    close = stamp_pattern("github_close_issue", Operation.UPDATE)
    assert merge is not None and merge.match("merged_at") and merge.match("updated_at")
    assert close is not None and close.match("closed_at") and not close.match("merged_at")
    assert stamp_pattern("github_get_issue", Operation.READ) is None
    created = stamp_pattern("google_keep_create_note", Operation.CREATE)
    assert created is not None and all(created.match(f) for f in ("create_time", "transact_time", "timestampms"))


def test_the_audit_reports_a_write_stamp_off_the_session_today():
    today = dt.date(2026, 12, 7)
    stamps = stamp_pattern("google_keep_create_note", Operation.CREATE)
    late = {"createTime": "2026-12-29T05:45:00Z", "title": "x"}
    assert [path for path, _ in clock_hits(late, today, created=True, stamps=stamps)] == ["$.createTime"]
    assert clock_hits({"createTime": "2026-12-07T09:00:00Z"}, today, created=True, stamps=stamps) == []
