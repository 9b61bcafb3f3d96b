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
    name_key = next((k for k in _NAMES if k in props), None)
    date_key = next((k for k in _DATES if k in props), None)
    if name_key is None or date_key is None:
        return None
    plan = {k: snake(k) for k in props}

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
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


_DROP: Any = object()


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
