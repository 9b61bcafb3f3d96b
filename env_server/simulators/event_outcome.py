"""An event's outcome agrees with its date: a launch, a match or a flight still to come is
Go, TBD or scheduled, one already held is a success, a failure or finished.

A record whose status field's enum mixes outcomes ("Success", "Failure", "FT") with states of
an event to come ("Go", "TBD", "NS") and which carries its event's moment (``net``,
``window_start``, ``date_utc``, ``date``) gets ``outcome_step(props)``, decided once per object
schema (``record_steps``). On each record it keeps a drawn status that fits the moment, and
otherwise draws one from the side that does (a held launch mostly succeeds). A boolean
``upcoming`` says whether the moment lies after now. States that fit either side (cancelled,
postponed) stay as drawn, and one under way (in flight, airing) stays when the moment is past.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake
from env_server.simulators.timeline import moment

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_STATUS_FIELDS = ("status", "launch_status", "event_status", "match_status", "state", "outcome", "result_status")
# The event's own moment, in the order a record is read for it.
MOMENT_FIELDS = ("net", "window_start", "date_utc", "launch_date", "launch_date_utc", "event_date", "start_time",
                 "start_date", "scheduled_at", "scheduled_time", "kickoff", "date_time", "datetime", "date", "start")
# Statuses of an event still to come, and outcomes of one held (lower-cased).
_PENDING = frozenset({"go", "tbd", "tbc", "hold", "scheduled", "upcoming", "planned", "confirmed",
                      "not started", "ns", "timed", "to be determined", "to be confirmed", "go for launch"})
_HELD = frozenset({"success", "successful", "failure", "failed", "partial failure", "completed", "complete",
                   "finished", "ft", "aet", "pen", "final", "ended", "landed", "arrived"})
_EITHER = frozenset({"cancelled", "canceled", "postponed", "suspended", "abandoned", "delayed"})
# States of an event under way: true of one begun, not of one to come.
_UNDERWAY = frozenset({"in flight", "current", "live", "in progress", "ongoing", "in play", "active", "airing",
                       "1h", "2h", "ht"})
_SUCCESS = frozenset({"success", "successful", "completed", "finished", "ft", "final", "landed", "arrived"})
SUCCESS_SHARE = 0.85  # most launches held succeed


def _sides(values: list[Any]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None:
    """(statuses to come, successes held, other outcomes held) of an enum, or None unless it has both sides."""
    texts = [v for v in values if isinstance(v, str)]
    pending = tuple(v for v in texts if v.lower() in _PENDING)
    held = [v for v in texts if v.lower() in _HELD]
    if not pending or not held:
        return None
    won = tuple(v for v in held if v.lower() in _SUCCESS)
    return pending, won, tuple(v for v in held if v not in won)


def _field(props: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    by_snake = {snake(k): k for k in props}
    return next((by_snake[n] for n in names if n in by_snake), None)


def outcome_step(props: Mapping[str, Any]) -> Step | None:
    """The step that makes a record's status (and ``upcoming``) agree with its moment, if it has both."""
    when = _field(props, MOMENT_FIELDS)
    status = _field(props, _STATUS_FIELDS)
    enum = props[status].get("enum") if status is not None and isinstance(props[status], dict) else None
    sides = _sides(enum) if isinstance(enum, list) else None
    upcoming = _field(props, ("upcoming", "is_upcoming"))
    if when is None or sides is None and upcoming is None:
        return None
    outcome = _field(props, ("success", "succeeded")) if upcoming is not None else None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        at = moment(record.get(when), when)
        if at is None:
            return
        future = at > gen.now.replace(tzinfo=None)
        if upcoming is not None and isinstance(record.get(upcoming), bool):
            record[upcoming] = future
            if future and outcome is not None:
                record.pop(outcome, None)  # an outcome not yet known is left out (the API's null)
        if status is not None and sides is not None:
            _agree(record, status, sides, future, gen)

    return step


def _agree(record: dict[str, Any], status: str, sides: tuple[tuple[str, ...], ...], future: bool,
           gen: Generation) -> None:
    """Keep a drawn status that fits the event's side of now, else draw one that does."""
    pending, won, lost = sides
    drawn = record.get(status)
    low = drawn.lower() if isinstance(drawn, str) else ""
    if low in _EITHER or (low in _PENDING) == future and (future or low in _HELD or low in _UNDERWAY):
        return
    if future:
        record[status] = gen.rng.choice(pending)
    elif won and (not lost or gen.rng.random() < SUCCESS_SHARE):
        record[status] = gen.rng.choice(won)
    else:
        record[status] = gen.rng.choice(lost or won)
