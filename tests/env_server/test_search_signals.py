"""``search_tools`` signals beyond word overlap: ids, slots, phrases, coverage, time words, vocabulary lists,
subjects, named services and suffixes.

Each test names a query the lexical ranking used to get wrong and the reason it now gets right.
"""

from __future__ import annotations

import pytest

from env_server.catalog import Catalog
from env_server.search import ToolSearchIndex, search_index_for
from env_server.search.fields import needs_id, takes_keyword, vocabulary_of
from env_server.search.query import HINT_WEIGHT, NOW_WEIGHT, SYNONYM_WEIGHT, query_terms
from env_server.search.services import named_services, service_names
from env_server.search.slots import Slot, query_slots, tool_slots
from env_server.search.stem import stem
from env_server.search.synonyms import build_table, synonym_table


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


def test_a_date_a_picture_or_a_text_the_query_holds_favours_tools_that_take_one(index, builtin_catalog: Catalog):
    assert query_slots("USD to CHF exchange rate on 2020-01-01") == {Slot.DATE}
    assert query_slots("what was the euro to pound exchange rate last January") == {Slot.DATE}
    assert query_slots("what objects are in this photo?") == {Slot.IMAGE}
    assert query_slots("is this review positive or negative?") == {Slot.TEXT}
    assert query_slots("weather forecast for tomorrow") == set()
    tools = builtin_catalog.tools
    assert Slot.DATE in tool_slots(tools["fixer_get_historical_rates"]) and not tool_slots(tools["fixer_get_latest_rates"])
    assert Slot.IMAGE in tool_slots(tools["imagga_tag_image"]) and not tool_slots(tools["cooper_hewitt_search_objects"])
    # "Text to identify.": the parameter is the writing itself; a search box's "text" is not.
    assert Slot.TEXT in tool_slots(tools["detectlanguage_detect"]) and Slot.TEXT not in tool_slots(tools["flickr_search_photos"])
    assert _top(index, "USD to CHF exchange rate on 2020-01-01") == ["fixer_get_historical_rates"]
    # The museums' "objects" match by word; the tool that looks at a picture answers.
    assert _top(index, "what objects are in this photo?") == ["openvisionapi_detect_objects"]


def test_a_tool_that_takes_a_keyword_covers_the_subject_whatever_it_is(index, builtin_catalog: Catalog):
    plan = index.query_terms("find news articles about climate change")
    assert plan.subject == {stem("climate"), stem("change")}
    tools = builtin_catalog.tools
    assert takes_keyword(tools["newsapi_search_everything"]) and not takes_keyword(tools["nyt_get_top_stories"])
    allowed = frozenset({"newsapi_search_everything", "nyt_get_top_stories", "nyt_get_most_popular"})
    assert _top_among(index, "find news articles about climate change", allowed) == "newsapi_search_everything"


def test_a_tool_named_only_for_the_subject_ranks_below_one_named_for_what_is_asked(index):
    # "cart" names the subject of the icons; the shop's cart tool matched it by name.
    assert stem("cart") in index.query_terms("search icons of a shopping cart").about
    top = _top(index, "search icons of a shopping cart", 3)
    assert top[0] == "noun_project_search_icons" and "woocommerce_get_cart" not in top, top


def test_a_service_the_query_names_is_favoured(index, builtin_catalog: Catalog):
    names = service_names(builtin_catalog.tools.values())
    assert named_services("what are the top trending videos on YouTube", names) == {"youtube_data_api"}
    assert named_services("share the folder on google drive", names) == {"google_drive"}
    # A provider's name as an ordinary word, or inside another word, is not a mention.
    assert named_services("sunrise in Tokyo tomorrow", names) == set()
    assert named_services("check my inbox", names) == set()
    top = _top(index, "what are the top trending videos on YouTube", 3)
    assert all(name.startswith("youtube_") for name in top), top


def test_a_suffix_makes_every_word_with_that_ending_a_hint(index):
    table = build_table({"groups": [], "hints": {}, "suffixes": {"ologist": ["doctor"]}})
    weights = query_terms("find a cardiologist", table).weights
    assert weights[stem("doctor")] == HINT_WEIGHT
    assert stem("doctor") not in query_terms("find a geology map", table).weights
    assert _top(index, "find a dermatologist in Chicago") == ["nppes_search_providers"]


def test_a_hint_words_own_group_mates_weigh_as_synonyms():
    table = build_table({"groups": [["run", "execute"]], "hints": {"run": ["activity"], "activity": ["workout"]}})
    weights = query_terms("run it", table).weights
    assert weights[stem("execute")] == SYNONYM_WEIGHT and weights[stem("activity")] == HINT_WEIGHT


def test_asking_about_now_asks_for_current_values(index, builtin_catalog: Catalog):
    plan = query_terms("what's the temperature in Madrid right now", synonym_table())
    assert plan.weights[stem("current")] == NOW_WEIGHT and stem("current") in plan.own
    top = _top(index, "what's the temperature in Madrid right now", 3)
    assert not [name for name in top if "histor" in name], top


def _top_among(index: ToolSearchIndex, query: str, allowed: frozenset[str]) -> str:
    return index.search(query, limit=1, allowed=allowed)[0].name
