"""Named days a person can check on a calendar: public holidays and observances.

A holiday list answers the year it is asked about (``year=2014`` lists 2014's holidays,
no year lists this year's), and a list of the *next* holidays starts at the session's
date and runs on into the next year, in date order. An observance (Checkiday's "National
Pizza Day") is a real named day on the date asked: the public holidays of that date, the
fun and awareness days of ``tool_specs/vocab/named_day.json`` that fall on it, and the
month-long observances running through it.

``CALENDAR_KINDS`` joins ``values.KINDS``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_YEAR_ARGS = ("year", "years")
_DATE_ARGS = ("date", "day", "on", "start", "start_date", "from")
_QUERY_ARGS = ("query", "q", "search", "keyword", "keywords", "term")
_PLAIN_WORDS = frozenset({"national", "international", "world", "month", "global", "awareness", "appreciation",
                          "against", "with", "from", "their"})
_SLUG_RE = re.compile(r"[^a-z0-9]+")


def asked_year(gen: Generation) -> int | None:
    """The year the call names (``year=2014``, ``"2014"``, or the start of a year window)."""
    for key in _YEAR_ARGS:
        value = gen.snaked_args.get(key)
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value.strip())
        if isinstance(value, int) and not isinstance(value, bool) and 1900 <= value <= 2100:
            return value
    years = gen.call_years
    return years[0] if years else None


def wants_upcoming(gen: Generation) -> bool:
    """Whether the tool lists the days to come: its spec writes their dates as future dates."""
    return "future_date" in gen.hints.values()


def holiday_pool(gen: Generation, country: str) -> list[tuple[dt.date, str]]:
    """The holidays a list answers, in date order: the year asked, or the coming year's from today on."""

    def make() -> list[tuple[dt.date, str]]:
        ref = gen.facts.reference
        year = asked_year(gen)
        if year is None and wants_upcoming(gen):
            ahead = ref.holidays(country, gen.today.year) + ref.holidays(country, gen.today.year + 1)
            until = gen.today + dt.timedelta(days=365)
            return [h for h in ahead if gen.today <= h[0] < until]
        return ref.holidays(country, year or gen.today.year)

    found: list[tuple[dt.date, str]] = gen.scope.top.once(f"holidays:{country}", make)
    return found


def asked_day(gen: Generation) -> dt.date:
    """The date the call asks about (today when it names none)."""
    return gen.call_date(_DATE_ARGS) or gen.today


def _named_days(gen: Generation) -> tuple[dict[str, Any], ...]:
    return gen.facts.vocab.get("named_day").records


def observances_on(gen: Generation, day: dt.date) -> list[str]:
    """The named days of ``day``: its public holidays (the record's country, else the US),
    the fun and awareness days that fall on it, then the month's long observances."""

    def make() -> list[str]:
        ref = gen.facts.reference
        country = gen.scope.place.country_code if gen.call_place() is not None else "US"
        found = [name for when, name in ref.holidays(country, day.year) if when == day]
        rows = _named_days(gen)
        found += [str(r["name"]) for r in rows if r["month"] == day.month and r["day"] == day.day]
        found += [str(r["name"]) for r in rows if r["month"] == day.month and r["day"] == 0]
        return list(dict.fromkeys(found))

    names: list[str] = gen.scope.top.once(f"observances:{day.isoformat()}", make)
    return names


def _matching(gen: Generation) -> list[str]:
    """A search's named days: those whose name holds every word of the query (any date)."""
    query = next((v for k in _QUERY_ARGS if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), None)
    if query is None:
        return []
    words = {w for w in _SLUG_RE.split(query.lower()) if w}
    found: list[str] = gen.scope.top.once("observance_matches", lambda: [
        str(r["name"]) for r in _named_days(gen) if words <= set(_SLUG_RE.split(str(r["name"]).lower()))])
    return found


def observance_name(gen: Generation) -> str:
    """One named day of the date asked (item ``index`` of a list, in the day's order)."""
    scope = gen.scope

    def pick() -> str:
        names = _matching(gen) or observances_on(gen, asked_day(gen))
        return names[scope.index % len(names) if scope.in_list else gen.rng.randrange(len(names))]

    name: str = scope.once("observance", pick)
    return name


def observance_slug(gen: Generation) -> str:
    return _SLUG_RE.sub("-", observance_name(gen).lower()).strip("-")


def observance_keyword(gen: Generation) -> str:
    """A word a person searches named days by ("pizza", "kindness"): a telling word of one."""
    words = sorted({w for r in _named_days(gen) for w in _SLUG_RE.split(str(r["name"]).lower())
                    if len(w) > 3 and w not in _PLAIN_WORDS})
    return words[gen.rng.randrange(len(words))]


def observance_count(gen: Generation) -> int:
    """How many named days a list shows: every match of a search (maybe none), or every
    named day of the date asked."""
    if any(isinstance(gen.snaked_args.get(k), str) and gen.snaked_args[k].strip() for k in _QUERY_ARGS):
        return len(_matching(gen))
    return len(observances_on(gen, asked_day(gen)))


def holiday_count(gen: Generation) -> int:
    """How many holidays a list shows: all of the year asked (or all those to come)."""
    place = gen.call_place()
    return len(holiday_pool(gen, place.country_code if place else "US") or holiday_pool(gen, "US"))


# Kinds of a closed list: a list whose items are drawn from one of these shows the whole
# list (see ``closed_lists``).
CALENDAR_LISTS: dict[str, Callable[[Generation], int]] = {
    "observance_name": observance_count,
    "holiday_name": holiday_count,
    "holiday_date": holiday_count,
}

CALENDAR_KINDS: dict[str, Callable[[Generation], Any]] = {
    "observance_name": observance_name,
    "observance_slug": observance_slug,
    "observance_keyword": observance_keyword,
}
