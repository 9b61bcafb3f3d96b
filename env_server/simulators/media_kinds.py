"""Genres and texts that belong to the record's medium: a track is "Deep house", a TV
series "Police procedural", a novel "Cozy mystery", and a series' overview is a synopsis.

The medium comes from the record's entity and the provider's category (``medium``); a
record with none (a generic catalog) keeps the mixed ``genre`` vocabulary.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.medium import (
    DESCRIPTIONS,
    FICTION,
    GENRES,
    OWN_DESCRIPTIONS,
    genre_medium,
    record_medium,
)
from env_server.simulators.naming import description_kind, snake, title_kind

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_MUSIC_TITLES = frozenset({"song_title", "album_title", "band_name", "playlist_name"})
_MUSIC_WORDS = frozenset({"station", "radio", "scrobble", "chart", "tag", "label", "master", "recording", "want"})
# Descriptions drawn from these are nobody's in particular: a medium's record has its own.
_LOOSE_TEXTS = frozenset({"note_text", "entity_summary"})


@functools.lru_cache(maxsize=4096)
def musical(entity: str) -> bool:
    """Whether an entity's records are music (tracks, albums, artists, stations)."""
    return title_kind(entity) in _MUSIC_TITLES or not _MUSIC_WORDS.isdisjoint(snake(entity).split("_"))


def _genre(gen: Generation) -> str:
    medium = genre_medium(gen.entity, gen.category) or ("music" if musical(gen.entity) else None)
    vocab = gen.facts.vocab.get(GENRES.get(medium or "", "genre"))
    return str(gen.rng.choice(vocab.values))


def _description(gen: Generation) -> Any:
    """A record's description: its medium's text (a synopsis, a blurb) where its entity
    would otherwise draw a loose note."""
    from env_server.simulators.values import draw_kind  # values imports this module

    kind = description_kind(gen.entity)
    words = snake(gen.entity).split("_")
    if "character" in words and gen.category.strip().lower() in FICTION:
        kind = "character_description"  # a hero of a saga, not a neighbour's bio
    elif kind in _LOOSE_TEXTS:
        own = next((k for w, k in OWN_DESCRIPTIONS.items() if w in words), None)
        media_site = genre_medium(gen.entity, gen.category) is not None
        kind = own if own and media_site else DESCRIPTIONS.get(record_medium(gen) or "", kind)
    return draw_kind(kind, gen)


MEDIA_KINDS: dict[str, Callable[[Generation], Any]] = {"genre": _genre, "description": _description}
