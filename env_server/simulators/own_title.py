"""A record's own title, drawn once: the field that names the record and the slug of its page agree.

A track's ``name`` hinted ``song`` and its ``url`` slug are one title ("Night Bus Home" at
``/tracks/night-bus-home``), not two draws. The title field stores its value where
``values._record_title`` looks (the scope's ``title``), so whichever of the two a record
fills first, the other repeats it.
"""

from __future__ import annotations

import functools

from env_server.simulators.naming import snake
from env_server.simulators.values import KINDS

_TITLE_FIELDS = frozenset({"title", "name", "display_name", "displayname", "short_title", "headline"})
# Engine kinds that name a record: a title from a vocabulary, a person, a company, a place.
_NAME_KINDS = frozenset({"song", "album", "movie", "book", "recipe", "name", "company", "author", "artist", "player",
                         "team", "city", "country", "airport_name", "holiday_name", "entity_title", "instrument_name",
                         "first_name", "last_name", "weather_condition", "observance_name",
                         "product_listing", "genre_show_title", "job_title"})
# Kinds that are not a name: a record "named" by one of these has no title to share.
_NOT_NAMES = frozenset({"id", "uuid", "code", "slug", "url", "own_url", "image_url", "email", "domain", "ip",
                        "file_name", "title", "tag", "word", "count", "status", "version"})


@functools.lru_cache(maxsize=4096)
def names_the_record(field: str, entity: str, kind: str | None) -> bool:
    """Whether ``field`` of an ``entity`` record is its title or name (not an id, a code or a link)."""
    if kind is None or kind in _NOT_NAMES or (kind in KINDS and kind not in _NAME_KINDS):
        return False
    low = snake(field)
    if low in _TITLE_FIELDS:
        return True
    words = snake(entity).split("_")
    return any(low in (f"{w}_name", f"{w}_title") for w in words)


def own_arg_names(args: dict[str, object], id_param: str | None) -> frozenset[str]:
    """The snake_case names of the call's arguments that name the record it reads or writes
    (its id parameter, its title): the record's own, not its parts' (``Generation.record_only``)."""
    named = {snake(k) for k in args if snake(k) in _TITLE_FIELDS or k == "title"}
    return frozenset(named | ({snake(id_param)} if id_param else set()))
