"""How many items a generated list holds, and in which order: what ``plans`` decides for an
array once per schema and applies per call.

A list the question fixes holds that many (all of a closed list, the one condition of a report's
"weather" list), cut to the call's limit, to the places a place search names and to the steps
of a series that fit the call's window; found items come in time order, tides alternate, and a
list of tags does not repeat itself. The caller's own records (travelers, line items) come back
as sent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators import timeline
from env_server.simulators.closed_lists import CLOSED_LISTS, SCALAR_LISTS
from env_server.simulators.metar import station_list
from env_server.simulators.naming import resolve_kind
from env_server.simulators.values import draw_kind
from env_server.simulators.weather_conditions import is_condition_list

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# A compiled schema node: (generation, series index or None) -> value.
Node = Callable[["Generation", "int | None"], Any]


def _one(gen: Generation) -> int:
    return 1


def sent_records(gen: Generation, name: str) -> list[dict[str, Any]] | None:
    sent = gen.args.get(name)
    return sent if isinstance(sent, list) and sent and all(isinstance(v, dict) for v in sent) else None


def arrange(out: list[Any], gen: Generation, when: str | None, stepping: bool, tides: bool, scalars: bool,
            least: int, draw: Callable[[int], Any]) -> list[Any]:
    """Items in their order: found items by time (a series already steps), tides alternating, a
    list of tags or names without repeats, a list of records not one record n times."""
    if when is not None:
        out = timeline.sort_by_time(out, when, gen.now, series=stepping)
    if tides:
        timeline.alternate_tides(out)
    return distinct(out, least, scalars, draw)


def sampled_enum(items: Mapping[str, Any], unique: bool) -> list[Any] | None:
    """The enum a list of distinct items is sampled from, if it is one."""
    enum = items.get("enum")
    return enum if isinstance(enum, list) and enum and unique else None


def capped(whole: Node, most: int) -> Node:
    return lambda gen, index: whole(gen, index)[:most]


def vocab_list(kind: str, lo: int, hi: int) -> Node:
    """A record vocabulary's list field (``dog_breed.sub_breeds``): the record's own list."""

    def vocab_list(gen: Generation, index: int | None) -> list[Any]:
        value = draw_kind(kind, gen)
        found = [str(v) for v in value] if isinstance(value, list) else [str(value)]
        return found[: max(lo, min(hi, len(found)))]

    return vocab_list


def fixed_count(name: str, item_name: str, entity: str, item_props: Mapping[str, Any],
                 hints: Mapping[str, str]) -> Callable[[Generation], int] | None:
    """How many items a list holds when the list says so itself: all of a closed list (a year's
    holidays, a day's observances), the one condition of a report's "weather" list, the images asked."""
    if is_condition_list(name, item_props):
        return _one
    if not item_props:  # a list of scalars the call counts (a Dog CEO call's ``count`` images)
        return SCALAR_LISTS.get(resolve_kind(name, entity, "", hints) or "")
    return next((CLOSED_LISTS[k] for k in (resolve_kind(f, entity, item_name, hints) for f in item_props)
                 if k in CLOSED_LISTS), None)


def asked_count(gen: Generation, n: int, objects: bool, step: Any, stationed: bool) -> int:
    """``n`` items cut to what the call asks: its limit, the places a place search names, one
    report per station asked (``stationed``, ``metar``), the steps of a series (``step``, or
    None) that fit its window, with as many days as asked (a 2-day forecast has two)."""
    limit = gen._limit()
    if limit is not None and limit > 0:
        n = min(n, limit)
    if objects and gen.scope.is_top and not gen.scope.in_list and (named := gen.search_places) is not None:
        n = min(n, len(named))  # a place search lists the places it names, or none
    if stationed and (stations := station_list(gen)):
        n = len(stations)
    if step is not None:
        room = gen.series_room(step)
        n = min(n, room) if room else n
        if step == timeline.ONE_DAY and (days := timeline.days_asked(gen.args)) is not None:
            n = days
    return n


# Fresh draws tried to top a list of names up to its schema's minItems once repeats are dropped.
TOP_UP_TRIES = 8


def distinct(items: list[Any], least: int, scalars: bool, draw: Callable[[int], Any]) -> list[Any]:
    """A list of tags or names without repeats, topped up with fresh draws (item ``len(items) +
    k``) when that leaves fewer than the ``least`` items the schema asks for (three ingredients,
    not "basil" twice), as drawn when no fresh value comes; a list of records that says one
    record n times says it once (a word's one sense is listed once)."""
    if scalars:
        uniq: list[Any] = []
        for v in items:
            if v not in uniq:
                uniq.append(v)
        for k in range(TOP_UP_TRIES):
            if len(uniq) >= least:
                break
            v = draw(len(items) + k)
            if v not in uniq:
                uniq.append(v)
        return uniq if len(uniq) >= least else items
    if len(items) > 1 and items[1] == items[0] and all(v == items[0] for v in items):
        return items[: max(least, 1)]
    return items
