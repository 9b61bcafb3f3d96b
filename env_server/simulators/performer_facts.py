"""A ticketing site's performer is of a type its taxonomy has, and named as that type is.

SeatGeek files a performer under a type: a band (the common case), a league's team (``nba``,
``mlb``), a comedian, a theatre production. The type is never a book or film genre, and the
name follows it: a band's name for a band, a team's for a team, a person's for a comedian, a
show's for a production; a band's genres are music genres, other performers have none. The
types, their names' vocabularies and how common each is are data (``vocab/performer_type.json``).

``performer_step(entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.draws import slugify
from env_server.simulators.naming import snake
from env_server.simulators.records import default_facts

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_PERFORMERS = frozenset({"performer", "performers", "attraction", "attractions"})
_TYPE_FIELDS = ("type", "performer_type", "taxonomy", "category")
_NAME_FIELDS = ("name", "performer_name", "short_name")
_GENRE_FIELDS = ("genre", "genres")


@functools.lru_cache(maxsize=1)
def _types() -> tuple[dict[str, Any], ...]:
    """Each type once per unit of its weight: a seeded pick follows how common it is."""
    records = default_facts().vocab.get("performer_type").records
    return tuple(r for r in records for _ in range(int(r["weight"])))


def performer_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that gives a performer a real type and a name of that type, or None."""
    if not set(snake(entity).split("_")) & _PERFORMERS:
        return None
    kind_key = next((k for k in props if snake(k) in _TYPE_FIELDS and _free_text(props[k])), None)
    if kind_key is None:
        return None
    name_key = next((k for k in props if snake(k) in _NAME_FIELDS), None)
    genre_key = next((k for k in props if snake(k) in _GENRE_FIELDS), None)
    slug_key = "slug" if "slug" in props else None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        from env_server.simulators.values import draw_kind  # values imports the record steps' modules

        sent = gen.snaked_args
        kind = _pick(record.get(kind_key), gen)
        record[kind_key] = kind["type"]
        if name_key is not None and name_key in record and snake(name_key) not in sent and gen.scope.is_top is False:
            record[name_key] = str(draw_kind(kind["name_kind"], gen))
            if slug_key is not None and slug_key in record:
                record[slug_key] = slugify(record[name_key])
        if genre_key is not None and genre_key in record:
            genres = [str(draw_kind(kind["genre_kind"], gen))] if kind["genre_kind"] else []
            record[genre_key] = genres if isinstance(record[genre_key], list) else (genres[0] if genres else "")

    return step


def _pick(drawn: Any, gen: Generation) -> dict[str, Any]:
    """The type the record already names (a filter's), else a seeded pick by weight."""
    types = _types()
    named = next((t for t in types if isinstance(drawn, str) and t["type"] == drawn.lower()), None)
    return named or types[gen.rng.randrange(len(types))]


def _free_text(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "string" and "enum" not in schema
