"""A call that lists a closed reference vocabulary (every dog breed, every fruit, every
model a service offers) answers with the whole list, in its order, not a random handful.

``whole_kind`` is decided once per array schema (plan time); ``whole_count`` per call.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake
from env_server.simulators.paging import DIRECTION_ARGS, LIMIT_ARGS, SORT_ARGS

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation
    from env_server.simulators.records import RecordScope

# Arguments that shape how a list is shown, not which entries it holds.
_SHAPING = frozenset(LIMIT_ARGS + SORT_ARGS + DIRECTION_ARGS + ("lang", "language", "format", "fields"))
# Larger vocabularies are samples of an open world (words, species), not closed lists.
MAX_WHOLE = 200
_MARK = "whole:"


def whole_kinds(item_props: Mapping[str, Any], hints: Mapping[str, str]) -> tuple[str, ...]:
    """The kinds a list's rows might be entries of: their fields' hints naming a whole
    vocabulary (``breed: dog_breed``, not ``sub_breeds: dog_breed.sub_breeds``)."""
    return tuple(h for key in item_props if (h := hints.get(key, "")) and "." not in h)


def whole_count(gen: Generation, kinds: tuple[str, ...]) -> tuple[str, int] | None:
    """(the record vocabulary, how many rows) when the call's own list lists all of one
    of ``kinds``: every entry (up to the call's limit); None when this list is no such
    listing (a filtered search, a nested list, plain values or an open vocabulary)."""
    scope, vocab = gen.scope, gen.facts.vocab
    if not scope.is_top or scope.in_list or any(snake(k) not in _SHAPING for k in gen.args):
        return None
    kind = next((k for k in kinds if k in vocab and vocab.get(k).records), None)
    if kind is None:
        return None
    size = len(vocab.get(kind).records)
    if size > MAX_WHOLE:
        return None
    limit = gen._limit()
    return kind, min(size, limit) if limit is not None and limit > 0 else size


def mark_whole(scope: RecordScope, kind: str) -> None:
    """Rows made under ``scope`` are the entries of ``kind`` in order (see ``nth_record``)."""
    scope.values[_MARK + kind] = True


def nth_record(scope: RecordScope, kind: str) -> dict[str, Any] | None:
    """The entry a row of a whole listing stands for: the ``index``-th, or None."""
    parent = scope.parent
    if not scope.in_list or parent is None or not parent.values.get(_MARK + kind):
        return None
    records = scope.gen.facts.vocab.get(kind).records
    return dict(records[scope.index % len(records)])


# Arguments that carry a search's term.
TERM_ARGS = ("term", "q", "query", "search", "search_term", "search_terms", "keyword", "keywords")


def named_count(gen: Generation, kinds: tuple[str, ...]) -> int | None:
    """How many entries of one of ``kinds`` (record vocabularies) the call's search term names,
    when it names some ("leg press": Leg Press, Single-Leg Press, Calf Press on Leg Press): a
    search lists each of them once, not the first again; None when the term names none."""
    if not gen.scope.is_top or gen.scope.in_list:
        return None
    term = next((v for k in TERM_ARGS if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), "")
    if not term:
        return None
    vocab = gen.facts.vocab
    return next((len(found) for k in kinds if k in vocab and vocab.get(k).records
                 and (found := vocab.containing(k, term))), None)
