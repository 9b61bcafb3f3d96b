"""A record named from a record vocabulary carries that entry's other facts.

A cocktail record's name comes from ``vocab/cocktail.json``, whose entries also say the
drink's category, whether it is alcoholic, its glass and how it is made; a field named like
one of those facts (``strGlass``, ``glass``, ``category``) takes it from the same entry, so a
Margarita is a "Cocktail", "Alcoholic", served in a margarita glass, and never a random pick
of the schema's enum. TheCocktailDB's Hungarian ``str`` prefix is read past.

``entry_field_kind(field, entity)`` is asked once per schema node (``plans``) for fields
without a hint: a profile's hint still decides where it gives one.
"""

from __future__ import annotations

import functools

from env_server.simulators.naming import snake, title_kind
from env_server.simulators.records import default_facts

_PREFIXES = ("str_",)


@functools.lru_cache(maxsize=8192)
def entry_field_kind(field: str, entity: str) -> str | None:
    """``<vocabulary>.<key>`` when the record's title vocabulary has entries with a fact named
    like ``field`` (other than the entry's name), else None."""
    kind = title_kind(entity)
    vocab = default_facts().vocab
    if kind not in vocab:
        return None
    records = vocab.get(kind).records
    if not records:
        return None
    low = snake(field)
    low = next((low[len(p):] for p in _PREFIXES if low.startswith(p)), low)
    first, *facts = records[0]
    if low == first or low not in facts or not isinstance(records[0][low], (str, int, float)):
        return None
    return f"{kind}.{low}"
