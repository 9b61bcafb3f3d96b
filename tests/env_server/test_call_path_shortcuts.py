"""Work the call path reads off once (per tool) or skips (per call) answers as the long way did."""

from __future__ import annotations

import datetime as dt

from env_server.catalog.models import Operation
from env_server.simulators import timeline
from env_server.simulators.generic import _reports_current


def test_a_call_window_needs_an_argument_long_enough_to_hold_a_date():
    assert timeline.window({"city": "Paris", "limit": 10, "flag": True}) == (None, None)
    assert timeline.window({}) == (None, None)
    assert timeline.window({"date": "2026-01"}) == (None, None)  # nine characters: no day
    day = dt.date(2026, 3, 2)
    assert timeline.window({"startDate": "2026-03-02", "endDate": "2026-03-05"}) == (day, dt.date(2026, 3, 5))
    assert timeline.window({"since": "2026-03-02T10:00:00Z", "city": "Rome"}) == (day, None)
    assert timeline.window({"to_date": "2026-03-02", "q": "x"}) == (None, day)


def test_a_tool_reports_current_data_by_its_name_and_operation():
    assert _reports_current("getRealtimeCityAQI", Operation.READ)
    assert _reports_current("latest_rates", Operation.ACTION)
    assert not _reports_current("getRealtimeCityAQI", Operation.SEARCH)
    assert not _reports_current("current_price_history", Operation.READ)  # "histor" wins
    assert not _reports_current("get_city", Operation.READ)
