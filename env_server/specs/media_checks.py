"""The audit's media checks: film, TV, anime, music, book and game records a fan would believe.

``media_hits(spec, result, args)`` reads every record of a result and reports:

* a genre from another medium (a TV series tagged "Drum and bass", a novel "Metroidvania"):
  a value on another medium's genre list and not on the record's own;
* a series with more seasons than any broadcaster has aired, a season or episode number
  beyond the series' or season's length, more episodes watched than the show has, a
  track position beyond its release's track count;
* a media record's description drawn from loose everyday text (a to-do note as a film's
  overview, a chat line as a song's lyrics).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators.media_numbers import MEDIA_NUMBER_KINDS, media_number_kind
from env_server.simulators.medium import GENRES, genre_medium
from env_server.simulators.naming import snake
from env_server.simulators.records import default_facts
from env_server.specs.audit_checks import schema_enums, walk_records

Hit = tuple[str, str]

MAX_SEASONS = 40  # the longest-running scripted shows stop near here
MAX_EPISODE_IN_SEASON = 60  # daily soaps aside, a season is far shorter
_LOOSE_TEXT_KINDS = ("note_text", "chat_message")
_TEXT_FIELDS = frozenset({"description", "overview", "summary", "plot", "synopsis", "lyrics_body", "lyrics",
                          "wiki_summary", "bio_summary"})


@functools.cache
def _genre_lists() -> dict[str, frozenset[str]]:
    vocab = default_facts().vocab
    return {medium: frozenset(v.lower() for v in vocab.get(kind).values) for medium, kind in GENRES.items()}


@functools.cache
def _loose_texts() -> frozenset[str]:
    vocab = default_facts().vocab
    return frozenset(text for kind in _LOOSE_TEXT_KINDS for text in vocab.get(kind).values)


def media_hits(spec: ToolSpec, result: Any, args: Mapping[str, Any]) -> list[Hit]:
    """Media findings in ``result`` of a call of ``spec`` with ``args``."""
    medium = genre_medium(spec.profile.entity, spec.category)
    # What the call asked for and what the spec's own enums allow are the spec's word, not ours.
    asked = {str(v).lower() for v in args.values() if isinstance(v, str)}
    asked |= {v.lower() for v in schema_enums(spec.output_schema)}
    found: list[Hit] = []
    for path, record in walk_records(result):
        if medium is not None:
            found += _genre_hits(path, record, medium, asked)
            found += _loose_text_hits(path, record)
        found += _number_hits(path, record, spec.profile.entity)
    return found


def _genres(record: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    for key, value in record.items():
        if "genre" not in key.lower():
            continue
        values = value if isinstance(value, list) else [value]
        for i, item in enumerate(values):
            if isinstance(item, str):
                yield (f"{key}[{i}]" if isinstance(value, list) else key), item


def _genre_hits(path: str, record: Mapping[str, Any], medium: str, asked: set[str]) -> list[Hit]:
    lists = _genre_lists()
    own = lists.get(medium, frozenset())
    hits: list[Hit] = []
    for key, genre in _genres(record):
        low = genre.lower()
        if low in own or low in asked:
            continue
        other = next((m for m, values in lists.items() if low in values), None)
        if other is not None:
            hits.append((f"{path}.{key}", f"{medium} record has the {other} genre '{genre}'"))
    return hits


def _loose_text_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    loose = _loose_texts()
    return [(f"{path}.{key}", f"everyday note '{value[:60]}' stands in for a {key}")
            for key, value in record.items()
            if snake(key) in _TEXT_FIELDS and isinstance(value, str) and value in loose]


def _by_kind(record: Mapping[str, Any], entity: str) -> dict[str, tuple[str, int]]:
    """The record's media numbers by kind: kind -> (field, value)."""
    out: dict[str, tuple[str, int]] = {}
    for key, value in record.items():
        if isinstance(value, int) and not isinstance(value, bool):
            kind = media_number_kind(key, entity, "")
            if kind in MEDIA_NUMBER_KINDS and kind not in out:
                out[kind] = (key, value)
    return out


def _number_hits(path: str, record: Mapping[str, Any], entity: str) -> list[Hit]:
    nums = _by_kind(record, entity)
    hits: list[Hit] = []
    seasons, season = nums.get("season_count"), nums.get("season_number")
    if seasons is not None and seasons[1] > MAX_SEASONS:
        hits.append((f"{path}.{seasons[0]}", f"a series with {seasons[1]} seasons"))
    if seasons is not None and season is not None and season[1] > seasons[1]:
        hits.append((f"{path}.{season[0]}", f"season {season[1]} of a series with {seasons[1]} seasons"))
    episode, total = nums.get("episode_number"), nums.get("episode_count")
    if episode is not None and episode[1] > MAX_EPISODE_IN_SEASON:
        hits.append((f"{path}.{episode[0]}", f"episode {episode[1]} of one season"))
    watched = nums.get("watched_episodes")
    if watched is not None and total is not None and watched[1] > total[1]:
        hits.append((f"{path}.{watched[0]}", f"{watched[1]} episodes watched of {total[1]}"))
    position, tracks = nums.get("track_position"), nums.get("track_count")
    if position is not None and tracks is not None and position[1] > tracks[1]:
        hits.append((f"{path}.{position[0]}", f"track {position[1]} of a release with {tracks[1]} tracks"))
    return hits
