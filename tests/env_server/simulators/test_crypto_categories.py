"""A crypto API tags its news with categories of the crypto market (a coin, a topic such as
Mining or Regulation), not a shop's or a forum's categories."""

from __future__ import annotations

import json
from importlib import resources

from env_server.catalog import Catalog
from tests.env_server.free_play import catalog, ok, session  # noqa: F401  (a fixture)


def _crypto_categories() -> set[str]:
    text = resources.files("tool_specs").joinpath("vocab/crypto_category.json").read_text()
    return set(json.loads(text)["values"])


def test_crypto_news_categories_are_market_categories(catalog: Catalog):
    articles = ok(session(catalog, "cryptocompare_list_news"), "cryptocompare_list_news")["articles"]
    assert articles
    assert {a["categories"] for a in articles} <= _crypto_categories()


def test_a_forum_post_on_a_blockchain_keeps_ordinary_categories(catalog: Catalog):
    tool = "steem_list_trending_discussions"
    posts = ok(session(catalog, tool), tool, tag="")["discussions"]
    assert posts
    assert not {p["category"] for p in posts} <= _crypto_categories()
