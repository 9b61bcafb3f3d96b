"""A what3words answer is three dot-separated words for a 3 m square, in the call's language."""

from __future__ import annotations

import re

from env_server import ToolEnvironment
from env_server.simulators.w3w_facts import word_list
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

_ADDRESS = re.compile(r"^[^\W\d_]+\.[^\W\d_]+\.[^\W\d_]+$")


def test_autosuggest_completes_the_typed_words_with_ranked_three_word_addresses(env: ToolEnvironment):
    found = call(env, "what3words_autosuggest", input="index.home.ra")["suggestions"]
    assert [s["rank"] for s in found] == list(range(1, len(found) + 1))
    for suggestion in found:
        assert _ADDRESS.match(suggestion["words"]) and suggestion["words"].startswith("index.home.ra"), suggestion
        assert suggestion.get("language", "en") == "en"
    assert len({s["words"] for s in found}) == len(found)


def test_a_conversion_names_a_3_metre_square_around_the_point_asked_in_its_language(env: ToolEnvironment):
    out = call(env, "what3words_convert_to_3wa", coordinates="51.52,-0.19", language="de")
    assert _ADDRESS.match(out["words"]) and out["language"] == "de"
    assert all(word in word_list("de") for word in out["words"].split("."))
    assert (out["coordinates"]["lat"], out["coordinates"]["lng"]) == (51.52, -0.19)
    sw, ne = out["square"]["southwest"], out["square"]["northeast"]
    assert 0 < (ne["lat"] - sw["lat"]) * 111_000 < 4 and sw["lng"] < out["coordinates"]["lng"] < ne["lng"]
    assert out["map"] == f"https://www.what3words.com/{out['words']}"


def test_converting_an_address_echoes_its_three_words(env: ToolEnvironment):
    assert call(env, "what3words_convert_to_coordinates", words="index.home.raft")["words"] == "index.home.raft"
