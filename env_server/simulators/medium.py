"""The medium a record belongs to: music, screen (film and TV), anime, books or games.

A TV series has TV genres, a track music genres, a novel book genres; a show on TVmaze is a
TV series, not a concert, and its overview is a synopsis, not a to-do note. The record's
entity says it first ("track", "series", "book"); the provider's catalog category says it
when the entity is vague ("show" on a video API, "item" on a music store).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from env_server.simulators.compose import EQUIPMENT
from env_server.simulators.naming import snake, title_kind

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

MUSIC, SCREEN, ANIME, BOOK, GAME = "music", "screen", "anime", "book", "game"
VIDEO, PODCAST = "video", "podcast"  # an uploaded clip (YouTube, Vimeo); a podcast show
NEWS = "news"

_BY_TITLE = {
    "song_title": MUSIC, "album_title": MUSIC, "band_name": MUSIC, "playlist_name": MUSIC,
    "tv_show_title": SCREEN, "film_title": SCREEN, "anime_title": ANIME, "book_title": BOOK,
    "game_title": GAME, "podcast_title": PODCAST,
}
_BY_WORD = {"station": MUSIC, "radio": MUSIC, "scrobble": MUSIC, "recording": MUSIC, "lyrics": MUSIC,
            "podcast": PODCAST, "video": VIDEO, "clip": VIDEO, "anime": ANIME, "manga": ANIME, "episode": SCREEN, "season": SCREEN,
            "series": SCREEN, "movie": SCREEN, "film": SCREEN, "title": SCREEN}
_BY_CATEGORY = {"music": MUSIC, "video": SCREEN, "anime": ANIME, "books": BOOK, "games & comics": GAME, "news": NEWS}
# Categories whose characters are fictional (a description is the character's, not a bio).
FICTION = frozenset({"video", "anime", "games & comics"})
# Entity words that keep a record out of its category's medium (a user of a music site, a
# comment under a video: their texts are people's, not the medium's).
_NOT_MEDIA = frozenset({"user", "comment", "account", "profile", "member", "follower", "annotation",
                        "channel", "client", "token", "session", "subscription", "rating", "character",
                        "person", "people", "cast", "crew", "quote", "house", "planet", "starship",
                        "spacecraft", "species", "vehicle", "source", "provider", "network", "venue",
                        "chapter", "verse", "author", "publisher", "translation"})
# Entity words that name a record of any medium; the category says which.
_AMBIGUOUS = frozenset({"work", "works", "release", "item", "items", "title", "titles", "edition", "show", "entry"})
# What a record of each medium is titled from, when its entity names no vocabulary.
SCREEN_TITLES = {SCREEN: "tv_show_title", ANIME: "anime_title", VIDEO: "video_title"}
# Vocabularies of the medium: genres and descriptions.
GENRES = {MUSIC: "music_genre", SCREEN: "screen_genre", ANIME: "anime_genre", BOOK: "book_genre",
          GAME: "game_genre", VIDEO: "screen_genre", PODCAST: "podcast_category"}
DESCRIPTIONS = {SCREEN: "film_synopsis", ANIME: "film_synopsis", BOOK: "book_description",
                VIDEO: "video_description", NEWS: "news_summary"}
# Records of a news API that are stories (a wire item, a bookmark of an article).
_STORY_WORDS = frozenset({"item", "wire", "report", "story", "entry", "bookmark", "article", "update", "blog"})
# A news site's sources and feeds are outlets ("The Lisbon Herald"), not headlines.
_OUTLET_WORDS = frozenset({"source", "sources", "outlet", "feed", "subscription", "publisher", "newspaper", "site"})
# Records of a media site whose descriptions are of their own kind, by entity word.
OWN_DESCRIPTIONS = {"playlist": "playlist_description", "channel": "channel_description"}


@functools.lru_cache(maxsize=4096)
def medium_of(entity: str, category: str) -> str | None:
    """The medium of an entity's records in a catalog category (None when neither says)."""
    words = set(snake(entity).split("_"))
    by_category = _BY_CATEGORY.get(category.strip().lower())
    if by_category is not None and words <= _AMBIGUOUS:
        return by_category  # a "work" of an anime site is an anime, of a music site a recording
    by_title = _BY_TITLE.get(title_kind(entity))
    if by_title is not None:
        return by_title
    for word in sorted(words):
        if word in _BY_WORD:
            return _BY_WORD[word]
    if words & _NOT_MEDIA:
        return None
    return by_category


@functools.lru_cache(maxsize=4096)
def genre_medium(entity: str, category: str) -> str | None:
    """The medium whose genres a record's genre fields take: its own, or for a person or a
    channel of a media site (an artist's genres, a network's), the site's."""
    return medium_of(entity, category) or _BY_CATEGORY.get(category.strip().lower())


def record_medium(gen: Generation) -> str | None:
    return medium_of(gen.entity, gen.category)


def media_title_kind(gen: Generation) -> str:
    """The vocabulary a record's title comes from, its medium considered: a "show" on a video
    API is a TV series (not a concert), an "item" on a music store a song. A creative work's
    title is for a media provider's records only: a weather station, a financial series or an
    earnings release elsewhere is named for what it is (``non_work_title``)."""
    kind = _medium_title_kind(gen)
    if kind in WORK_TITLES and gen.category and gen.category.strip().lower() not in MEDIA_CATEGORIES:
        return non_work_title(gen.entity)
    return kind


# Vocabularies of creative works' titles, and the catalog categories whose records are works.
WORK_TITLES = frozenset({"song_title", "album_title", "band_name", "playlist_name", "tv_show_title", "film_title",
                         "anime_title", "book_title", "game_title", "podcast_title", "video_title", "show_title",
                         "artwork_title"})
MEDIA_CATEGORIES = frozenset({"music", "video", "anime", "books", "games & comics", "entertainment", "art & design",
                              "photography", "news", "social", "personality", "events", "government", "test data"})


@functools.lru_cache(maxsize=4096)
def non_work_title(entity: str) -> str:
    """The title kind of a record that is not a creative work: a device's owner-given name, or a
    name composed from its entity."""
    return "equipment_name" if set(snake(entity).split("_")) & EQUIPMENT else "entity_title"


def _medium_title_kind(gen: Generation) -> str:
    kind = title_kind(gen.entity)
    if gen.category.strip().lower() == NEWS and _OUTLET_WORDS & set(snake(gen.entity).split("_")):
        return "news_outlet"
    medium = record_medium(gen)
    if medium == NEWS and (kind == "document_title" or kind == "entity_title" and _STORY_WORDS & set(
            snake(gen.entity).split("_"))):
        return "headline"  # a report on a news API is a story, not a form
    if medium in SCREEN_TITLES and kind in ("show_title", "entity_title", "event_title"):
        return SCREEN_TITLES[medium]
    if medium == MUSIC and kind == "event_title":
        return "show_title"  # a concert, not a dentist appointment
    if medium == MUSIC and kind == "entity_title":
        return "song_title"
    if medium == BOOK and kind == "entity_title":
        return "book_title"
    if medium == GAME and kind == "task_title":
        return "card_name"  # a card of a card game, not a card on a task board
    return kind


