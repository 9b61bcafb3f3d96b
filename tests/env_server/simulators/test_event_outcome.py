"""An event's outcome agrees with its date: a launch to come is Go/TBD/TBC, one held succeeded
or failed; an ``upcoming`` flag says whether the date is after now."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from env_server.catalog import Catalog
from env_server.simulators.event_outcome import outcome_step
from env_server.simulators.rng import SimRandom
from env_server.simulators.timeline import moment
from tests.env_server.free_play import catalog, ok, session  # noqa: F401  (a fixture)

_LAUNCH_STATUSES = ["Go", "TBD", "TBC", "Success", "Failure", "Partial Failure", "Hold", "In Flight"]
_LAUNCH = {"net": {"type": "string", "format": "date-time"}, "status": {"type": "string", "enum": _LAUNCH_STATUSES}}
_NOW = dt.datetime(2026, 12, 7, 9, 0)


@settings(max_examples=60, deadline=None)
@given(st.integers(-400, 400), st.sampled_from(_LAUNCH_STATUSES), st.integers(0, 1 << 30))
def test_a_launch_status_agrees_with_whether_its_date_is_past(days, drawn, seed):
    step = outcome_step(_LAUNCH)
    assert step is not None
    net = _NOW + dt.timedelta(days=days, hours=3)
    record: dict[str, Any] = {"net": net.strftime("%Y-%m-%dT%H:%M:%SZ"), "status": drawn}
    step(record, SimpleNamespace(now=_NOW, rng=SimRandom(seed)), None)  # type: ignore[arg-type]
    if net > _NOW:
        assert record["status"] in {"Go", "TBD", "TBC", "Hold"}
    else:
        assert record["status"] in {"Success", "Failure", "Partial Failure", "In Flight"}


def test_a_status_enum_without_outcomes_gets_no_step():
    plain = {"date": {"type": "string", "format": "date"}, "status": {"type": "string", "enum": ["open", "closed"]}}
    assert outcome_step(plain) is None


def test_upcoming_launches_listed_are_not_already_a_success(catalog: Catalog):
    tool = "launchlibrary_list_upcoming_launches"
    env = session(catalog, tool)
    rows = ok(env, tool)["results"]
    assert rows
    for row in rows:
        when = moment(row["net"])
        assert when is not None
        assert (row["status"] in {"Go", "TBD", "TBC", "Hold"}) == (when > dt.datetime(2026, 1, 15, 9))


def test_a_spacex_launch_is_upcoming_exactly_when_its_date_is_after_now(catalog: Catalog):
    tool = "spacex_query_launches"
    for doc in ok(session(catalog, tool), tool)["docs"]:
        when = moment(doc["date_utc"])
        assert when is not None
        assert doc["upcoming"] == (when > dt.datetime(2026, 1, 15, 9))
        assert not doc["upcoming"] or "success" not in doc
