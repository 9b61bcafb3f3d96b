"""Which number ranges serve which city, from libphonenumber's geocoder (``phonenumbers``,
Apache-2.0).

A business in Chicago is called on a 312 or 773 number, one in São Paulo on +55 11, and a
lookup of +1 267 … answers Philadelphia. The geocoder maps 287,000 number prefixes to the
place they serve; loading it the package's way keeps a 100 MB dict alive for the process.
We read its 29 data files one at a time on first use and keep a compact index: every
prefix as an integer in one sorted array with the number of its place's name, and for each
(calling code, city) up to ``PREFIXES_KEPT`` prefixes per state to draw numbers from.
Measured: about 1 s to build unloaded (2-9 s on a busy 2-core box); the process grows by
60-70 MB, peaking near 140 MB. Nothing is read at import; the index is built once per process.

``local_numbers(region, places)`` are valid numbers of a city (its own name and state first,
then its nearest neighbours' when it has no prefix of its own); ``place_of(number)`` is the name of
the place a number's prefix serves ("Philadelphia, PA" -> "Philadelphia").
"""

from __future__ import annotations

import array
import bisect
import functools
import importlib.util
import random
import re
from dataclasses import dataclass
from pathlib import Path

import phonenumbers
from phonenumbers import PhoneNumber

from env_server.simulators.reference import fold

PREFIXES_KEPT = 24
NUMBERS_KEPT = 12  # a pool per city, made on its first phone: a few ms (a try costs ~0.1 ms)
_FILES = 29  # phonenumbers/geodata/data0.py … data28.py
_SEED = 20261207
_TRIES = 60
# "Chicago, IL", "São Paulo - SP", "Minobu, Yamanashi": the city is the part before these.
_CITY_END = re.compile(r",| - | \(")


@dataclass(frozen=True)
class GeoIndex:
    """The geocoder's prefixes (sorted integers), their places' name numbers, the names, and
    the prefixes that serve each city, keyed by (calling code, folded city name) and then by
    the folded state the description adds ("il" of "Springfield, IL"; "" when it adds none)."""

    prefixes: array.array[int]
    places: array.array[int]
    names: tuple[str, ...]
    by_city: dict[tuple[int, str], dict[str, tuple[int, ...]]]


def city_key(description: str) -> str:
    """The folded city part of a geocoder description, or of a city name ("Xi'an" == "XiAn")."""
    city = _CITY_END.split(description, maxsplit=1)[0]
    return re.sub(r"[^a-z0-9]", "", fold(city))


def area_key(description: str) -> str:
    """The folded state part of a geocoder description ("Chicago, IL" -> "il"), or ""."""
    parts = _CITY_END.split(description, maxsplit=1)
    return re.sub(r"[^a-z0-9]", "", fold(parts[1])) if len(parts) > 1 else ""


@functools.lru_cache(maxsize=4096)
def area_tags(country_code: str, region: str) -> frozenset[str]:
    """How a geocoder may write a place's state: its name or its ISO 3166-2 code ("Illinois"
    -> {"illinois", "il"}; "São Paulo" -> {"saopaulo", "sp"})."""
    import pycountry

    folded = re.sub(r"[^a-z0-9]", "", fold(region))
    tags = {folded}
    for sub in pycountry.subdivisions.get(country_code=country_code.upper()) or ():
        if re.sub(r"[^a-z0-9]", "", fold(sub.name)) == folded:
            tags.add(sub.code.split("-", 1)[1].lower())
    return frozenset(tags - {""})


@functools.lru_cache(maxsize=1024)
def _calling_code(prefix: str) -> int:
    """The calling code a prefix starts with (codes are prefix-free: "1", "44", "855")."""
    for size in (1, 2, 3):
        code = int(prefix[:size])
        if phonenumbers.region_code_for_country_code(code) != "ZZ":
            return code
    return 0


def _read_files() -> tuple[list[tuple[int, int]], list[str]]:
    root = Path(phonenumbers.__file__).parent / "geodata"
    names: dict[str, int] = {}
    pairs: list[tuple[int, int]] = []
    for i in range(_FILES):
        spec = importlib.util.spec_from_file_location(f"phonenumbers.geodata.data{i}", root / f"data{i}.py")
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # one file's dict at a time, dropped after it
        for prefix, by_language in module.data.items():
            name = by_language.get("en") or next(iter(by_language.values()))
            pairs.append((int(prefix), names.setdefault(name, len(names))))
    return pairs, list(names)


@functools.cache
def geo_index() -> GeoIndex:
    """The index, built on first use and kept for the process."""
    pairs, names = _read_files()
    pairs.sort()
    grouped: dict[tuple[int, str], dict[str, list[int]]] = {}
    for prefix, place in pairs:
        key = (_calling_code(str(prefix)), city_key(names[place]))
        grouped.setdefault(key, {}).setdefault(area_key(names[place]), []).append(prefix)
    by_city = {key: {area: tuple(found[:: max(1, len(found) // PREFIXES_KEPT)][:PREFIXES_KEPT])
                     for area, found in areas.items()} for key, areas in grouped.items()}
    return GeoIndex(prefixes=array.array("Q", (p for p, _ in pairs)), places=array.array("I", (n for _, n in pairs)),
                    names=tuple(names), by_city=by_city)


def _prefixes_of(code: int, region: str, name: str, area: str) -> tuple[int, ...]:
    """The prefixes serving the city ``name`` of state ``area``: those the geocoder files under
    that state or under none (Springfield, MO is not Springfield, IL); all of them when no
    state the geocoder writes is the place's and ISO 3166-2 does not know the place's state."""
    areas = geo_index().by_city.get((code, city_key(name)))
    if not areas:
        return ()
    tags = area_tags(region, area) if area else frozenset()
    if len(tags) < 2 and not tags & areas.keys():
        tags = frozenset(areas)  # a state ISO 3166-2 does not name so ("Federal District", "DF")
    return tuple(p for written, found in sorted(areas.items()) if not written or written in tags for p in found)


def has_prefixes(region: str, name: str, area: str = "") -> bool:
    """Whether the geocoder knows number ranges of the city ``name`` (of state ``area``) in ``region``."""
    return bool(_prefixes_of(phonenumbers.country_code_for_region(region.upper()), region.upper(), name, area))


@functools.lru_cache(maxsize=2048)
def local_numbers(region: str, places: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """Valid numbers of ``region`` in E.164 whose prefix serves the first of ``places`` (city and
    state: the record's, then its neighbours') the geocoder knows, made once with a fixed seed;
    () for none."""
    region = region.upper()
    code = phonenumbers.country_code_for_region(region)
    hit = next(((key, got) for name, area in places
                if (got := _prefixes_of(code, region, name, area)) and (key := city_key(name))), None)
    if hit is None:
        return ()
    key, prefixes = hit
    name = places[0][0]
    rng = random.Random(f"{_SEED}:{region}:{name}")
    lengths = _national_lengths(region)
    found: list[str] = []
    for attempt in range(_TRIES):
        if len(found) >= NUMBERS_KEPT:
            break
        head = str(prefixes[attempt % len(prefixes)])[len(str(code)):]
        size = lengths[attempt % len(lengths)]
        if size <= len(head):
            continue
        national = head + "".join(str(rng.randint(0, 9)) for _ in range(size - len(head)))
        number = PhoneNumber(country_code=code, national_number=int(national))
        e164 = f"+{code}{national}"
        # The redrawn tail can fall in a longer prefix of a neighbour (+1 416 5900 is North York).
        if phonenumbers.is_valid_number_for_region(number, region) and e164 not in found \
                and city_key(place_of(number) or "") == key:
            found.append(e164)
    return tuple(found)


@functools.lru_cache(maxsize=256)
def _national_lengths(region: str) -> tuple[int, ...]:
    """The lengths a full fixed-line number of the region has: its example's length and up to
    two digits more, where the region allows them (Germany allows 5 to 15 digits, but a Berlin
    number is 10 or 11 long)."""
    from phonenumbers import PhoneMetadata

    example = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.FIXED_LINE)
    size = len(str(example.national_number)) if example is not None else 8
    meta = PhoneMetadata.metadata_for_region(region)
    allowed = tuple(meta.fixed_line.possible_length or ()) if meta is not None and meta.fixed_line else ()
    return tuple(n for n in allowed if size <= n <= size + 2) or (size,)


def place_of(number: PhoneNumber) -> str | None:
    """The city (or area) a valid number's longest known prefix serves, or None."""
    index = geo_index()
    digits = f"{number.country_code}{number.national_number}"
    for size in range(min(len(digits), 10), len(str(number.country_code)), -1):
        prefix = int(digits[:size])
        at = bisect.bisect_left(index.prefixes, prefix)
        if at < len(index.prefixes) and index.prefixes[at] == prefix:
            name = index.names[index.places[at]]
            return _CITY_END.split(name, maxsplit=1)[0].strip() or None
    return None
