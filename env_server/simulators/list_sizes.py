"""How many items a generated list has, and which: the count the call's question sets.

``plans`` compiles an array once and asks, per call, ``asked_count`` for its length (the
call's limit; the places a place search names; one report per station asked; a series
that fits the call's window with as many days as asked) and ``distinct`` for its items (a
list of names never repeats one, a list of records never says one record n times).
``series_plan`` reads, once per schema, whether items lie on a time axis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from env_server.simulators import timeline
from env_server.simulators.metar import station_list

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# Fields that place an item on a series' time axis (the items step with their index).
SERIES_FIELDS = frozenset({"date", "time", "day", "datetime", "timestamp", "hour", "valid_date", "forecast_date", "dt"})


def series_plan(item_props: dict[str, Any], item_name: str, entity: str) -> tuple[bool, Any, str | None, bool]:
    """Items on a time axis: whether they step as a series (and fit the call's window), how
    far apart, the field that places them (found items are sorted by it), and whether they
    are tides that alternate high and low."""
    stepping = any(k.lower() in SERIES_FIELDS for k in item_props)
    when = timeline.when_key(item_props) if item_props else None
    tides = stepping and set((item_props.get("type") or {}).get("enum") or ()) == {"high", "low"}
    return stepping, timeline.cadence(item_name, entity), when, tides


def asked_count(gen: Generation, n: int, objects: bool, stationed: bool, series: tuple[bool, Any]) -> int:
    """The count the call's own question sets: its limit; the places a place search names,
    or none; one report per station asked (``metar``); a series that fits its window, with
    as many days as asked (a 2-day forecast has two)."""
    stepping, step = series
    limit = gen._limit()
    if limit is not None and limit > 0:
        n = min(n, limit)
    if objects and gen.scope.is_top and not gen.scope.in_list and (named := gen.search_places) is not None:
        n = min(n, len(named))
    if stationed and (stations := station_list(gen)):
        n = len(stations)
    if stepping:
        room = timeline.series_room(gen._anchor_date, gen.call_window[1], step)
        n = min(n, room) if room else n
        if step == timeline.ONE_DAY and (days := timeline.days_asked(gen.args)) is not None:
            n = days
    return n


def distinct(out: list[Any], lo: int, scalars: bool) -> list[Any]:
    """A list of tags or names does not repeat itself, and a list of records does not say
    one record n times (a word's one sense is listed once)."""
    if scalars:
        uniq: list[Any] = []
        for v in out:
            if v not in uniq:
                uniq.append(v)
        return uniq if len(uniq) >= lo else out
    if len(out) > 1 and out[1] == out[0] and all(v == out[0] for v in out):
        return out[: max(lo, 1)]
    return out
