"""``search_tools`` reads what the things a query names are: breeds, teams, places, codes, and WordNet's kinds."""

from __future__ import annotations

import pytest

from env_server.catalog import Catalog
from env_server.search import ToolSearchIndex
from env_server.search.stem import stem
from env_server.search.text import join_mixed_case, words


@pytest.fixture(scope="module")
def index(builtin_catalog: Catalog) -> ToolSearchIndex:
    return ToolSearchIndex(list(builtin_catalog.tools.values()))


def test_a_named_breed_team_or_code_stands_for_its_kind(index: ToolSearchIndex):
    weights = index.query_weights("my kid wants to see a photo of a shiba inu")
    assert stem("dog") in weights and stem("breed") in weights
    # A plural of a known name is the name: "Dachshunds" is a dog breed.
    assert stem("dog") in index.query_weights("how long do Dachshunds live")
    # A club's nickname names the club and its sport.
    assert stem("basketball") in index.query_weights("when do the Lakers play next")
    assert stem("currency") in index.query_weights("convert 500 SEK to NOK")


def test_names_that_must_be_capitalised_are_not_read_from_ordinary_words(index: ToolSearchIndex):
    # "SEK" the code is a currency; "sek" is not read as one, nor "all" as a ticker.
    assert stem("currency") not in index.query_weights("sek the answer")
    assert stem("stock") not in index.query_weights("list all my tasks")
    assert index.query_terms("how many people live in Kenya").names_place
    assert not index.query_terms("how many people live in kenya").names_place


def test_a_word_the_catalog_hardly_knows_reaches_its_wordnet_kinds(index: ToolSearchIndex):
    weights = index.query_weights("pediatricians in Boston")
    assert stem("doctor") in weights and weights[stem("doctor")] < 1.0
    covers = index.query_terms("pediatricians in Boston").covers
    assert covers[stem("doctor")] == {stem("pediatrician")}
    # A word the catalog knows keeps its own meaning; a proper noun names no kind of thing.
    assert index.query_weights("weather in Paris").keys() <= {stem("weather"), stem("paris"), stem("forecast"),
                                                                stem("meteorological")}
    assert stem("physicist") not in index.query_weights("who plays the lead in Oppenheimer")


def test_a_mixed_case_name_is_one_word(index: ToolSearchIndex):
    assert join_mixed_case("trending videos on YouTube") == "trending videos on youtube"
    assert "youtube" in words("Search YouTube videos")
    weights = index.query_weights("what are the top trending videos on YouTube")
    assert stem("train") not in weights and "youtub" in weights


def test_named_things_reach_their_tools(index: ToolSearchIndex, builtin_catalog: Catalog):
    dog = [h.name for h in index.search("my kid wants to see a photo of a shiba inu", 5)]
    assert {"dog_ceo_get_breed_images", "the_dog_api_search_images"} & set(dog), dog
    cocktail = index.search("how do I make a margarita", 1)[0].name
    assert builtin_catalog.tools[cocktail].family == "thecocktaildb"
