"""A crypto tool's symbols, names and balances are coins; a stock tool's are stocks."""

from __future__ import annotations

from env_server.catalog import Catalog
from env_server.simulators.market import MarketTable, market_domain
from tests.env_server.free_play import catalog, ok, session  # noqa: F401  (a fixture)

_TABLE = MarketTable()


def _kind(symbol: str) -> str | None:
    fact = _TABLE.find(symbol)
    return fact.kind if fact is not None else None


def test_a_tool_market_follows_its_category_then_its_words():
    assert market_domain("Cryptocurrency", "KuCoin", "Withdrawal history of the account") == "crypto"
    assert market_domain("Finance", "Acme", "Quotes for a stock ticker on NASDAQ") == "stock"
    assert market_domain("Other", "x", "Technical indicators for a specified cryptocurrency") == "crypto"
    assert market_domain("Finance", "Alpaca", "Orders for stocks and crypto") == ""


def test_a_crypto_exchange_lists_coins_where_no_call_names_one(catalog: Catalog):
    withdrawals = ok(session(catalog, "kucoin_list_withdrawals"), "kucoin_list_withdrawals")["items"]
    assert withdrawals and all(_kind(w["currency"]) == "crypto" for w in withdrawals)
    balances = ok(session(catalog, "binance_get_account_balances"), "binance_get_account_balances")["balances"]
    assert balances and all(_kind(b["asset"]) == "crypto" for b in balances)


def test_a_wallet_names_its_coin_not_a_company(catalog: Catalog):
    wallet = ok(session(catalog, "coinremitter_get_wallet_balance"), "coinremitter_get_wallet_balance", coin="BTC")
    assert _kind(wallet["coin_name"]) == "crypto"


def test_a_broker_keeps_stock_tickers(catalog: Catalog):
    orders = ok(session(catalog, "alpaca_list_orders"), "alpaca_list_orders")["orders"]
    assert orders and all(_kind(o["symbol"]) == "stock" for o in orders)
    bars = ok(session(catalog, "polygon_get_aggregate_bars"), "polygon_get_aggregate_bars", stocksTicker="AAPL",
              multiplier=1, timespan="day", **{"from": "2026-11-02", "to": "2026-11-06"})
    assert bars["ticker"] == "AAPL"
