"""A news article's summary and section are those of its headline's story (issue 14)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.simulators.news_story import STORY, section_step
from env_server.simulators.records import default_facts
from env_server.specs.samples import sample_arguments
from state import Database

_SEEDS = (1, 2, 3, 5, 8, 13)
_SLOT = re.compile(r"\\\{(city|country)\\\}")


def _stories() -> list[tuple[re.Pattern[str], dict[str, Any]]]:
    """Each story's headline as a pattern (its slots as groups), with the story."""
    out = []
    for record in default_facts().vocab.get(STORY).records:
        pattern = _SLOT.sub(lambda m: f"(?P<{m.group(1)}>.+)", re.escape(record["headline"]))
        out.append((re.compile(f"^{pattern}$"), record))
    return out


def _story_of(headline: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The story a drawn headline is, and the place names it filled in."""
    for pattern, record in _stories():
        found = pattern.match(headline)
        if found:
            return record, found.groupdict()
    raise AssertionError(f"{headline!r} is no story of the vocabulary")


def _written_summary(headline: str) -> str:
    record, slots = _story_of(headline)
    text = str(record["summary"])
    for slot, value in slots.items():
        text = text.replace("{" + slot + "}", value)
    return text


def _articles(catalog: Catalog, tool: str, rows: str, seed: int) -> list[dict[str, Any]]:
    env = ToolEnvironment(catalog, Database(), ServerSettings())
    env.create_session(tools=[tool], session_id="s", seed=seed, today=dt.date(2026, 12, 7))
    outcome = env.call_tool("s", tool, sample_arguments(catalog.tools[tool]))
    assert not outcome.is_error, outcome.message
    articles = outcome.result[rows]
    assert articles, outcome.result
    return list(articles)


@pytest.mark.parametrize("seed", _SEEDS)
def test_a_most_popular_article_is_summed_up_and_filed_as_its_headline_story(builtin_catalog: Catalog, seed: int):
    for article in _articles(builtin_catalog, "nyt_get_most_popular", "results", seed):
        assert article["abstract"] == _written_summary(article["title"]), article
        assert article["section"] == _story_of(article["title"])[0]["section"], article


@pytest.mark.parametrize("seed", _SEEDS)
def test_a_guardian_search_result_sits_in_its_story_section(builtin_catalog: Catalog, seed: int):
    sections = default_facts().vocab.index("news_section")
    for row in _articles(builtin_catalog, "guardian_search_content", "results", seed):
        story = _story_of(row["web_title"])[0]
        assert row["section_id"] == sections[story["section"].lower()]["section_id"], row
        fields = row.get("fields") or {}
        for key in ("standfirst", "trail_text"):
            if key in fields:
                assert fields[key] == _written_summary(row["web_title"]), row


@pytest.mark.parametrize("seed", _SEEDS)
def test_an_imported_trending_news_article_is_described_as_its_headline_story(wtb_catalog: Catalog, seed: int):
    for article in _articles(wtb_catalog, "getTrendingNews", "results", seed):
        assert article["description"] == _written_summary(article["title"]), article


def test_newsapi_articles_are_described_as_their_headline_story(builtin_catalog: Catalog):
    for seed in _SEEDS:
        for article in _articles(builtin_catalog, "newsapi_get_top_headlines", "articles", seed):
            assert article["description"] == _written_summary(article["title"]), article


def test_an_enum_category_takes_the_member_that_names_the_story_section():
    step = section_step("article", {"category": {"type": "string", "enum": ["business", "sports", "general"]}})
    assert step is not None
    from env_server.simulators import news_story

    members = news_story._enum_members(("business", "sports", "general"))
    assert members["football"] == "sports" and members["money"] == "business" and members["books"] == "general"


def test_a_record_without_a_section_field_gets_no_section_step():
    assert section_step("article", {"title": {"type": "string"}, "published": {"type": "string"}}) is None
    assert section_step("article", {"section": {"type": "integer"}}) is None


def test_every_story_names_a_paper_section_and_only_its_headline_places():
    vocab = default_facts().vocab
    sections = vocab.index("news_section")
    records = vocab.get(STORY).records
    assert len(records) >= 250
    for record in records:
        assert record["section"].lower() in sections, record
        assert set(re.findall(r"\{(\w+)\}", record["summary"])) <= set(re.findall(r"\{(\w+)\}", record["headline"]))


def test_the_audit_reads_a_headline_with_a_city_filled_in_as_its_story():
    from env_server.specs.entry_checks import _entry

    index = default_facts().vocab.index(STORY)
    entry, slots = _entry(STORY, index, "Lyon Schools to Shorten Summer Holidays")
    assert entry is not None and entry["section"] == "Education" and slots == {"city": "Lyon"}


_SHOWN_CONTENT = re.compile(r"^(?P<shown>.+)… \[\+\d+ chars\]$", re.S)


@pytest.mark.parametrize("seed", _SEEDS)
def test_a_news_search_articles_content_opens_with_its_description_and_is_cut_short(
        builtin_catalog: Catalog, seed: int):
    for article in _articles(builtin_catalog, "newsapi_search_everything", "articles", seed):
        shown = _SHOWN_CONTENT.match(article["content"])
        assert shown is not None, article["content"]
        assert article["content"] != article["description"]
        assert _written_summary(article["title"]).startswith(shown["shown"])
        assert len(shown["shown"]) <= 200


_PILLARS = {"News", "Opinion", "Sport", "Arts", "Lifestyle"}


@pytest.mark.parametrize("seed", _SEEDS)
def test_a_guardian_articles_pillar_is_its_sections_pillar(builtin_catalog: Catalog, seed: int):
    pillars = {r["section_id"]: r["pillar"] for r in default_facts().vocab.get("news_section").records}
    assert set(pillars.values()) == _PILLARS
    for article in _articles(builtin_catalog, "guardian_search_content", "results", seed):
        assert article["pillar_name"] == pillars[article["section_id"]], article
