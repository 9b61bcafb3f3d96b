"""Counts and positions of series, seasons, episodes and tracks, as a viewer knows them.

A TV series runs a handful of seasons (not 176) of about ten to twenty-four episodes; an
episode list of one season numbers its episodes 1, 2, 3 in one season; an album holds a
dozen tracks at positions 1 to 12; a viewer has watched no more episodes than the show has.
``media_number_kind(field, entity, parent)`` names the kind of such a field (chosen once
per schema node); the kinds draw within the record and its list, so they agree.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import string
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.draws import faker_pool
from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation
    from env_server.simulators.records import RecordScope

_SEASON_COUNT = frozenset({"seasons", "total_seasons", "number_of_seasons", "season_count", "seasons_count",
                           "num_seasons", "nb_seasons", "seasons_total"})
_SEASON = frozenset({"season", "season_number", "season_num", "season_no", "parent_index", "aired_season"})
_EPISODE = frozenset({"episode", "episode_number", "episode_num", "episode_no", "ep_number", "aired_episode_number",
                      "episode_index"})
_EPISODE_COUNT = frozenset({"episode_count", "episodes_count", "total_episodes", "number_of_episodes",
                            "total_episodes_count", "nb_episodes", "num_episodes", "episodes_total",
                            "aired_episodes", "episodes"})
_WATCHED = frozenset({"watched_episodes_count", "watched_episodes", "episodes_watched", "num_watched_episodes"})
_TRACK_POSITION = frozenset({"track_number", "track_position", "track_no", "position", "number", "track_num"})
_TRACK_COUNT = frozenset({"track_count", "tracks_count", "nb_tracks", "total_tracks", "tracks_total",
                          "number_of_tracks", "num_tracks"})
_RUNTIME = frozenset({"runtime", "average_runtime", "runtime_minutes", "runtime_in_minutes", "episode_run_time",
                      "episode_runtime", "avg_runtime"})
# Entity and parent words of screen records, whose runtime is an episode's or a film's.
_SCREEN = frozenset({"episode", "episodes", "series", "show", "shows", "season", "movie", "movies", "film", "films",
                     "anime", "airing", "title", "titles", "tv"})
_AIRED = frozenset({"aired", "airdate", "air_date", "us_air_date", "original_air_date", "released", "release_date",
                    "first_aired"})
_IMAGE_PATH = frozenset({"poster_path", "backdrop_path", "profile_path", "still_path", "logo_path"})
# Rows whose bare "number" is an episode's (an airing in a TV schedule).
_EPISODIC = frozenset({"episode", "episodes", "airing", "airings", "schedule"})
# Lists whose rows are numbered by their place in them (a track list, a recipe's ingredients).
_TRACKED = frozenset({"track", "tracks", "recording", "recordings", "track_list", "tracklist", "media", "song",
                      "songs", "ingredients", "ingredient", "steps", "step"})
_BASE62 = string.digits + string.ascii_letters
# Episodes in a season, as broadcasters and streamers order them (13 and 22 are network TV's).
_SEASON_LENGTHS = (6, 8, 8, 10, 10, 10, 12, 13, 13, 22, 24)
_ANIME_LENGTHS = (12, 12, 12, 13, 24, 25, 26)


def _words(*names: str) -> set[str]:
    return {w for name in names for w in snake(name).split("_") if w}


@functools.lru_cache(maxsize=8192)
def media_number_kind(field: str, entity: str, parent: str) -> str | None:
    """The kind of a season, episode or track count or position, or None."""
    low = snake(field)
    if low in _IMAGE_PATH:
        return "image_path"
    context = _words(entity, parent)
    if low in _SEASON_COUNT:
        return "season_count"
    if low in _RUNTIME and context & _SCREEN:
        return "screen_runtime"
    if low in _WATCHED:
        return "watched_episodes"
    if low in _EPISODE_COUNT:
        return "episode_count"
    if low in _SEASON:
        return "season_number"
    if low in _AIRED and context & {"episode", "episodes"}:
        return "air_date"
    if low in _EPISODE or (low == "number" and context & _EPISODIC):
        return "episode_number"
    if low in _TRACK_COUNT:
        return "track_count"
    if low in _TRACK_POSITION and context & _TRACKED:
        return "track_position"
    if low in _READING:
        return "reading_minutes"
    return None


# A post's reading time: minutes of text, not of a film.
_READING = frozenset({"reading_time_minutes", "reading_time", "read_time", "read_time_minutes", "reading_minutes"})


def reading_minutes(gen: Generation) -> int:
    """Minutes a post takes to read: most run two to fifteen, a long one up to half an hour."""
    return gen.rng.randint(2, 15) if gen.rng.random() < 0.9 else gen.rng.randint(16, 30)


# Hints written before these kinds existed, which the field's name now beats.
_LOOSE_HINTS = frozenset({"description", "note_text", "chat_message", "date", "past_date", "count", "integer", "number", "score", "file_name", "image_url", "duration_minutes"})


# Text fields whose name alone says what they hold on any API: a lyrics excerpt.
_TEXT_BY_FIELD = {"lyrics_body": "lyric_line", "lyrics": "lyric_line", "lyric": "lyric_line",
                  "lyrics_snippet": "lyric_line", "snippet_body": "lyric_line"}


# People of a record other than the one it is about: a character's voice actor, a film's director.
_OTHER_PEOPLE = re.compile(r"^(voice_actor|actor|actor_name|performer|performers|played_by|director|directors|"
                           r"producer|producers|screenwriter|narrator|character_name|voiced_by)$")


def media_kind(field: str, entity: str, parent: str, hint: str | None, typ: str) -> str | None:
    """``media_number_kind`` for a field of this JSON type whose hint says no more."""
    if typ == "string" and hint in (None, "name", "author") and _OTHER_PEOPLE.match(snake(field)):
        return "another_person"
    if hint is not None and hint not in _LOOSE_HINTS:
        return None
    if typ == "string" and snake(field) in _TEXT_BY_FIELD:
        return _TEXT_BY_FIELD[snake(field)]
    kind = media_number_kind(field, entity, parent)
    if kind == "screen_runtime" and typ == "string":
        return "screen_runtime_text"  # "142 min", as OMDb writes it
    if kind is None or (kind in ("image_path", "air_date")) != (typ == "string"):
        return None
    return kind


def _call(gen: Generation) -> RecordScope:
    """The call's outermost record: what its rows share (one series, one season)."""
    scope = gen.scope
    while scope.parent is not None:
        scope = scope.parent
    return scope


def _arg_int(gen: Generation, names: tuple[str, ...]) -> int | None:
    for name in names:
        value = gen.snaked_args.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
        if isinstance(value, str) and value.isdigit() and int(value) > 0:
            return int(value)
    return None


def _anime(gen: Generation) -> bool:
    return "anime" in gen.category.lower() or "anime" in snake(gen.entity) or gen.snaked_args.get("type") == "anime"


def season_count(gen: Generation) -> int:
    """Seasons of the record's series: mostly one to six, a long runner now and then."""
    def make() -> int:
        named = _arg_int(gen, ("season", "season_number"))
        drawn = gen.rng.choice((1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 10, 12))
        return max(drawn, named or 0)

    count: int = gen.scope.once("season_count", make, inherit=True)
    return count


def season_number(gen: Generation) -> int:
    """The season asked for, else one season of the call's series (all rows share it)."""
    named = _arg_int(gen, ("season", "season_number"))
    if named is not None:
        return named
    top = _call(gen)
    count = top.values.get("season_count") or gen.scope.inherited("season_count")
    number: int = top.once("season_number", lambda: gen.rng.randint(1, int(count or 4)))
    return number


def _season_length(gen: Generation) -> int:
    length: int = _call(gen).once(
        "season_length", lambda: gen.rng.choice(_ANIME_LENGTHS if _anime(gen) else _SEASON_LENGTHS))
    return length


def episode_number(gen: Generation) -> int:
    """Rows of a list are consecutive episodes of one season; a single episode falls within it."""
    scope = gen.scope
    length = _season_length(gen)
    if scope.in_list:  # a season's list starts at its first episode
        return 1 + scope.index
    named = _arg_int(gen, ("episode", "episode_number"))
    return named if named is not None else gen.rng.randint(1, length)


def air_date(gen: Generation) -> str:
    """When an episode aired: a season's rows a week apart, in episode order."""
    if gen.scope.in_list:
        first: dt.date = _call(gen).once("first_aired", lambda: gen.window_day("past_date") or gen.today - dt.timedelta(
            days=gen.rng.randint(7 * 12, 5 * 365)))
        return (first + dt.timedelta(days=7 * gen.scope.index)).isoformat()
    day = gen.window_day("past_date") or gen.today - dt.timedelta(days=gen.rng.randint(7, 5 * 365))
    return day.isoformat()


def episode_count(gen: Generation) -> int:
    """Episodes of the record's series (its seasons times a season's length) or season."""
    def make() -> int:
        seasons = gen.scope.values.get("season_count") or gen.scope.inherited("season_count")
        if seasons is None and gen.rng.random() < 0.5:
            seasons = season_count(gen)
        per = _season_length(gen)
        return int(seasons or 1) * per - (gen.rng.randint(0, per // 3) if seasons and seasons > 1 else 0)

    count: int = gen.scope.once("episode_count", make, inherit=True)
    return count


def watched_episodes(gen: Generation) -> int:
    """Episodes watched: no more than the record has."""
    total = episode_count(gen)
    return total if gen.rng.random() < 0.4 else gen.rng.randint(0, total)


def screen_runtime(gen: Generation) -> int:
    """Minutes of an episode (a sitcom's 22, a drama's 45 to 60, an anime's 24) or a film."""
    words = set(snake(gen.entity).split("_"))
    asked = str(gen.snaked_args.get("type") or "").lower()
    if words & {"movie", "movies", "film", "films"} or asked in ("movie", "movies", "film") or (
            words & {"title", "titles"} and asked not in ("series", "episode", "show", "shows", "tv", "anime")):
        return gen.rng.randint(84, 165)
    if _anime(gen):
        return gen.rng.choice((23, 24, 24, 24, 25))
    minutes: int = _call(gen).once("runtime", lambda: gen.rng.choice((22, 25, 30, 42, 44, 45, 50, 55, 58, 60)))
    return minutes + gen.rng.randint(-2, 3) if gen.scope.in_list else minutes


def track_count(gen: Generation) -> int:
    words = set(snake(gen.entity).split("_"))
    if words & {"playlist", "mix"}:
        lo, hi = 8, 120
    elif words & {"podcast", "feed"}:
        lo, hi = 10, 400  # a podcast's episodes
    else:
        lo, hi = 6, 18  # an album or a release
    count: int = gen.scope.once("track_count", lambda: gen.rng.randint(lo, hi), inherit=True)
    return count


def track_position(gen: Generation) -> int:
    """A track's place on its release: rows of a track list count up from 1."""
    scope = gen.scope
    if scope.in_list:
        return scope.index + 1
    return gen.rng.randint(1, 12)


def another_person(gen: Generation) -> str:
    """A person of the record who is not the one it names (drawn apart from the record's ``name``)."""

    own = gen.scope.values.get("person")
    names = faker_pool("name")
    pick = str(gen.rng.choice(names))
    return pick if pick != own else str(names[(names.index(pick) + 1) % len(names)])


def image_path(gen: Generation) -> str:
    """An image's path on the provider's image server, as TMDb writes it (``/<27 chars>.jpg``)."""
    return "/" + "".join(gen.rng.choice(_BASE62) for _ in range(27)) + ".jpg"


MEDIA_NUMBER_KINDS: dict[str, Callable[[Generation], Any]] = {
    "season_count": season_count,
    "season_number": season_number,
    "episode_number": episode_number,
    "episode_count": episode_count,
    "watched_episodes": watched_episodes,
    "track_count": track_count,
    "track_position": track_position,
    "image_path": image_path,
    "another_person": another_person,
    "screen_runtime": screen_runtime,
    "reading_minutes": reading_minutes,
    "screen_runtime_text": lambda g: f"{screen_runtime(g)} min",
    "air_date": air_date,
}
