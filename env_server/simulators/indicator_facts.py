"""A figure of official statistics reads as its indicator: a unit, a magnitude, a year, a publisher.

A statistics record (the ``statistic`` template: World Bank style indicators, national
statistics offices) names its indicator, and the rest follows from it and from the country:
"Unemployment rate (%)" is a percentage between a few and fifteen, written to one decimal;
"Population, total" is the country's head count in persons; a debt ratio comes from the
finance ministry and an inflation rate from the central bank. The magnitudes and publishers
are a fact table of our own (``tool_specs/reference/indicators.json``).

The figure is stable: it hashes the session seed, the country, the indicator and the year, so
every tool of a session quotes the same unemployment rate for Spain in 2019, and the next
year's figure lies near it. The year is the one the call asks about (``year``, ``fiscalYear``)
and never one that has not ended yet.

``indicator_step(entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import functools
import json
import re
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.countries import CountryFact
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_YEAR_ARGS = ("year", "fiscal_year", "fiscalyear", "reference_year", "data_year")
_COUNTRY_FIELDS = ("country", "country_code", "country_name", "area")
_COUNTRY_ARGS = ("country", "country_code", "country_name", "countries")
_UK = "GB"
# A head count from the fact sheets' year on, by about this much a year.
_SHEET_YEAR, _GROWTH = 2020, 1.008


@dataclass(frozen=True)
class IndicatorSpec:
    """How one indicator is published: unit, usual range, digits and the office that issues it."""

    unit: str
    low: float
    high: float
    digits: int
    office: str
    topics: tuple[str, ...]  # words of a tool's description that ask for this indicator


@functools.lru_cache(maxsize=1)
def _table() -> tuple[dict[str, IndicatorSpec], dict[str, tuple[str, ...]]]:
    path = resources.files("tool_specs") / "reference" / "indicators.json"
    loaded = json.loads(path.read_text(encoding="utf-8"))
    indicators = {name: IndicatorSpec(**{**entry, "topics": tuple(entry["topics"])})
                  for name, entry in loaded["indicators"].items()}
    offices = {key: tuple(names) for key, names in loaded["offices"].items()}
    return indicators, offices


def indicators() -> dict[str, IndicatorSpec]:
    """The indicators the fact table knows, by the name a record shows."""
    return _table()[0]


@functools.lru_cache(maxsize=4096)
def topical(about: str) -> frozenset[str]:
    """The indicators a tool's description asks for ("public finance, debt" asks for the debt
    ratio); empty when it names none. Read once per description."""
    low = about.lower()
    return frozenset(name for name, spec in indicators().items()
                     if any(re.search(rf"\b{re.escape(t)}\b", low) for t in spec.topics))


def _enum(props: Mapping[str, Any], key: str) -> tuple[str, ...] | None:
    schema = props.get(key)
    enum = schema.get("enum") if isinstance(schema, dict) else None
    return tuple(str(e) for e in enum) if isinstance(enum, list) else None


def indicator_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a statistics record agree with its indicator, or None."""
    known = indicators()
    named = _enum(props, "indicator")
    value = props.get("value")
    if named is None or known.keys().isdisjoint(named) or not isinstance(value, dict):
        return None
    if value.get("type") not in ("number", "integer"):
        return None
    integer = value.get("type") == "integer"
    units, sources = _enum(props, "unit"), _enum(props, "source")
    year_bounds = _bounds(props.get("year"))
    offices = _table()[1]

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        asked = [n for n in named if n in topical(gen.about)]
        if asked and record.get("indicator") not in asked and "indicator" not in gen.snaked_args:
            record["indicator"] = gen.rng.choice(asked)  # the tool's own topic, not any indicator
        spec = known.get(str(record.get("indicator")))
        if spec is None:
            return
        country = _country(record, gen)
        code = country.cca2 if country is not None else gen.scope.place.country_code
        if "year" in record:
            record["year"] = _year(record.get("year"), gen, year_bounds)
        shown = record.get("year")
        year = shown if isinstance(shown, int) else gen.today.year - 1
        figure = figure_of(spec, gen.session_seed, code, str(record["indicator"]), year,
                           country.population if country is not None else None)
        record["value"] = int(round(figure)) if integer else figure
        if "unit" in record and (units is None or spec.unit in units):
            record["unit"] = spec.unit
        if "source" in record:
            choices = [o for o in offices.get(spec.office, ()) if sources is None or o in sources]
            if choices:
                record["source"] = choices[0] if code == _UK or len(choices) == 1 else choices[-1]

    return step


def figure_of(spec: IndicatorSpec, session_seed: int, country: str, indicator: str, year: int,
              population: int | None) -> float:
    """The indicator's figure for a country and year: stable per session, near the year before."""
    if spec.unit == "persons":
        base = population or 5_000_000
        return float(int(base * _GROWTH ** (year - _SHEET_YEAR)))
    level = _fraction(f"{session_seed}|{country}|{indicator}")
    wobble = (_fraction(f"{session_seed}|{country}|{indicator}|{year}") - 0.5) * 0.12
    share = min(1.0, max(0.0, level + wobble))
    return round(spec.low + (spec.high - spec.low) * share, spec.digits)


def _fraction(text: str) -> float:
    return zlib.crc32(text.encode()) / 0xFFFFFFFF


def _bounds(schema: Any) -> tuple[int, int]:
    low = schema.get("minimum", 1960) if isinstance(schema, dict) else 1960
    high = schema.get("maximum", 9999) if isinstance(schema, dict) else 9999
    return int(low), int(high)


def _year(drawn: Any, gen: Generation, bounds: tuple[int, int]) -> Any:
    """The year the call asks about, else the drawn one; never a year still running (a call
    asking for this year gets the latest published one, as statistics APIs answer)."""
    last = min(bounds[1], gen.today.year - 1)
    asked = next((v for k in _YEAR_ARGS if isinstance(v := gen.snaked_args.get(k), int)
                  and not isinstance(v, bool)), None)
    year = asked if asked is not None else drawn
    if not isinstance(year, int) or isinstance(year, bool):
        return drawn
    return max(bounds[0], min(last, year))


def _country(record: Mapping[str, Any], gen: Generation) -> CountryFact | None:
    countries = gen.facts.reference.countries
    args = gen.snaked_args
    for value in [record.get(k) for k in _COUNTRY_FIELDS] + [args.get(k) for k in _COUNTRY_ARGS]:
        if isinstance(value, list) and value:
            value = value[0]
        if isinstance(value, str) and (found := countries.find(value)) is not None:
            return found
    return None
