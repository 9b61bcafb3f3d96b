"""A coin asked as a split pair ("BTC/USD", "ETH-EUR") is that coin, quoted in the pair's currency."""

from __future__ import annotations

from pathlib import Path

import pytest

from env_server.catalog import load_catalog
from env_server.environment import ToolEnvironment
from env_server.simulators.market import default_table
from state import Database

_WTB_TOOLS = Path(__file__).parents[4] / "shared" / "data" / "wildtoolbench" / "tools_en.jsonl"


def test_a_split_pair_names_its_coin_and_quote_currency():
    table = default_table()
    for text, symbol, quote in (("BTC/USD", "BTC", "USD"), ("eth-eur", "ETH", "EUR"), ("SOL_USDT", "SOL", "USD")):
        coin, currency = table.pair_of(text)
        assert coin is not None and (coin.symbol, currency) == (symbol, quote)


@pytest.mark.skipif(not _WTB_TOOLS.exists(), reason="WildToolBench tools not in ../shared/data")
def test_a_price_asked_for_a_pair_quotes_that_coin_in_that_currency():
    env = ToolEnvironment(load_catalog([_WTB_TOOLS]), Database())
    env.create_session(tools=["getCurrentPrice"], session_id="s", seed=1)
    usd = env.call_tool("s", "getCurrentPrice", {"currencyPair": "ETH/USD"}).result
    eur = env.call_tool("s", "getCurrentPrice", {"currencyPair": "ETH-EUR"}).result
    assert usd is not None and eur is not None
    assert (usd["symbol"], usd["currency"], eur["symbol"], eur["currency"]) == ("ETH", "USD", "ETH", "EUR")
    assert 0.7 < eur["price"] / usd["price"] < 1.0  # a euro is worth more than a dollar
