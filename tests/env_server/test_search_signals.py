"""``search_tools`` signals beyond word overlap: ids, slots, phrases, coverage, time words, vocabulary lists.

Each test names a query the lexical ranking used to get wrong and the reason it now gets right.
"""

from __future__ import annotations

import pytest

from env_server.catalog import Catalog
from env_server.search import ToolSearchIndex, search_index_for
from env_server.search.fields import needs_id, vocabulary_of
from env_server.search.query import query_terms
from env_server.search.slots import Slot, query_slots, tool_slots
from env_server.search.stem import stem
from env_server.search.synonyms import build_table


@pytest.fixture(scope="module")
def index(builtin_catalog: Catalog) -> ToolSearchIndex:
    return search_index_for(builtin_catalog)


def _top(index: ToolSearchIndex, query: str, n: int = 1) -> list[str]:
    return [hit.name for hit in index.search(query, limit=n)]


def test_a_list_that_needs_an_owner_id_first_ranks_below_one_that_answers(index, builtin_catalog: Catalog):
    # An artist's calendar needs an artist id; a search of shows in a city answers the need directly.
    assert needs_id(builtin_catalog.tools["songkick_get_artist_calendar"])
    assert not needs_id(builtin_catalog.tools["ticketmaster_search_shows"])
    top = builtin_catalog.tools[_top(index, "concerts in Chicago this weekend")[0]]
    assert not needs_id(top) and top.category in {"Events", "Music"}, top.name


def test_an_id_the_query_holds_favours_the_tool_that_reads_by_it(index):
    assert _top(index, "details of an Ethereum transaction by its hash") == ["etherscan_get_tx_receipt_status"]


def test_what_a_query_holds_favours_tools_that_take_it(index, builtin_catalog: Catalog):
    assert query_slots("is this URL safe to open?") == {Slot.URL}
    assert query_slots("job openings in London") == {Slot.PLACE}
    assert query_slots("who owns the IP 8.8.8.8") == {Slot.IP}
    assert query_slots("mail bob@example.com the report") == {Slot.EMAIL}
    assert query_slots("company information for the domain stripe.com") == {Slot.DOMAIN}
    assert query_slots("what's on my calendar tomorrow?") == set()
    assert Slot.URL in tool_slots(builtin_catalog.tools["google_safe_browsing_find_threat_matches"])
    assert Slot.URL not in tool_slots(builtin_catalog.tools["google_safe_browsing_list_threat_lists"])
    # The threat *lists* match "safe" best by words; the tool that checks a URL is the answer.
    assert _top(index, "is this URL safe to open?") == ["google_safe_browsing_find_threat_matches"]


def test_a_related_word_covers_the_users_word_it_stands_for(index):
    # "side effects" -> adverse (a phrase): the tool that says "adverse" beats ones that say "side".
    plan = index.query_terms("what are the side effects of ibuprofen")
    assert plan.covers[stem("adverse")] == {stem("side"), stem("effects")}
    assert _top(index, "what are the side effects of ibuprofen") == ["openfda_search_adverse_events"]


def test_a_phrase_stands_for_a_word_none_of_its_words_means_alone(index, builtin_catalog: Catalog):
    top = builtin_catalog.tools[_top(index, "send a text message to my friend")[0]]
    assert "sms" in top.description.lower(), top.name
    # A phrase keeps its function words: "open now" is not "open".
    table = build_table({"groups": [], "hints": {}, "phrases": {"open now": ["hours"]}})
    assert stem("hours") not in query_terms("is this URL safe to open?", table).weights
    assert stem("hours") in query_terms("coffee shops open now", table).weights


def test_words_of_time_say_when_not_what(index, builtin_catalog: Catalog):
    # "tomorrow" used to find the Tomorrow.io tools by their name; it now weighs as a time.
    top = _top(index, "will it rain in Berlin tomorrow?", 3)
    assert not [name for name in top if name.startswith("tomorrow_io_")], top
    assert "forecast" in top[0], top
    weights = index.query_weights("which coins are trending right now?")
    assert stem("right") not in weights and stem("tomorrow") not in index.query_weights("coins")
    assert builtin_catalog.tools[_top(index, "which coins are trending right now?")[0]].category == "Cryptocurrency"


def test_a_rare_word_of_another_domain_does_not_outrank_the_topic(index):
    # "strong" occurs once in the catalog ("strong buy"); the question is about an earthquake.
    assert _top(index, "how strong was the latest earthquake in Japan?")[0].startswith("usgsearthquake_")


def test_a_list_of_a_services_own_vocabulary_ranks_below_the_search_it_feeds(index, builtin_catalog: Catalog):
    assert vocabulary_of(builtin_catalog.tools["rawg_list_genres"]) == stem("genres")
    assert vocabulary_of(builtin_catalog.tools["rawg_search_games"]) is None
    assert _top(index, "find free-to-play shooter games for PC") == ["rawg_search_games"]
    assert _top(index, "which genres does RAWG know")[0] == "rawg_list_genres"


def test_parameter_descriptions_and_allowed_values_are_searched(index):
    # tfl_get_line_status says "victoria" only in its parameter's example ids.
    assert "tfl_get_line_status" in _top(index, "is the Victoria line running normally today?", 3)
