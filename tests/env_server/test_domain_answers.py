"""Per-API domain semantics: Git shapes, word questions, music genres, titles and page slugs,
part of speech, and the sample arguments a real caller sends."""

from __future__ import annotations

import re

import pytest

from env_server import ToolEnvironment
from env_server.catalog.models import ToolSpec
from env_server.simulators.draws import faker_pool, slugify
from env_server.specs.domain_checks import domain_hits
from env_server.specs.samples import sample_arguments
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)


def spec(env: ToolEnvironment, name: str) -> ToolSpec:
    return env.catalog.tools[name]


def test_builds_name_git_branches_and_forty_hex_commits(env: ToolEnvironment):
    builds = call(env, "travis_ci_list_builds", repository_slug="octo/shop")["builds"]
    assert builds
    for build in builds:
        assert re.fullmatch(r"[0-9a-f]{40}", build["commit_sha"]), build
        assert " " not in build["branch_name"] and not build["branch_name"].endswith("-build"), build


def test_merge_requests_target_a_default_branch_and_images_have_sha256_digests(env: ToolEnvironment):
    mrs = call(env, "gitlab_list_merge_requests", project_id="42")["merge_requests"]
    assert {mr["target_branch"] for mr in mrs} <= {"main", "master", "develop"}
    tags = call(env, "docker_hub_list_tags", namespace="library", repository="nginx")["results"]
    assert all(re.fullmatch(r"sha256:[0-9a-f]{64}", t["digest"]) for t in tags)


@pytest.mark.parametrize("prefix", ["bri", "pre", "con"])
def test_suggestions_complete_the_typed_prefix(env: ToolEnvironment, prefix: str):
    words = [s["word"] for s in call(env, "datamuse_suggest_words", prefix=prefix)["suggestions"]]
    assert words and all(w.startswith(prefix) for w in words), words
    assert len(set(words)) == len(words)


def test_rhymes_end_like_the_word_and_similar_meanings_are_synonyms(env: ToolEnvironment):
    rhymes = [r["word"] for r in call(env, "datamuse_find_rhymes", rhymes_with="exposure")["results"]]
    assert rhymes and all(w.endswith("ure") for w in rhymes), rhymes
    similar = {r["word"] for r in call(env, "datamuse_find_similar_meaning", means_like="abandon")["results"]}
    assert {"desert", "forsake", "give up"} <= similar and "deserter" not in similar, similar


def test_a_dictionary_entry_labels_the_word_with_its_own_part_of_speech(env: ToolEnvironment):
    entries = call(env, "merriamwebster_get_collegiate_entry", word="weary")["entries"]
    assert [e["functional_label"] for e in entries] == ["verb", "adjective"]  # WordNet: to weary; weary
    meanings = call(env, "freedictionary_get_entries", word="abandon")["meanings"]
    assert [m["part_of_speech"] for m in meanings] == ["noun", "verb"]


def test_music_records_take_music_genres(env: ToolEnvironment):
    tracks = call(env, "soundcloud_search_tracks")["collection"]
    genres = {t["genre"] for t in tracks}
    from env_server.simulators.records import default_facts

    music = set(default_facts().vocab.get("music_genre").values)
    assert genres and genres <= music, genres


def test_a_page_url_is_named_after_the_records_title(env: ToolEnvironment):
    tracks = call(env, "last_fm_search_tracks", track="Magnet")["tracks"]
    for track in tracks:
        assert track["url"].endswith("/" + slugify(track["name"])), track
    gifs = call(env, "giphy_search_gifs", q="cats")["data"]
    assert all(g["url"].endswith("/" + slugify(g["title"])) for g in gifs)
    assert domain_hits({"title": "Amber Waves", "url": "https://genius.com/songs/cloud-nine"}, {})
    assert not domain_hits({"title": "Amber Waves", "url": "https://genius.com/songs/amber-waves"}, {})


def test_person_names_carry_no_honorifics_or_degrees():
    honorifics = re.compile(r"\b(Mr|Mrs|Ms|Miss|Dr)\.|\b(MD|DDS|DVM|PhD|Jr\.|Sr\.|II|III|IV|V)$")
    assert not [n for n in faker_pool("name") if honorifics.search(n)]
    assert all(len(n.split(" ")) == 2 for n in faker_pool("name"))


def test_sample_arguments_are_what_a_caller_sends(env: ToolEnvironment):
    pair = sample_arguments(spec(env, "oxford_get_translations"), 0)
    assert pair["source_lang"] == "en" and pair["target_lang"] != "en"
    collins = sample_arguments(spec(env, "collins_translate_word"), 0)
    assert collins["source_lang"] != collins["target_lang"]
    prefix = sample_arguments(spec(env, "datamuse_suggest_words"), 0)["prefix"]
    assert prefix.isalpha() and len(prefix) <= 4
    mbid = sample_arguments(spec(env, "musicbrainz_lookup_release"), 0)["mbid"]
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}", mbid)
    assert sample_arguments(spec(env, "bored_api_get_activity"), 0)["key"] == "5881028"
    uris = sample_arguments(spec(env, "spotify_add_playlist_items"), 1)["uris"]
    assert all(u.startswith("spotify:track:") for u in uris)
    season = sample_arguments(spec(env, "mlb_stats_get_player_stats"), 1)["season"]
    assert 2022 <= season <= 2026
