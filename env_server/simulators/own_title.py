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
# Engine kinds that draw a title from a vocabulary (the others are people, places, codes, ...).
_TITLE_KINDS = frozenset({"song", "album", "movie", "book", "recipe"})


@functools.lru_cache(maxsize=4096)
def names_the_record(field: str, entity: str, kind: str | None) -> bool:
    """Whether ``field`` of an ``entity`` record is its title, drawn from a title vocabulary."""
    if kind is None or (kind in KINDS and kind not in _TITLE_KINDS):
        return False
    low = snake(field)
    if low in _TITLE_FIELDS:
        return True
    words = snake(entity).split("_")
    return any(low in (f"{w}_name", f"{w}_title") for w in words)
