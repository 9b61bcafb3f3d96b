"""Dictionary tools answer with the word's own WordNet senses; a word WordNet does not know is a 404."""

from __future__ import annotations

from env_server.catalog import Catalog
from env_server.environment import ToolEnvironment
from env_server.simulators.lexicon import Lexicon, split_gloss
from env_server.simulators.records import default_facts
from env_server.specs.lookup_checks import lexical_hits
from state import Database
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)


def _lexicon() -> Lexicon:
    return default_facts().reference.lexicon


def test_a_gloss_splits_into_its_definition_and_quoted_examples():
    assert split_gloss('move along rapidly; skim or dart; "The hummingbird flitted"; "a swift runner"') == (
        "move along rapidly; skim or dart", ("The hummingbird flitted", "a swift runner"))


def test_the_lexicon_is_owned_by_the_reference_data_and_built_once():
    assert default_facts().reference.lexicon is _lexicon()


def test_an_irregular_plural_is_a_form_of_its_lemma():
    assert ("mouse", "n") in _lexicon().base_forms("mice")


def test_fleet_as_a_verb_means_moving_quickly_or_passing(env: ToolEnvironment):
    result = call(env, "freedictionary_get_meanings_by_part_of_speech", word="fleet", part_of_speech="verb")
    glosses = " ".join(d["definition"] for d in result["definitions"])
    assert "rapidly" in glosses and "disappear" in glosses, glosses
    assert not any("abandon" in d["definition"] for d in result["definitions"])


def test_ephemeral_has_the_synonyms_of_its_own_sense(env: ToolEnvironment):
    result = call(env, "freedictionary_get_related_words", word="ephemeral")
    assert {"transient", "short-lived", "passing"} <= set(result["synonyms"])
    assert "permanent" in result["antonyms"]
    assert result["sense_count"] == len(_lexicon().senses("ephemeral"))


def test_a_thesaurus_sense_lists_the_words_of_that_sense(env: ToolEnvironment):
    senses = call(env, "merriamwebster_get_thesaurus_entry", word="happy")["senses"]
    assert senses[0]["functional_label"] == "adjective" and "unhappy" in senses[0]["antonyms"]


def test_an_unknown_word_is_a_not_found_naming_the_word(env: ToolEnvironment):
    for tool, args in [("freedictionary_get_entries", {}), ("oxford_get_entry", {}), ("wordsapi_get_word", {}),
                       ("freedictionary_get_meanings_by_part_of_speech", {"part_of_speech": "noun"})]:
        outcome = env.call_tool("free", tool, {"word": "blorptastic", **args})
        assert outcome.is_error and "blorptastic" in (outcome.message or "") and "404" in (outcome.message or ""), tool


def test_a_part_of_speech_the_word_lacks_is_not_found(env: ToolEnvironment):
    outcome = env.call_tool("free", "freedictionary_get_meanings_by_part_of_speech",
                            {"word": "fleet", "part_of_speech": "adverb"})
    assert outcome.is_error and "fleet" in (outcome.message or "")


def test_means_like_ranks_synonyms_first_with_falling_scores(env: ToolEnvironment):
    results = call(env, "datamuse_find_similar_meaning", means_like="happy", max=8)["results"]
    assert {"glad", "felicitous"} & {r["word"] for r in results}
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == len(scores)


def test_a_datamuse_relation_follows_wordnet(env: ToolEnvironment):
    parts = call(env, "datamuse_find_related_words", related_to="car", relation="com", max=50)["results"]
    assert "accelerator" in {r["word"] for r in parts}
    broader = call(env, "wordsapi_get_related_words", word="dog", relation="typeOf")["related"]
    assert "canine" in broader


def test_completions_start_with_the_prefix(env: ToolEnvironment):
    words = [s["word"] for s in call(env, "datamuse_suggest_words", prefix="ephem", max=5)["suggestions"]]
    assert words and all(w.startswith("ephem") for w in words) and "ephemeral" in words


def test_pronunciations_are_left_out_rather_than_made_up(env: ToolEnvironment):
    assert call(env, "freedictionary_get_phonetics", word="sable")["phonetics"] == []


def test_dictionary_answers_are_the_same_in_a_fresh_environment(env: ToolEnvironment, catalog: Catalog):
    other = ToolEnvironment(catalog, Database())
    for tool in ("freedictionary_get_entries", "wordsapi_get_word", "oxford_get_thesaurus"):
        assert call(env, tool, word="bright") == call(other, tool, word="bright")


def test_the_audit_reports_synonyms_that_are_not_the_words():
    hits = lexical_hits("$", {"word": "ephemeral"}, {"synonyms": ["new", "latest", "transient"]})
    assert hits and "new" in hits[0][1] and "transient" not in hits[0][1]
    assert lexical_hits("$", {"word": "ephemeral"}, {"synonyms": ["transient", "passing"]}) == []


def test_a_camel_cased_meaning_names_the_part_of_speech_of_the_senses_it_holds():
    from env_server.catalog import load_catalog
    from tests.conftest import TOOLALPACA, require_shared

    alpaca = load_catalog([require_shared(TOOLALPACA / "eval_real.json")])
    env = ToolEnvironment(alpaca, Database())
    env.create_session(tools=["get_api_v2_entries_en_word"], session_id="a", seed=3)
    entry = env.call_tool("a", "get_api_v2_entries_en_word", {"word": "brief"}).result["results"][0]
    senses = {pos: {s.definition for s in _lexicon().senses("brief") if s.part_of_speech == pos}
              for pos in ("noun", "verb", "adjective")}
    assert [m["partOfSpeech"] for m in entry["meanings"]] == ["noun", "verb", "adjective"]
    for meaning in entry["meanings"]:
        assert {d["definition"] for d in meaning["definitions"]} <= senses[meaning["partOfSpeech"]]
    assert entry["phonetics"] == [] and entry["origin"] == ""  # nothing WordNet lacks is made up
