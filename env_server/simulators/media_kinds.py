"""Genres that belong to the record's medium: a track is "Deep house", a novel "Cozy mystery".

The ``genre`` vocabulary spans film, books, games and music; a music record (a track, an
album, an artist, a radio station) draws from ``music_genre`` instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake, title_kind

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_MUSIC_TITLES = frozenset({"song_title", "album_title", "band_name", "playlist_name"})
_MUSIC_WORDS = frozenset({"station", "radio", "scrobble", "chart", "tag", "label", "master", "recording", "want"})


@functools.lru_cache(maxsize=4096)
def musical(entity: str) -> bool:
    """Whether an entity's records are music (tracks, albums, artists, stations)."""
    return title_kind(entity) in _MUSIC_TITLES or not _MUSIC_WORDS.isdisjoint(snake(entity).split("_"))


def _genre(gen: Generation) -> str:
    vocab = gen.facts.vocab.get("music_genre" if musical(gen.entity) else "genre")
    return str(gen.rng.choice(vocab.values))


MEDIA_KINDS: dict[str, Callable[[Generation], Any]] = {"genre": _genre}
