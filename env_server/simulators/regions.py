"""The first-level region (state, province, Land) a city lies in, from package facts.

GeoNames' admin1 codes outside the US are its own numbering, so the region is read off
what the packages do name: a first-level ISO 3166-2 subdivision named like the city
(Berlin, Hamburg, Tokyo; Vienna by its other name, Wien), else the subdivision most of
the city's own airports lie in (Paris: Ile-de-France, Munich: Bayern).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

# Other names are read for cities this large only (they carry hundreds each).
ALIAS_POPULATION = 500_000


def _fold(text: str) -> str:
    from env_server.simulators.reference import fold

    return fold(text).replace("-", " ")


def subdivision_names() -> dict[str, dict[str, str]]:
    """Country code -> folded first-level subdivision name -> its name (pycountry)."""
    import pycountry

    out: dict[str, dict[str, str]] = {}
    for sub in sorted(pycountry.subdivisions, key=lambda s: s.code):
        if getattr(sub, "parent_code", None) is None:
            out.setdefault(sub.country_code, {}).setdefault(_fold(sub.name), sub.name)
    return out


def airport_regions(airports: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], str]:
    """(country code, folded city) -> the subdivision most of that city's airports lie in
    (one named like the city wins outright)."""
    counts: dict[tuple[str, str], Counter[str]] = {}
    for a in airports:
        if a.get("subd") and a.get("city"):
            counts.setdefault((a["country"], _fold(a["city"])), Counter())[a["subd"]] += 1
    out: dict[tuple[str, str], str] = {}
    for key, counter in sorted(counts.items()):
        same = [s for s in counter if _fold(s) == key[1]]
        out[key] = same[0] if same else sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    return out


def city_region(city: Mapping[str, Any], subdivisions: Mapping[str, Mapping[str, str]],
                by_airport: Mapping[tuple[str, str], str]) -> str:
    """The region of a GeoNames city record, or "" when the packages do not say."""
    code, name = city["countrycode"], _fold(city["name"])
    own = subdivisions.get(code) or {}
    if name in own:
        return str(city["name"])  # Berlin is in Berlin (spelt as the city is)
    if int(city.get("population") or 0) >= ALIAS_POPULATION:
        for alias in city.get("alternatenames") or ():
            if alias.isascii() and alias.lower().replace("-", " ") in own:
                return own[alias.lower().replace("-", " ")]
    return by_airport.get((code, name), "")
