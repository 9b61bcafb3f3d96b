"""A coin search finds the coins its term names, and a term that names no coin finds none
(an empty result, as the API answers), never stocks or words made into coins."""

from __future__ import annotations

import pytest

from env_server.catalog import Catalog
from tests.env_server.free_play import catalog, ok, session  # noqa: F401  (a fixture)


@pytest.mark.parametrize("term", ["apple", "arb", "weather"])
def test_a_coin_search_for_a_term_naming_no_coin_finds_no_coins(catalog: Catalog, term):
    found = ok(session(catalog, "coingecko_search_coins"), "coingecko_search_coins", query=term)
    assert found["coins"] == []


def test_a_coin_search_finds_every_coin_its_term_names_and_no_other(catalog: Catalog):
    found = ok(session(catalog, "coingecko_search_coins"), "coingecko_search_coins", query="bitcoin")
    assert sorted(c["symbol"] for c in found["coins"]) == ["BCH", "BTC"]
    assert all("bitcoin" in c["name"].lower() for c in found["coins"])


def test_a_coin_listing_searched_by_a_coin_symbol_lists_that_coin(catalog: Catalog):
    found = ok(session(catalog, "coincap_list_assets"), "coincap_list_assets", search="doge")
    assert [a["symbol"] for a in found["data"]] == ["DOGE"]
