"""Exchange-rate answers agree with the question and with the session market."""

from __future__ import annotations

import datetime as dt

import pytest

from env_server import ToolEnvironment
from env_server.catalog import load_catalog
from env_server.simulators.fx import ECB_SET, MAJORS
from env_server.simulators.market import SessionMarket, default_table
from env_server.specs.samples import sample_arguments
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)

TODAY = dt.date(2026, 1, 15)


def market(env: ToolEnvironment) -> SessionMarket:
    return SessionMarket(default_table(), env.settings.seed)


def test_a_rate_table_answers_for_the_base_and_exactly_the_targets_asked(env: ToolEnvironment):
    out = call(env, "frankfurter_get_latest", **{"from": "USD", "to": ["EUR", "CHF"], "amount": 500})
    assert out["base"] == "USD"
    assert [r["currency"] for r in out["rates"]] == ["EUR", "CHF"]
    for row in out["rates"]:
        want = market(env).rate("USD", row["currency"], TODAY) * 500  # type: ignore[operator]
        assert row["value"] == pytest.approx(want, abs=0.01)


def test_a_rate_table_without_a_base_uses_the_apis_default_and_lists_the_majors(env: ToolEnvironment):
    out = call(env, "frankfurter_get_latest")
    assert out["base"] == "EUR"  # the spec's default for "from"
    codes = [r["currency"] for r in out["rates"]]
    assert codes == [c for c in MAJORS if c != "EUR"]
    assert 1.0 < next(r["value"] for r in out["rates"] if r["currency"] == "USD") < 1.3


def test_converting_agrees_with_a_rate_lookup_in_the_same_session(env: ToolEnvironment):
    rate = call(env, "currencyapi_get_pair_rate", base="GBP", target="JPY")["rate"]
    conv = call(env, "fixer_convert_currency", **{"from": "GBP", "to": "JPY", "amount": 40})
    assert conv["rate"] == pytest.approx(rate, rel=1e-4)
    assert conv["result"] == pytest.approx(40 * rate, abs=0.02)
    assert 150 < rate < 260  # yen per pound


def test_a_historical_day_gives_a_slightly_different_rate(env: ToolEnvironment):
    today = call(env, "fixer_get_latest_rates", base="EUR", symbols=["USD"])["rates"][0]["rate"]
    past = call(env, "fixer_get_historical_rates", date="2025-09-01", base="EUR", symbols=["USD"])["rates"][0]["rate"]
    assert past != today and abs(past / today - 1) < 0.15


def test_pairs_series_and_fluctuations_follow_the_market(env: ToolEnvironment):
    quotes = call(env, "currencylayer_get_live_quotes", source="USD", currencies=["CAD", "JPY"])["quotes"]
    assert [q["pair"] for q in quotes] == ["USDCAD", "USDJPY"]
    series = call(env, "frankfurter_get_time_series", **{"from": "GBP", "to": ["EUR"], "start_date": "2026-01-10"})
    assert [r["date"] for r in series["series"]] == [f"2026-01-{d}" for d in range(10, 16)]
    moves = call(env, "fixer_get_fluctuation", base="EUR", symbols=["USD"], start_date="2025-12-01",
                 end_date="2026-01-10")["rates"][0]
    assert moves["change"] == pytest.approx(moves["end_rate"] - moves["start_rate"], abs=1e-5)
    assert moves["change_pct"] == pytest.approx(moves["change"] / moves["start_rate"] * 100, abs=1e-3)
    spot = call(env, "coinbase_get_spot_price", currency_pair="BTC-USD")
    assert spot["base"] == "BTC" and spot["currency"] == "USD" and spot["amount"] > 10_000


def test_sample_arguments_name_real_currencies():
    catalog = load_catalog()
    args = sample_arguments(catalog.tools["currencylayer_convert_amount"], 0)
    assert args["from"] in ECB_SET and args["to"] in ECB_SET and args["from"] != args["to"]
