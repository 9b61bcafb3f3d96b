"""Numbers that must add up: pages, min/avg/max, market magnitudes; and the audit that holds them."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from env_server import ToolEnvironment
from env_server.simulators import paging
from env_server.specs.audit_numeric import numeric_hits
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)


def test_a_page_of_results_adds_up_and_echoes_the_page_asked(env: ToolEnvironment):
    out = call(env, "guardian_search_content", q="climate", page=3, page_size=5)
    rows = out["results"]
    assert out["current_page"] == 3 and len(rows) <= 5
    assert out["total"] >= 2 * 5 + len(rows)
    assert out["pages"] == math.ceil(out["total"] / 5)
    first = call(env, "guardian_search_content", q="climate")
    assert first["current_page"] == 1 and first["current_page"] <= first["pages"]


def test_summary_statistics_keep_the_average_between_minimum_and_maximum(env: ToolEnvironment):
    out = call(env, "visual_crossing_get_history_summary", location="Tokyo", min_year=2015, max_year=2024)
    for period in out["periods"]:
        assert period["mint"] <= period["temp_avg"] <= period["maxt"]


def test_global_crypto_figures_are_in_trillions_and_shares_stay_under_a_hundred(env: ToolEnvironment):
    out = call(env, "coinmarketcap_get_global_metrics")
    assert 1e12 < out["total_market_cap"] < 1e13
    assert out["total_volume_24h"] < out["total_market_cap"]
    assert 30 < out["btc_dominance"] < 80 and out["btc_dominance"] + out["eth_dominance"] < 100
    coin = call(env, "coingecko_list_coin_markets", vs_currency="usd")["markets"][0]
    assert coin["market_cap"] > 1e9 and coin["total_volume"] < coin["market_cap"]


@given(total=st.integers(0, 10_000), pages=st.integers(0, 500), page=st.integers(1, 50),
       size=st.integers(1, 50), rows=st.integers(0, 50))
@settings(max_examples=80, deadline=None)
def test_enforced_pages_have_no_violations(total: int, pages: int, page: int, size: int, rows: int):
    record: dict[str, Any] = {"total": total, "pages": pages, "current_page": 7, "results": [{}] * min(rows, size)}
    args = {"page": page, "page_size": size}
    paging.page_record(record, args, {k: {"type": "integer"} for k in record})
    assert paging.page_violations(record, args) == []
    assert record["current_page"] == page


def test_the_numeric_audit_names_what_does_not_add_up():
    bad = {"total": 33, "pages": 390, "current_page": 160, "results": [{"a": 1}] * 10,
           "btc_dominance": 89.7, "eth_dominance": 39.9, "humidity": 140,
           "summary": {"min_price": 9.0, "avg_price": 20.0, "max_price": 12.0}}
    details = " | ".join(d for _, d in numeric_hits(bad, {"page_size": 10}))
    for words in ("pages=390", "current_page=160, though the call asked for page 1", "dominance shares add up to 129.6%",
                  "humidity=140", "avg_price=20.0"):
        assert words in details
    short = {"total": 3, "results": [{"a": 1}] * 10}
    assert "total=3 is less than the 10 rows" in numeric_hits(short, {})[0][1]
    table = {"base": "EUR", "rates": [{"currency": "EUR", "value": 4560.49}]}
    fx = " | ".join(d for _, d in numeric_hits(table, {"from": "USD", "to": ["EUR", "CHF"]}, "rate_table"))
    assert "asked for 'USD'" in fx and "against itself" in fx and "leaves out CHF" in fx
    good = {"total": 10, "pages": 1, "current_page": 1, "results": [{"a": 1}] * 10}
    assert numeric_hits(good, {"page_size": 10}) == []
