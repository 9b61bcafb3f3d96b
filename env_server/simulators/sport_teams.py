"""Teams of the sport an API is about: a Formula One table lists constructors, a cricket
scoreboard national sides, an NHL standings table hockey clubs, never the Knicks in all three;
a player's position is one of the sport's (a goalkeeper, a point guard, a shortstop).

The sport follows from words of the provider's name and the tool's description (decided once
per pair, cached), or from a ``sport`` argument; an API that names none is taken to be about
football, the sport most multi-sport databases mostly hold. The teams are facts, listed by sport
in ``tool_specs/reference/sports_teams.json``. One answer names a team once while others remain:
a fixture's two sides differ, a league table's rows are distinct clubs.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.draws import draw_unused, faker_pool
from env_server.simulators.reference_tables import reference_table

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation


@functools.lru_cache(maxsize=1)
def _table() -> tuple[str, tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...]]:
    data = reference_table("sports_teams.json")
    sports = tuple(
        (s["sport"], re.compile(r"\b(" + "|".join(re.escape(k) for k in s["keywords"]) + r")\b"), tuple(s["teams"]))
        for s in data["sports"])
    return data["default"], sports


@functools.lru_cache(maxsize=4096)
def sport_of(text: str) -> str:
    """The sport a provider's name and a tool's description speak of (the default if none)."""
    default, sports = _table()
    low = text.lower()
    for sport, words, _ in sports:
        if words.search(low):
            return sport
    return default


@functools.lru_cache(maxsize=16)
def positions_of(sport: str) -> tuple[str, ...]:
    data = reference_table("sports_teams.json")
    by_sport = {s["sport"]: tuple(s["positions"]) for s in data["sports"]}
    return by_sport.get(sport) or by_sport[data["default"]]


@functools.lru_cache(maxsize=16)
def teams_of(sport: str) -> tuple[str, ...]:
    default, sports = _table()
    by_sport = {s: teams for s, _, teams in sports}
    return by_sport.get(sport) or by_sport[default]


def _call_sport(gen: Generation) -> str:
    asked = gen.snaked_args.get("sport")
    return sport_of(asked) if isinstance(asked, str) and asked else sport_of(f"{gen.provider} {gen.about}")


def team(gen: Generation) -> str:
    """A team of the call's sport, not yet named in this answer while others remain."""
    options = teams_of(_call_sport(gen))
    used: set[str] = gen.scope.top.values.setdefault("drawn:team", set())
    value: str = draw_unused(gen, options, used, gen.rng.choice(options), 4)
    return value


def playing_position(gen: Generation) -> str:
    """Where a player of the call's sport plays: a point guard, a goalkeeper, a shortstop."""
    return gen.rng.choice(positions_of(_call_sport(gen)))


def racing_team(gen: Generation) -> str:
    """A Formula One constructor (a ``constructorName``), whatever words the tool uses."""
    return gen.rng.choice(teams_of("motor_racing"))


def male_player(gen: Generation) -> str:
    """A player of a men's league (MLB, the NBA): a man's name."""
    return gen.rng.choice(faker_pool("name_male"))


# Kinds of players and their shirts: a jersey number is 0-99, as the leagues allow.
SPORT_KINDS: dict[str, Callable[[Generation], Any]] = {
    "jersey_number": lambda gen: gen.rng.randint(0, 99),
    "male_player": male_player,
}
