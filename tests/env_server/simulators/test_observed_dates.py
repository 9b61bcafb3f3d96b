"""Observed data (a time series, a data table's rows, what a data set holds) is dated no later
than the session's today: nothing is observed in the future."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from env_server.catalog import Catalog
from env_server.simulators.base import DEFAULT_TODAY
from env_server.simulators.timeline import moment
from tests.env_server.free_play import catalog, ok, session  # noqa: F401  (a fixture)


def _moments(value: Any, path: str = "$") -> list[tuple[str, dt.datetime]]:
    if isinstance(value, dict):
        return [m for k, v in value.items() for m in _moments(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [m for i, v in enumerate(value) for m in _moments(v, f"{path}[{i}]")]
    when = moment(value) if isinstance(value, str) else None
    return [(path, when)] if when is not None else []


_OBSERVED = [
    ("nasdaqdatalink_query_datatable", {"datatable_code": "SHARADAR/SF1"}, "date"),
    ("nasdaqdatalink_query_datatable", {"datatable_code": "SHARADAR/SF1", "date_gte": (DEFAULT_TODAY - dt.timedelta(days=20)).isoformat()}, "date"),
    ("nasdaqdatalink_get_time_series", {"database_code": "FRED", "dataset_code": "GDP"}, "date"),
    ("nasdaqdatalink_get_dataset_metadata", {"database_code": "FRED", "dataset_code": "GDP"}, "available"),
    ("nasdaqdatalink_search_datasets", {"query": "crude oil price"}, "available"),
    ("fred_get_series_observations", {"series_id": "UNRATE"}, "].date"),
    ("messari_get_metric_timeseries", {"assetKey": "bitcoin", "metric_id": "fees"}, "timestamp"),
    ("usgswater_get_daily_values", {"sites": ["01646500"]}, "date"),
]


@pytest.mark.parametrize(("tool", "args", "field"), _OBSERVED, ids=[f"{t}-{len(a)}" for t, a, _ in _OBSERVED])
def test_observed_data_is_dated_no_later_than_today(catalog: Catalog, tool, args, field):
    found = [(path, when) for path, when in _moments(ok(session(catalog, tool), tool, **args)) if field in path]
    assert found, "the answer holds dates of observed data"
    late = [(path, when) for path, when in found if when.date() > DEFAULT_TODAY]
    assert late == []


def test_a_series_from_a_start_date_runs_up_to_today_not_past_it(catalog: Catalog):
    start = (DEFAULT_TODAY - dt.timedelta(days=2)).isoformat()
    rows = ok(session(catalog, "nasdaqdatalink_query_datatable"), "nasdaqdatalink_query_datatable",
              datatable_code="SHARADAR/SF1", date_gte=start)["rows"]
    days = [row["date"] for row in rows]
    assert days and days[0] >= start and max(days) <= DEFAULT_TODAY.isoformat()
