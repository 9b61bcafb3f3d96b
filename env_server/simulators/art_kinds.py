"""A museum object's ``classification`` is the kind of thing it is ("Prints", "Coins",
"Vessels"), from ``tool_specs/vocab/artwork_classification.json``, not a web category
("Careers"). Decided once per field when a plan compiles (``naming.resolve_kind``)."""

from __future__ import annotations

import functools

from env_server.catalog.words import snake

_OBJECTS = frozenset({"object", "objects", "artwork", "artworks", "art", "painting", "paintings", "print", "prints"})
_FIELDS = frozenset({"classification", "classification_title", "object_classification"})
_NARROWABLE = frozenset({None, "category", "tag", "genre"})


@functools.lru_cache(maxsize=4096)
def art_kind(field: str, entity: str, hint: str | None) -> str | None:
    """``artwork_classification`` for a museum object's classification, else None."""
    if hint in _NARROWABLE and snake(field) in _FIELDS and set(snake(entity).split("_")) & _OBJECTS:
        return "artwork_classification"
    return None
