"""Film, TV, music and video records a fan would believe: genres of the record's medium,
season and episode numbers that add up, text of the medium (a synopsis, a lyric)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

from env_server.catalog import Catalog
from env_server.environment import ToolEnvironment
from env_server.simulators.medium import medium_of
from env_server.simulators.records import default_facts
from env_server.specs.media_checks import media_hits
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)


def _vocab(kind: str) -> frozenset[str]:
    return frozenset(default_facts().vocab.get(kind).texts)


def test_a_tv_series_has_tv_genres_and_a_handful_of_seasons(env: ToolEnvironment):
    screen = _vocab("screen_genre")
    for series_id in range(1, 40):
        series = call(env, "thetvdb_get_series_extended", series_id=series_id)
        assert 1 <= series["seasons"] <= 40, series
        assert set(series["genres"]) <= screen, series["genres"]
        assert series["averageRuntime"] <= 70, series


@pytest.mark.parametrize("tool,season,number,aired", [
    ("thetvdb_list_series_episodes", "seasonNumber", "number", "aired"),
    ("tvmaze_list_episodes", "season", "number", "airdate"),
])
def test_an_episode_list_counts_one_season_up_from_its_first_episode(env: ToolEnvironment, tool: str, season: str,
                                                                     number: str, aired: str):
    for series_id in range(1, 15):
        key = "series_id" if tool.startswith("thetvdb") else "show_id"
        rows = next(v for v in call(env, tool, **{key: series_id}).values() if isinstance(v, list))
        assert len({r[season] for r in rows}) == 1 and rows[0][season] <= 12, rows
        numbers = [r[number] for r in rows]
        assert numbers == list(range(numbers[0], numbers[0] + len(rows))), numbers
        days = [dt.date.fromisoformat(r[aired]) for r in rows]
        assert days == sorted(days), days


def test_a_season_asked_for_is_the_season_answered(env: ToolEnvironment):
    answer = call(env, "omdb_get_season", i="tt0903747", Season=3)
    assert answer["Season"] == 3 and answer["totalSeasons"] >= 3
    assert [e["Episode"] for e in answer["Episodes"]] == list(range(1, len(answer["Episodes"]) + 1))


def test_no_one_has_watched_more_episodes_than_a_show_has(env: ToolEnvironment):
    for kind in ("shows", "anime"):
        for item in call(env, "simkl_get_all_items", type=kind)["items"]:
            assert 0 <= item["watched_episodes_count"] <= item["total_episodes_count"], item


def test_music_records_take_music_genres_and_lyrics_read_as_lyrics(env: ToolEnvironment):
    music = _vocab("music_genre")
    tracks = call(env, "soundcloud_search_tracks", q="night drive")["collection"]
    assert tracks and all(t["genre"] in music for t in tracks), [t["genre"] for t in tracks]
    lyrics = call(env, "musixmatch_get_track_lyrics", track_id=811905)["lyrics_body"]
    assert lyrics in _vocab("lyric_line")


def test_a_release_lists_its_tracks_from_position_one(env: ToolEnvironment):
    release = call(env, "musicbrainz_lookup_release", mbid="5b952be6-81f9-4f9a-a3a0-bb09f8b7e491")
    assert [t["position"] for t in release["tracks"]] == list(range(1, len(release["tracks"]) + 1))


def test_podcasts_are_filed_under_podcast_categories(env: ToolEnvironment):
    categories = _vocab("podcast_category")
    for show in call(env, "itunes_search_podcasts", term="history")["results"]:
        assert show["primaryGenreName"] in categories, show


def test_an_uploaded_video_has_an_uploaders_title_and_description(env: ToolEnvironment):
    titles, texts = _vocab("video_title"), _vocab("video_description")
    for video in call(env, "youtube_search_videos", q="")["items"]:
        assert video["title"] in titles and video["description"] in texts, video


def test_a_playlist_is_described_as_a_playlist(env: ToolEnvironment):
    outcome = env.call_tool("free", "spotify_create_playlist", {"user_id": "user_fdb6fd7692", "name": "Comet"})
    made = outcome.result
    assert not outcome.is_error and made is not None, outcome.message
    assert made["description"] == ""  # none sent: Spotify leaves it empty (create_defaults)
    sent = env.call_tool("free", "spotify_create_playlist",
                         {"user_id": "user_fdb6fd7692", "name": "Comet", "description": "Late drives"}).result
    assert sent is not None and sent["description"] == "Late drives"


def test_the_medium_follows_the_entity_then_the_category():
    assert medium_of("series", "Video") == "screen"
    assert medium_of("show", "Video") == "screen"  # a TV show, not a concert
    assert medium_of("event", "Music") == "music"
    assert medium_of("track", "Video") == "music"
    assert medium_of("work", "Books") == "book"
    assert medium_of("game", "Games & Comics") == "game"
    assert medium_of("user", "Music") is None  # a person's texts are not the medium's
    assert medium_of("event", "Business") is None


def _spec(catalog: Catalog, name: str) -> Any:
    return catalog.tools[name]


def test_the_media_audit_flags_foreign_genres_and_counts_that_do_not_add_up(catalog: Catalog):
    series = _spec(catalog, "thetvdb_get_series_extended")
    bad = {"id": 1, "name": "The Copper Kettle", "seasons": 176, "genres": ["Drum and bass", "Crime drama"]}
    hits = media_hits(series, bad, {})
    assert any("176 seasons" in d for _, d in hits)
    assert [p for p, d in hits if "music genre 'Drum and bass'" in d] == ["$.genres[0]"]
    simkl = _spec(catalog, "simkl_get_all_items")
    hits = media_hits(simkl, {"items": [{"watched_episodes_count": 30, "total_episodes_count": 12}]}, {})
    assert hits == [("$.items[0].watched_episodes_count", "30 episodes watched of 12")]
    note = default_facts().vocab.get("note_text").values[0]
    assert media_hits(_spec(catalog, "tmdb_search_movies"), {"results": [{"overview": note}]}, {})
    good = {"id": 1, "name": "The Copper Kettle", "seasons": 3, "genres": ["Crime drama", "Neo-noir"]}
    assert media_hits(series, good, {}) == []


def test_game_cards_are_cards_and_fictional_characters_are_described_as_characters(env: ToolEnvironment):
    cards = _vocab("card_name")
    for card in call(env, "hearthstone_search_cards")["cards"]:
        assert card["name"] in cards, card["name"]  # not "Proofread annual report" off a task board
    heroes = {r["name"]: r["description"] for r in default_facts().vocab.get("comic_character").records}
    for hero in call(env, "marvel_search_characters")["results"]:
        assert heroes.get(hero["name"]) == hero["description"], hero  # a hero's own description
    entry = call(env, "pokeapi_get_species", id_or_name="eevee")
    assert entry["flavor_text"] in _vocab("creature_flavor_text")


def test_an_actor_is_not_the_character_they_play(env: ToolEnvironment):
    for row in call(env, "tvmaze_get_show_cast", show_id=133559)["cast"]:
        assert row["person_name"] != row["character_name"], row
    for row in call(env, "jikan_get_anime_characters", mal_id=706369)["data"]:
        assert row["name"] != row["voice_actor"], row


def test_a_film_runs_feature_length_and_says_so_in_minutes(env: ToolEnvironment):
    film = call(env, "omdb_get_by_imdb_id", i="tt5684948")
    minutes = int(film["Runtime"].removesuffix(" min"))
    assert 80 <= minutes <= 180, film["Runtime"]


def test_a_news_report_is_a_story_and_a_source_is_an_outlet(env: ToolEnvironment):
    stories = default_facts().vocab.get("headline").records
    headlines, summaries = _vocab("headline"), frozenset(r["summary"] for r in stories)
    for report in call(env, "spaceflightnews_list_reports")["results"]:
        assert report["title"] in headlines and report["summary"] in summaries, report  # not "Vacation Request Form"
    outlets = [re.compile("^" + re.escape(t).replace(r"\{city\}", ".+").replace(r"\{country\}", ".+") + "$")
               for t in _vocab("news_outlet")]
    for source in call(env, "newsdata_list_sources")["results"]:
        assert any(o.match(source["name"]) for o in outlets), source  # not a headline


def test_scripture_and_poems_name_real_books_and_read_as_verse(env: ToolEnvironment):
    books = {r["name"]: r["book_id"] for r in default_facts().vocab.get("bible_book").records}
    verse = call(env, "bible_api_get_random_verse")["random_verse"]
    assert books[verse["book_name"]] == verse["book_id"], verse
    lines = _vocab("poem_line")
    for poem in call(env, "poetrydb_search_by_title", title="Ozymandias")["poems"]:
        assert set(poem["lines"]) <= lines, poem["lines"]


def test_quotes_are_filed_under_quote_topics(env: ToolEnvironment):
    topics = _vocab("quote_topic")
    for quote in call(env, "favqs_list_quotes")["quotes"]:
        assert set(quote["tags"]) <= topics, quote["tags"]
    for row in call(env, "quotegarden_list_genres")["genres"]:
        assert row["genre"] in topics, row


def test_a_work_on_an_anime_site_is_an_anime():
    assert medium_of("work", "Anime") == "anime"
    assert medium_of("work", "Books") == "book"
    assert medium_of("wire_item", "News") == "news"


def test_a_bar_ingredient_is_described_by_its_own_facts(env: ToolEnvironment):
    records = {r["name"]: r for r in default_facts().vocab.get("bar_ingredient").records}
    found = call(env, "thecocktaildb_get_ingredient", i="vodka")
    fact = records[found["strIngredient"]]  # a bar ingredient, not "garlic"
    assert (found["strDescription"], found["strType"], found["strAlcohol"], found["strABV"]) == (
        fact["description"], fact["type"], fact["alcoholic"], float(fact["abv"]))
    drink = call(env, "thecocktaildb_get_cocktail", i="11007")
    method = default_facts().vocab.index("cocktail")[drink["strDrink"].lower()]["instructions"]
    assert drink["strInstructions"] == method  # the drink's own method (entry_fields), not any drink's
    assert [r["position"] for r in drink["ingredients"]] == list(range(1, len(drink["ingredients"]) + 1))


def test_fruit_taxonomy_is_the_fruits_own(env: ToolEnvironment):
    facts = {r["name"].lower(): r for r in default_facts().vocab.get("fruit").records}
    for fruit in call(env, "fruityvice_list_fruits")["fruits"]:
        fact = facts[fruit["name"].lower()]
        assert (fruit["family"], fruit["order"], fruit["genus"]) == (fact["family"], fact["order"], fact["genus"])


def test_loose_texts_fit_the_record_they_describe(env: ToolEnvironment):
    boards = call(env, "pinterest_list_boards")
    rows = next(v for v in boards.values() if isinstance(v, list))
    assert all(r["description"] in _vocab("collection_description") for r in rows), rows
    channels = call(env, "slack_list_conversations")
    rows = next(v for v in channels.values() if isinstance(v, list))
    assert all(r["topic"] in _vocab("channel_topic") for r in rows), rows
    sections = _vocab("news_section")
    assert call(env, "nyt_get_top_stories")["section"] in sections  # a section of the paper, not "Careers"
    author = call(env, "quotable_get_author", slug="albert-einstein")
    assert author["description"] in _vocab("creator_bio") and author["bio"] in _vocab("creator_bio"), author
    assert "{" not in call(env, "hearthstone_list_card_backs")["cardBacks"][0]["text"]
