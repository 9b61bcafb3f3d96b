"""Value kinds for countries, time zones, addresses and map features.

A record's country is one fact sheet (``countries.CountryFact``): in a country record it
is the country the call names (by code, name, currency, language or region) or, for a
list, one distinct country per item; elsewhere it is the country of the record's place.
Every country field (alpha-3 code, capital, region, calling code, flag ...) reads that
sheet, so the fields agree. Time-zone fields (offsets, DST, local time) follow the
place's IANA zone at the session's "now"; addresses are written in the country's style.
``GEO_KINDS`` joins ``values.KINDS``.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from env_server.simulators.addresses import Address
from env_server.simulators.countries import CountryFact, CountryIndex

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation
    from env_server.simulators.records import RecordScope

# Call arguments that pick countries, in the order they are read, with how.
_CODE_ARGS = ("code", "codes", "country_code", "country_codes", "cca2", "cca3", "alpha_code", "alpha_codes",
              "iso_code", "country_id", "country_ids", "iso2", "iso3", "country")
_NAME_ARGS = ("name", "country_name", "q", "query", "search", "name_prefix", "keyword")
_CURRENCY_ARGS = ("currency", "currency_code")
_LANGUAGE_ARGS = ("lang", "language", "language_code")
_REGION_ARGS = ("region", "subregion", "continent", "continent_code")


@functools.lru_cache(maxsize=4096)
def country_minded(entity: str) -> bool:
    """A record that is a country (its place is the capital; its population the nation's)."""
    return bool({"country", "countries"} & set(entity.lower().split("_")))


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [t.strip() for t in value.replace(";", ",").split(",") if t.strip()]
    if isinstance(value, list):
        return [str(v).strip() for v in value if isinstance(v, (str, int)) and str(v).strip()]
    return []


def call_countries(gen: Generation) -> tuple[CountryFact, ...]:
    """The countries a country tool's arguments ask for, in the caller's order."""
    index = gen.facts.reference.countries
    args = gen.snaked_args
    for keys, lookup in ((_CODE_ARGS, lambda t: [f] if (f := index.find(t)) else []),
                         (_CURRENCY_ARGS, index.using_currency),
                         (_LANGUAGE_ARGS, lambda t: index.speaking(t, gen.facts.reference.languages)),
                         (_REGION_ARGS, index.in_region),
                         (_NAME_ARGS, lambda t: [f] if (f := index.find(t)) else index.named_in(t))):
        found: list[CountryFact] = []
        for key in keys:
            for text in _texts(args.get(key)) if len(str(args.get(key, ""))) <= 200 else []:
                found += [f for f in lookup(text) if f not in found]
        if found:
            return tuple(found)
    place = gen.call_place()
    hit = index.get(place.country_code) if place is not None else None
    return (hit,) if hit is not None else ()


def _country_at(scope: RecordScope, index: CountryIndex) -> CountryFact:
    gen = scope.gen
    if not country_minded(gen.entity):
        return index.get(scope.place.country_code) or index.facts[0]
    named = gen.call_countries
    if named:
        return named[scope.index % len(named)]
    pool = index.facts
    return pool[(gen.draw_offset * 7 + scope.index * 13) % len(pool)]


def record_country(scope: RecordScope) -> CountryFact:
    """The country of the record ``scope`` belongs to (drawn once, at the record's root)."""
    root = scope.root
    node = root.parent  # a list inside a country item (its currencies) belongs to that item
    while node is not None and node.parent is not None:
        if "country_fact" in node.values:
            inherited: CountryFact = node.values["country_fact"]
            return inherited
        node = node.parent
    index = scope.gen.facts.reference.countries
    fact: CountryFact = root.once("country_fact", lambda: _country_at(root, index))
    return fact


def country(gen: Generation) -> CountryFact:
    return record_country(gen.scope)


# -- time zones ------------------------------------------------------------------------------


class UtcOffset(float):
    """Hours east of UTC. As a number it is the hours (5.5); as text, "+05:30", the way
    APIs write an offset in a string field."""

    def __str__(self) -> str:
        minutes = round(abs(self) * 60)
        return f"{'-' if self < 0 else '+'}{minutes // 60:02d}:{minutes % 60:02d}"


def local_now(gen: Generation) -> dt.datetime:
    """The session's "now" on the record's clock (its place's IANA zone)."""
    zone = ZoneInfo(gen.scope.place.timezone)
    return gen.now.replace(tzinfo=dt.UTC).astimezone(zone)


def _offset(gen: Generation) -> dt.timedelta:
    return local_now(gen).utcoffset() or dt.timedelta()


def _dst(gen: Generation) -> dt.timedelta:
    return local_now(gen).dst() or dt.timedelta()


def zone_long_name(gen: Generation) -> str:
    """The zone's English name at the session's now ("Central European Standard Time")."""
    from babel.dates import get_timezone_name

    moment = local_now(gen)
    return str(get_timezone_name(moment, width="long", locale="en"))


# -- addresses -------------------------------------------------------------------------------


def address(gen: Generation) -> Address:
    """The record's address, one per record, in its place and its country's style."""
    scope = gen.scope
    book = gen.facts.reference.addresses
    found: Address = scope.once("address", lambda: book.address(scope.place, gen.rng.randrange(1 << 30)),
                                inherit=True)
    return found


_COUNTRY_ARGS = ("country", "country_code", "country_name", "nation")
_LOCAL_ARGS = frozenset({"city", "city_name", "town", "location", "place", "address", "region", "state", "province",
                         "postcode", "zip", "zip_code", "lat", "latitude", "lon", "lng", "longitude"})


def _population(gen: Generation) -> int:
    """A country's head count for a country record, or for a call that names a country and
    no smaller place ("COVID stats for Turkey"); the record's own place's otherwise."""
    args = gen.snaked_args
    national = any(k in args for k in _COUNTRY_ARGS) and args.keys().isdisjoint(_LOCAL_ARGS)
    return country(gen).population if national or country_minded(gen.entity) else gen.scope.place.population


def _currency_symbol(gen: Generation) -> str:
    code = gen.call_currency()
    fact = country(gen)
    if code is None or code == fact.currency_code:
        return fact.currency_symbol
    from babel.numbers import get_currency_symbol

    return str(get_currency_symbol(code, "en"))


GEO_KINDS: dict[str, Callable[[Generation], Any]] = {
    # a country's fact sheet
    "country_code3": lambda g: country(g).cca3,
    "country_numeric": lambda g: country(g).ccn3,
    "country_official_name": lambda g: country(g).official_name,
    "capital": lambda g: country(g).capital.name,
    "world_region": lambda g: country(g).region,
    "subregion": lambda g: country(g).subregion,
    "wb_region": lambda g: country(g).wb_region,
    "continent": lambda g: country(g).continent,
    "continent_code": lambda g: country(g).continent_code,
    "country_area": lambda g: country(g).area_km2,
    "population": _population,
    "calling_code": lambda g: country(g).calling_code,
    "tld": lambda g: country(g).tld,
    "flag_url": lambda g: country(g).flag_png,
    "flag_svg_url": lambda g: country(g).flag_svg,
    "flag_emoji": lambda g: country(g).flag_emoji,
    "currency_symbol": _currency_symbol,
    # the record's time zone, at the session's now
    "utc_offset": lambda g: UtcOffset(_offset(g).total_seconds() / 3600),
    "utc_offset_seconds": lambda g: int(_offset(g).total_seconds()),
    "raw_offset_seconds": lambda g: int((_offset(g) - _dst(g)).total_seconds()),
    "dst_offset_seconds": lambda g: int(_dst(g).total_seconds()),
    "dst_offset": lambda g: UtcOffset(_dst(g).total_seconds() / 3600),
    "is_dst": lambda g: bool(_dst(g)),
    "local_time": lambda g: local_now(g).replace(microsecond=0).isoformat(),
    "tz_abbreviation": lambda g: local_now(g).tzname() or "UTC",
    "tz_long_name": lambda g: zone_long_name(g),
    # addresses
    "address": lambda g: address(g).full,
    "street": lambda g: address(g).street,
    "street_name": lambda g: address(g).street_name or address(g).place.name,
    "house_number": lambda g: address(g).house_number or str(1 + g.rng.randrange(120)),
    "postal_code": lambda g: address(g).postcode or f"{g.rng.randrange(10000, 99999)}",
    "unit_score": lambda g: round(g.rng.uniform(0.35, 0.98), 4),
}
# Kinds a boolean field can take (others stay a coin flip, or "true" for success flags).
BOOLEAN_KINDS = frozenset({"is_dst"})


# Arguments that give a point as text, "lat,lon" ("48.8566,2.3522"), or as a [lat, lon] pair.
POINT_ARGS = ("latlng", "lat_lng", "latlon", "at", "position", "point", "ll", "coordinates", "location")


def point_arg(args: dict[str, Any]) -> tuple[float, float] | None:
    """The point a call gives in one argument, when it is a valid latitude and longitude."""
    for key in POINT_ARGS:
        value = args.get(key)
        parts = value.split(",") if isinstance(value, str) else value if isinstance(value, list) else None
        if not parts or len(parts) != 2:
            continue
        try:
            lat, lon = float(parts[0]), float(parts[1])
        except (TypeError, ValueError):
            continue
        if -90 <= lat <= 90 and -180 <= lon <= 180:
            return lat, lon
    return None


def same_country(code: Any, other: Any, entity: str) -> bool:
    """Whether a country record's generated code stands for the one a call gave: "CH" and
    "CHE" name one country; a code naming none ("XX99") is not echoed over a real one."""
    if not (country_minded(entity) and isinstance(code, str) and isinstance(other, str) and 2 <= len(other) <= 3):
        return False
    from env_server.simulators.records import default_facts

    index = default_facts().reference.countries
    mine = index.get(other)
    return mine is not None and index.get(code) in (None, mine)
