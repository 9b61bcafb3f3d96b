"""The audit's time checks on hand-made answers, and the time rules they share with the generator."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.simulators import timeline
from env_server.specs.audit import audit_catalog
from env_server.specs.audit_checks import CheckKind
from env_server.specs.samples import sample_arguments
from env_server.specs.time_checks import (
    order_hits,
    past_hits,
    period_hits,
    series_hits,
    time_hits,
    window_hits,
    zone_hits,
)
from state import Database

TODAY = dt.date(2026, 1, 15)
NOW = dt.datetime(2026, 1, 15, 9, 0)


def test_an_end_before_its_start_is_a_finding_whatever_the_names():
    assert order_hits({"start_date": "2026-01-10", "end_date": "2026-01-09"})
    assert order_hits({"items": [{"startTime": "2026-01-10T10:00:00Z", "endTime": "2026-01-10T09:00:00Z"}]})
    assert order_hits({"first_seen": "2025-03-01", "last_seen": "2024-11-01"})
    assert order_hits({"min_year": 2020, "max_year": 2010})
    assert order_hits({"sunrise": "2026-01-15T07:00:00Z", "sunset": "2026-01-14T16:00:00Z"})
    assert not order_hits({"created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-02T00:00:00Z"})
    assert not order_hits({"from": "USD", "to": "EUR"})  # a currency pair is no interval


def test_a_series_outside_the_requested_window_is_a_finding():
    args = {"start_date": "2026-01-05", "end_date": "2026-01-06"}
    assert window_hits({"daily": [{"date": "2026-01-05"}, {"date": "2026-01-07"}]}, args)
    assert not window_hits({"daily": [{"date": "2026-01-05"}, {"date": "2026-01-06"}]}, args)
    assert window_hits({"periods": [{"year": 1999}]}, {"min_year": 2006, "max_year": 2026})
    assert window_hits({"events": [{"start_time": "2026-03-01T10:00:00Z"}]}, {"timeMin": "2026-01-01T00:00:00Z",
                                                                            "timeMax": "2026-02-01T00:00:00Z"})


def test_what_happened_after_today_is_a_finding_but_fiction_years_are_not():
    assert past_hits({"published_date": "2026-02-01T10:00:00Z"}, TODAY)
    assert past_hits({"created_time": 1800000000}, TODAY)  # Unix seconds: 2027
    assert not past_hits({"created_at": "2026-01-15T08:00:00Z", "expires_at": "2027-01-01"}, TODAY)
    assert not past_hits({"yearOfBirth": 2233}, TODAY)  # James T. Kirk


def test_series_that_go_back_and_forth_and_tides_off_the_lunar_beat_are_findings():
    assert series_hits({"d": [{"date": "2026-01-02"}, {"date": "2026-01-01"}, {"date": "2026-01-03"}]})
    assert not series_hits({"d": [{"date": "2026-01-03"}, {"date": "2026-01-02"}, {"date": "2026-01-01"}]})
    daily_highs = [{"time": f"2026-01-1{i}T12:00:00Z", "type": "high"} for i in range(3)]
    assert len(series_hits({"data": daily_highs})) == 2
    start = dt.datetime(2026, 1, 15, 3, 10)
    tides = [{"time": (start + timeline.TIDE_STEP * i).strftime("%Y-%m-%dT%H:%M:00Z"), "type": ("high", "low")[i % 2]}
             for i in range(4)]
    assert not series_hits({"data": tides})


def test_offsets_dst_flags_and_local_times_must_match_the_zone():
    good = {"ianaTimeId": "Asia/Seoul", "utcOffset": "+09:00", "utcOffsetSeconds": 32400,
            "isDaylightSavingTime": False, "localTime": "2026-01-15T18:00:00+09:00"}
    assert not zone_hits(good, NOW)
    assert zone_hits({**good, "utcOffsetSeconds": 5480}, NOW)
    assert zone_hits({**good, "isDaylightSavingTime": True}, NOW)
    assert zone_hits({**good, "localTime": "2026-01-15T09:00:00Z"}, NOW)
    assert zone_hits({"tz_id": "Asia/Tokyo", "localtime": "2026-01-15 02:00"}, NOW)
    assert not zone_hits({"timeZoneId": "America/New_York", "rawOffset": -18000, "dstOffset": 0}, NOW)
    assert zone_hits({"timeZoneId": "America/New_York", "rawOffset": -14400, "dstOffset": 0}, NOW)


def test_a_period_labelled_with_another_year_is_a_finding():
    assert period_hits({"periods": [{"period": "1997", "year": 1999}]})
    assert not period_hits({"periods": [{"period": "2019-03", "year": 2019}]})


@given(start=st.datetimes(dt.datetime(2020, 1, 1), dt.datetime(2026, 1, 14)),
       back=st.timedeltas(dt.timedelta(0), dt.timedelta(days=900)),
       names=st.sampled_from([("start", "end"), ("created_at", "closed_at"), ("startDate", "endDate"),
                              ("first_seen", "last_seen"), ("departure_time", "arrival_time")]),
       form=st.sampled_from(["date", "iso", "unix"]))
@settings(max_examples=120, deadline=None)
def test_ordering_moves_every_end_after_its_start_in_the_fields_own_format(start, back, names, form):
    first, last = names
    end = start - back

    def written(when: dt.datetime) -> object:
        if form == "date":
            return when.date().isoformat()
        if form == "unix":
            return int(when.replace(tzinfo=dt.UTC).timestamp())
        return when.strftime("%Y-%m-%dT%H:%M:%SZ")

    record = {first: written(start), last: written(end)}
    if form == "unix":
        record = {f"{first}_ts": record[first], f"{last}_ts": record[last]}
    timeline.order_times(record, timeline.pairs(record), NOW)
    assert not order_hits(record)
    assert type(record[next(iter(record))]) is type(record[list(record)[1]])  # the format is kept
    if timeline.is_past_field(list(record)[1]) or timeline.end_is_past(list(record)[1]):
        assert not past_hits(record, TODAY)


def test_sampled_windows_start_before_they_end():
    catalog = load_catalog()
    for name in ("visual_crossing_get_history_summary", "currencylayer_get_timeframe", "fred_get_series_observations"):
        spec = catalog.tools[name]
        for variant in range(4):
            assert not order_hits(sample_arguments(spec, variant)), (name, variant)


def test_the_audit_files_time_findings_under_their_own_check():
    catalog = load_catalog()
    report = audit_catalog(catalog, ["bigdatacloud_get_timezone_by_location", "storm_glass_list_tide_extremes",
                                     "visual_crossing_get_history_summary", "github_get_issue"], quiet=True)
    assert CheckKind.TIME.value in report.totals and report.totals[CheckKind.TIME.value] == 0
    assert time_hits({"start": "2026-01-02", "end": "2026-01-01"}, {}, TODAY, NOW)


@pytest.mark.parametrize("name", ["creationDate", "web_publication_date", "registration_date", "closed_at",
                                  "merged_at", "upload_time"])
def test_the_noun_of_a_past_event_names_a_past_field(name):
    assert timeline.is_past_field(name)
    assert past_hits({name: "2027-01-02T12:45:00Z"}, TODAY)


def test_a_return_created_and_an_article_published_lie_before_today():
    catalog = load_catalog()
    env = ToolEnvironment(catalog, Database(), ServerSettings())
    tools = ["ebaypostorder_search_returns", "guardian_search_content"]
    for seed in range(6):
        env.create_session(tools=tools, session_id=f"s{seed}", seed=seed, today=TODAY)
        returns = env.call_tool(f"s{seed}", tools[0], {}).result["members"]
        articles = env.call_tool(f"s{seed}", tools[1], {}).result["results"]
        assert max(r["creationDate"] for r in returns)[:10] <= TODAY.isoformat()
        assert max(a["web_publication_date"] for a in articles)[:10] <= TODAY.isoformat()
