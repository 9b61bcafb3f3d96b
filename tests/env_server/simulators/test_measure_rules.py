"""Units that convert, parts within wholes, labels that count (``simulators/measure_rules.py``)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from env_server.simulators import invariants
from env_server.simulators.measure_rules import EpisodeRuntime, EuVatOnly, IndicatorCounts, WeiIsEther, eu_members


@given(ether=st.floats(0, 1e6).map(lambda v: round(v, 4)), wei=st.integers(0, 10**9).map(str))
def test_a_wei_balance_is_an_integer_string_of_the_ether_times_10_to_the_18(ether, wei):
    record = {"result_wei": wei, "balance_eth": ether}
    invariants.enforce(record, {}, invariants.rules_for(record))
    assert record["result_wei"].isdigit()
    assert Decimal(record["result_wei"]) / Decimal(10) ** 18 == Decimal(repr(ether))
    assert invariants.violations(record, {}) == []


def test_the_audit_reports_wei_that_disagree_with_the_ether():
    assert WeiIsEther().violation({"result_wei": "108", "balance_eth": 1507.87}, {}) is not None


@given(used=st.integers(21000, 10**7), limit=st.integers(21000, 10**7), price=st.integers(10**8, 10**11),
       fee=st.integers(0, 10**18))
def test_gas_used_stays_within_the_limit_and_the_fee_is_used_times_price(used, limit, price, fee):
    record = {"gasUsed": used, "gas": limit, "gasPrice": price, "txFee": fee}
    invariants.enforce(record, {}, invariants.rules_for(record))
    assert record["gasUsed"] <= record["gas"]
    assert record["txFee"] == record["gasUsed"] * record["gasPrice"]
    assert invariants.violations(record, {}) == []


@given(watched=st.integers(0, 500), total=st.integers(1, 500))
def test_watched_episodes_stay_within_the_total(watched, total):
    record = {"watched_episodes_count": watched, "total_episodes_count": total}
    invariants.enforce(record, {}, invariants.rules_for(record))
    assert record["watched_episodes_count"] <= record["total_episodes_count"]
    assert invariants.violations(record, {}) == []


@given(watched=st.integers(0, 100), extra=st.integers(1, 100), percent=st.floats(0, 100))
def test_percent_watched_is_watched_over_total(watched, extra, percent):
    record = {"watched_episodes": watched, "total_episodes": watched + extra, "progress_percent": percent}
    invariants.enforce(record, {}, invariants.rules_for(record))
    assert abs(record["progress_percent"] - watched / (watched + extra) * 100) < 0.051


@given(minutes=st.integers(0, 10_000), subtype=st.sampled_from(["TV", "movie", "OVA", "ONA"]),
       count=st.integers(1, 200), total=st.integers(0, 10**6))
def test_an_anime_runtime_is_realistic_and_its_total_is_episodes_times_length(minutes, subtype, count, total):
    record = {"subtype": subtype, "episodeCount": count, "episodeLength": minutes, "totalLength": total}
    invariants.enforce(record, {}, invariants.rules_for(record))
    low, high = (60, 150) if subtype == "movie" else (20, 30)
    assert low <= record["episodeLength"] <= high
    assert record["totalLength"] == count * record["episodeLength"]
    assert invariants.violations(record, {}) == []


@given(minutes=st.integers(0, 1000))
def test_a_kitsu_episode_length_is_half_an_hour_or_less(minutes):
    record = {"number": 1, "seasonNumber": 2, "airdate": "2025-04-27", "length": minutes}
    invariants.enforce(record, {}, invariants.rules_for(record))
    assert 20 <= record["length"] <= 30
    assert EpisodeRuntime().violation(record, {}) is None


def test_a_length_outside_an_episode_record_is_left_alone():
    record = {"length": 512, "value": "abc"}
    invariants.enforce(record, {}, invariants.rules_for(record))
    assert record["length"] == 512


@given(country=st.sampled_from(["IN", "US", "NO", "CH", "GB", "JP", "FR", "DE", "LU"]),
       rate=st.floats(0.5, 27).map(lambda r: round(r, 1)), amount=st.floats(1, 10_000).map(lambda a: round(a, 2)))
def test_only_an_eu_country_has_an_eu_vat_rate_and_the_gross_price_adds_it(country, rate, amount):
    record = {"country_code": country, "price_excl_vat": 1.0, "price_incl_vat": 1.0, "vat_rate": rate}
    invariants.enforce(record, {"amount": amount}, invariants.rules_for(record))
    if country not in eu_members():
        assert record["vat_rate"] == 0
    assert record["price_excl_vat"] == amount
    want = amount * (1 + record["vat_rate"] / 100)
    assert abs(record["price_incl_vat"] - want) < 0.011
    assert invariants.violations(record, {"amount": amount}) == []


def test_the_audit_reports_an_eu_rate_for_india():
    assert EuVatOnly().violation({"country_code": "IN", "vat_rate": 2.4}, {}) is not None


_CANDIDATE = st.fixed_dictionaries({"address_line": st.sampled_from(["1 Main St", "2 Oak Ave", "3 Elm Rd"])})


@given(indicator=st.sampled_from(["ValidAddress", "AmbiguousAddress", "NoCandidates"]),
       candidates=st.lists(_CANDIDATE, min_size=2, max_size=6))
def test_an_address_indicator_agrees_with_its_candidates(indicator, candidates):
    record = {"indicator": indicator, "candidates": candidates}
    invariants.enforce(record, {}, invariants.rules_for(record))
    want = {"ValidAddress": 1, "NoCandidates": 0}.get(indicator)
    if want is None:
        assert len(record["candidates"]) >= 2
    else:
        assert len(record["candidates"]) == want
    assert IndicatorCounts().violation(record, {}) is None


def test_the_audit_reports_no_candidates_beside_a_list_of_them():
    assert IndicatorCounts().violation({"indicator": "NoCandidates", "candidates": [{"a": 1}]}, {}) is not None


@given(status=st.sampled_from(["completed", "plantowatch", "watching", "hold"]), watched=st.integers(0, 50),
       total=st.integers(1, 50))
def test_a_completed_title_has_watched_everything_and_a_planned_one_nothing(status, watched, total):
    record = {"status": status, "watched_episodes_count": watched, "total_episodes_count": total}
    invariants.enforce(record, {}, invariants.rules_for(record))
    if status == "completed":
        assert record["watched_episodes_count"] == record["total_episodes_count"]
    if status == "plantowatch":
        assert record["watched_episodes_count"] == 0
    assert record["watched_episodes_count"] <= record["total_episodes_count"]
    assert invariants.violations(record, {}) == []
