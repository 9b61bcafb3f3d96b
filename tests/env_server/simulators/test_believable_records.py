"""Records a user saw as unbelievable, now believable: a title search titles its hits with the
term, DEV posts are developer posts, usage is within its limit, a pin is the CID asked, a
scan's url is on its domain."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.simulators.records import default_facts
from state import Database

_CHAINS = frozenset(default_facts().vocab.get("chain_network").values)


@pytest.fixture(scope="module")
def env() -> ToolEnvironment:
    return ToolEnvironment(load_catalog(), Database(), ServerSettings())


def _call(env: ToolEnvironment, tool: str, args: dict, seed: int) -> dict:
    sid = f"{tool}-{seed}"
    env.create_session(tools=[tool], session_id=sid, seed=seed, today=dt.date(2026, 1, 15))
    outcome = env.call_tool(sid, tool, args)
    assert not outcome.is_error, outcome.message
    return outcome.result


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_a_title_search_finds_titles_with_the_term_and_leaves_overviews_unpadded(env, seed):
    for movie in _call(env, "tmdb_search_movies", {"query": "sunrise"}, seed)["results"]:
        assert "sunrise" in movie["title"].lower()
        assert "sunrise" not in movie.get("overview", "").lower()


def test_dev_articles_are_developer_posts_tagged_for_their_titles(env):
    minutes = []
    for seed in range(6):
        for article in _call(env, "devto_list_articles", {}, seed)["articles"]:
            assert article["tag_list"] and all(re.fullmatch(r"[a-z0-9]+", t) for t in article["tag_list"])
            assert article["url"].startswith("https://dev.to/")
            assert not re.search(r"Government|Announces|Striker", article["title"])
            minutes.append(article["reading_time_minutes"])
    assert sum(2 <= m <= 15 for m in minutes) >= 0.75 * len(minutes) and max(minutes) <= 30


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_account_usage_is_within_its_daily_limits(env, seed):
    out = _call(env, "detectlanguage_get_account_status", {}, seed)
    assert out["requests"] <= out["daily_requests_limit"] and out["bytes"] <= out["daily_bytes_limit"]
    assert out["daily_requests_limit"] >= 1000


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_a_withdrawal_quota_has_a_fee_below_its_minimum_on_a_named_chain(env, seed):
    out = _call(env, "kucoin_get_withdrawal_quotas", {"currency": "USDT"}, seed)
    assert out["withdrawMinFee"] < out["withdrawMinSize"]
    assert out.get("chain", "ERC20") in _CHAINS


def test_a_pin_by_cid_is_the_cid_asked(env):
    cid = "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi"
    assert _call(env, "pinata_pin_by_cid", {"hash_to_pin": cid}, 7)["IpfsHash"] == cid


@pytest.mark.parametrize("seed", [7, 8])
def test_a_scan_url_is_the_scanned_page_on_its_domain(env, seed):
    for scan in _call(env, "urlscan_search_scans", {"q": "testing"}, seed)["results"]:
        assert "urlscan.io" not in scan["url"]
        assert scan["url"].startswith(f"https://{scan['domain']}/")
