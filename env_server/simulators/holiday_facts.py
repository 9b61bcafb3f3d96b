"""A public holiday reads as one: what kind of day it is, where it is kept, whether its date moves.

A holiday list comes from the ``holidays`` package's nationwide calendar (``calendar_kinds``):
each day on it is a public, national holiday kept across the whole country. So its record
says so: ``types`` ``["Public"]`` (Nager.Date), ``type``/``primary_type`` "National holiday"
(Calendarific), ``global`` true with no counties, ``locations`` "All", a ``fixed`` flag that
is true when the day falls on the same date the next year, no ``launchYear`` after the day
itself, a local name in the country's own language (the package's translations: Germany's
New Year's Day is "Neujahr"), and a description that says what the day is rather than
advertising a workshop.

``holiday_step(entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import datetime as dt
import functools
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.errors import EntityNotFoundError
from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_NAMES = ("name", "localName", "local_name", "holiday_name", "title")
_DATES = ("date", "holiday_date", "observed", "date_iso")
_COUNTRY_FIELDS = ("countryCode", "country_code", "country", "iso_country")
_COUNTRY_ARGS = ("country_code", "country", "countries")
# How a schema names a nationwide public holiday, best first.
_PUBLIC = ("public", "national holiday", "national", "public holiday", "federal")
_KIND_FIELDS = frozenset({"type", "types", "primary_type", "holiday_type", "category", "categories"})
_GLOBAL_FIELDS = frozenset({"global", "is_global", "nationwide", "national"})
_WHERE_FIELDS = frozenset({"counties", "regions", "subdivisions", "states", "provinces"})
_DESCRIPTIONS = frozenset({"description", "desc", "summary", "details"})
_LOCAL_NAMES = frozenset({"local_name", "localname", "native_name", "name_local"})
# Country names read with an article ("a public holiday in the Netherlands").
_THE_ENDINGS = ("Republic", "Kingdom", "States", "Islands", "Emirates", "Federation", "Netherlands", "Philippines",
                "Bahamas", "Gambia", "Maldives", "Seychelles", "Comoros")
ALL_LOCATIONS = "All"


def holiday_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a holiday record say what kind of day it is, or None."""
    if "holiday" not in snake(entity).split("_"):
        return None
    flag_key = next((k for k in props if snake(k) in _FLAGS and props[k].get("type") == "boolean"), None)
    if flag_key is not None:
        return _check_step(flag_key, props)
    name_key = next((k for k in _NAMES if k in props), None)
    date_key = next((k for k in _DATES if k in props), None)
    if name_key is None or date_key is None:
        return None
    plan = {k: snake(k) for k in props}
    date_arg = snake(date_key)

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        if index is None:  # one holiday asked about: the day or the name the call gives
            _answer_asked(record, gen, name_key, date_key, date_arg)
        name, day = record.get(name_key), _day(record.get(date_key))
        if not isinstance(name, str) or day is None:
            return
        sent = gen.snaked_args
        for key, low in plan.items():
            if key not in record or low in sent:
                continue
            value = _fact(low, props[key], record[key], record, name, day, gen)
            if value is _DROP:
                del record[key]
            elif value is not None:
                record[key] = value

    return step


# A yes/no check's answer ("is today a public holiday in DE?").
_FLAGS = frozenset({"is_public_holiday", "is_holiday", "public_holiday", "is_bank_holiday"})


def _check_step(flag_key: str, props: Mapping[str, Any]) -> Step:
    """A yes/no holiday check answers from the country's calendar for the day asked (today
    when the call gives none): the flag, and the holiday's name and date when it is one."""
    name_key = next((k for k in _NAMES if k in props), None)
    date_key = next((k for k in _DATES if k in props), None)
    local_key = next((k for k in props if snake(k) in _LOCAL_NAMES), None)

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        sent = gen.snaked_args
        day = next((d for k in _DATES if (d := _day(sent.get(k))) is not None), gen.today)
        country = _country_code(record, gen)
        found = [n for d, n in gen.facts.reference.holidays(country, day.year) if d == day]
        record[flag_key] = bool(found)
        if date_key is not None:
            record[date_key] = day.isoformat()
        for key in (name_key, local_key):
            if key is None or key not in record:
                continue
            if found:
                record[key] = found[0] if key == name_key else local_names(country, day.year).get(day, found[0])
            else:
                del record[key]

    return step


_DROP: Any = object()
_NAME_ARGS = ("holiday_name", "holiday", "name")
_YEAR_ARGS = ("year",)


def _answer_asked(record: dict[str, Any], gen: Generation, name_key: str, date_key: str, date_arg: str) -> None:
    """A check of a day names that day's holiday, and a holiday asked by name is that one on
    its date in the year asked; neither existing is a 404, as a calendar API answers."""
    sent, stored = gen.snaked_args, gen.row_keys  # a stored row's own values are not asked
    asked_day = _day(sent.get(date_arg)) if isinstance(sent.get(date_arg), str) and date_arg not in stored else None
    asked_name = next((v for k in _NAME_ARGS if k not in stored and isinstance(v := sent.get(k), str) and v.strip()),
                      None)
    if asked_day is None and asked_name is None:
        return
    country = _country_code(record, gen)
    if asked_day is not None:
        found = [(d, n) for d, n in gen.facts.reference.holidays(country, asked_day.year) if d == asked_day]
        missing = f"{asked_day.isoformat()} is not a public holiday in {_country_name(record, gen)} (404)."
    else:
        assert asked_name is not None
        year = next((v for k in _YEAR_ARGS if isinstance(v := sent.get(k), int)), gen.today.year)
        found = _named(gen.facts.reference.holidays(country, year), asked_name)
        missing = f"No public holiday called '{asked_name}' in {_country_name(record, gen)} in {year} (404)."
    if not found:
        raise EntityNotFoundError(missing)
    day, name = found[0]
    record[name_key] = name
    shown = record.get(date_key)
    record[date_key] = day.isoformat() + (shown[10:] if isinstance(shown, str) and len(shown) > 10 else "")


def _named(calendar: list[tuple[dt.date, str]], asked: str) -> list[tuple[dt.date, str]]:
    """The calendar's days whose name is the one asked (any case), or holds it, or is held by it."""
    low = asked.strip().lower()
    exact = [(d, n) for d, n in calendar if n.lower() == low]
    return exact or [(d, n) for d, n in calendar if low in n.lower() or n.lower() in low]


def _fact(low: str, schema: Any, have: Any, record: Mapping[str, Any], name: str, day: dt.date,
          gen: Generation) -> Any:
    """The value a holiday's field ``low`` (now ``have``) takes, ``_DROP`` to leave it out, or
    None to keep it."""
    if low in _KIND_FIELDS:
        return _public(schema)
    if low in _GLOBAL_FIELDS and isinstance(have, bool):
        return True
    if low in _WHERE_FIELDS:
        return [] if isinstance(have, list) else None
    if low == "locations" and isinstance(have, str):
        return ALL_LOCATIONS
    if low == "launch_year":
        return _DROP
    if low == "fixed" and isinstance(have, bool):
        country = _country_code(record, gen)
        later = gen.facts.reference.holidays(country, day.year + 1)
        return any(n == name and d.month == day.month and d.day == day.day for d, n in later)
    if low in _DESCRIPTIONS and isinstance(have, str):
        return describe(name, day, _country_name(record, gen))
    if low in _LOCAL_NAMES and isinstance(have, str):
        return local_names(_country_code(record, gen), day.year).get(day)
    return None


@functools.lru_cache(maxsize=256)
def local_names(country: str, year: int) -> dict[dt.date, str]:
    """A country's holidays of ``year`` by date, named in its own language (the package's
    default language for it); empty when the package has no calendar for it."""
    import holidays

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            english = holidays.country_holidays(country, years=year)
            local = holidays.country_holidays(country, years=year, language=english.default_language)
    except (NotImplementedError, KeyError, ValueError):
        return {}
    return {day: str(name) for day, name in sorted(local.items())}


def describe(name: str, day: dt.date, country: str) -> str:
    """What a holiday is, in the words of the facts the record holds."""
    return f"{name} is a public holiday in {country}, kept nationwide on {day:%A, %B} {day.day}, {day.year}."


def _public(schema: Any) -> Any:
    """The schema's way of saying "public holiday": a one-item list or an enum value."""
    typ = schema.get("type") if isinstance(schema, dict) else None
    enum = (schema.get("items") or {}).get("enum") if typ == "array" else schema.get("enum") if isinstance(
        schema, dict) else None
    if not isinstance(enum, list):
        return None
    lowered = {str(e).lower(): e for e in enum}
    pick = next((lowered[p] for p in _PUBLIC if p in lowered), None)
    if pick is None:
        return None
    return [pick] if typ == "array" else pick


def _day(value: Any) -> dt.date | None:
    if not isinstance(value, str):
        return None
    try:
        return dt.date.fromisoformat(value[:10])
    except ValueError:
        return None


def _country_code(record: Mapping[str, Any], gen: Generation) -> str:
    found = _country(record, gen)
    return found.cca2 if found is not None else "US"


def _country_name(record: Mapping[str, Any], gen: Generation) -> str:
    found = _country(record, gen)
    if found is None:
        return "the United States"
    name: str = found.name
    return f"the {name}" if name.startswith("United ") or name.endswith(_THE_ENDINGS) else name


def _country(record: Mapping[str, Any], gen: Generation) -> Any:
    countries = gen.facts.reference.countries
    values = [record.get(k) for k in _COUNTRY_FIELDS] + [gen.snaked_args.get(k) for k in _COUNTRY_ARGS]
    for value in values:
        if isinstance(value, list) and value:
            value = value[0]
        if isinstance(value, str) and (found := countries.find(value)) is not None:
            return found
    return None
