"""Records are drawn as a whole: one scope per generated object holds its shared facts.

A weather report's city, country, coordinates, timezone and temperature belong together;
so do a quote's symbol, name and prices, or a dictionary entry's word and definition.
``RecordScope`` holds those anchors for the object being built. Each is chosen once, on
first use: from the call's arguments when they name it (``city="Berlin"``,
``symbol="AAPL"``), from the enclosing record otherwise, and drawn from the seed last.
Array items get scopes of their own, so a list of cities lists different cities, while
a search for restaurants in Paris keeps every row in Paris.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from env_server.simulators.geo_kinds import country_minded, record_country
from env_server.simulators.market import InstrumentFact, MarketTable, default_table
from env_server.simulators.metar import station_list
from env_server.simulators.naming import snake
from env_server.simulators.reference import (
    AirportFact,
    PlaceFact,
    ReferenceData,
    haversine_km,
)
from env_server.simulators.sites import ProviderSites
from env_server.simulators.vocab import Vocabulary
from env_server.simulators.whole_lists import nth_record
from env_server.simulators.word_kinds import WordIndex

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# Argument names that name a place, a point, or an instrument.
PLACE_ARGS = ("city", "city_name", "location", "near", "town", "location_name", "place", "region", "country",
              "country_code", "country_name")
# Only read as a place when the tool is about places or weather ("q" of a weather lookup).
LOOSE_PLACE_ARGS = ("q", "query", "keyword", "keywords", "address", "name", "destination", "search", "text")
LAT_ARGS = ("latitude", "lat", "point.lat")  # "point.lat": Pelias (openrouteservice) writes the point dotted
LON_ARGS = ("longitude", "lon", "lng", "long", "point.lon")
INSTRUMENT_ARGS = ("symbol", "ticker", "symbols", "coin", "coin_id", "id", "ids", "asset", "crypto", "stock",
                   "fsym", "base_symbol", "pair", "instrument", "stock_symbol", "stocks_ticker", "ticker_symbol",
                   "coin_symbol", "fsyms", "currency_pair", "trading_pair",
                   "cryptocurrency")
CURRENCY_ARGS = ("currency", "vs_currency", "quote", "to", "to_currency", "tsyms", "convert", "target",
                 "currency_code", "quote_currency", "vs_currencies", "target_currency", "price_currency")
BASE_ARGS = ("from", "base", "from_currency", "base_currency", "source", "source_currency")
AIRPORT_ARGS = ("origin", "from_airport", "departure_airport", "dep_iata", "airport", "iata", "origin_code",
                "origin_location_code", "fly_from", "departure_id", "apt", "icao", "airport_icao", "faa_ident")
DEST_AIRPORT_ARGS = ("destination", "to_airport", "arrival_airport", "arr_iata", "destination_code",
                     "destination_location_code", "fly_to", "arrival_id")
# The day a trip starts, when the call names it.
DEPARTURE_DATE_ARGS = ("departure_date", "date", "outbound_date", "date_from", "start_date", "checkin",
                       "check_in", "travel_date")
# Entities whose rows sit inside a city (a hotel in Paris is not at Paris' centroid).
POINT_ENTITIES = frozenset({"venue", "restaurant", "hotel", "station", "stop", "place", "poi", "postcode", "shop", "store",
                            "business", "attraction", "listing", "property", "parking", "charger", "museum"})


@dataclass
class WorldFacts:
    """Reference data, vocabularies and the market table: read-only, shared by sessions."""

    reference: ReferenceData = field(default_factory=ReferenceData)
    vocab: Vocabulary = field(default_factory=Vocabulary)
    market_table: MarketTable = field(default_factory=default_table)
    sites: ProviderSites = field(default_factory=ProviderSites)

    @functools.cached_property
    def words(self) -> WordIndex:
        """The dictionary's words, for answers that must fit a word question (word_kinds)."""
        return WordIndex(self.vocab)


@functools.lru_cache(maxsize=1)
def default_facts() -> WorldFacts:
    return WorldFacts()


def arg_text(args: dict[str, Any], names: tuple[str, ...]) -> str | None:
    """The first of ``names`` the call gives as text (a list gives its first item).
    ``args`` is keyed by snake_case names, so "cityName" answers for "city_name"."""
    for name in names:
        value = args.get(name)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, list) and value and isinstance(value[0], str):
            return value[0]
    return None


def arg_number(args: dict[str, Any], names: tuple[str, ...]) -> float | None:
    """The first of ``names`` the call gives as a number (or as numeric text)."""
    for name in names:
        value = args.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                continue
    return None


class RecordScope:
    """The shared anchors of one generated object. ``fresh`` scopes (array items) do not
    inherit drawn anchors from their parent, only those the arguments fix."""

    def __init__(self, gen: Generation, parent: RecordScope | None, fresh: bool, index: int = 0) -> None:
        self.gen = gen
        self.parent = parent
        self.fresh = fresh
        self.index = index
        self.values: dict[str, Any] = {}  # kind -> value drawn for this record (coherent repeats)
        self._place: PlaceFact | None = None
        self._instrument: InstrumentFact | None = None

    # -- shape -------------------------------------------------------------------------

    @property
    def in_list(self) -> bool:
        """An item of an array (not the call's own record)."""
        return self.fresh and self.parent is not None

    @property
    def is_top(self) -> bool:
        """The call's own record, not one nested in it."""
        return self.parent is None or self.parent.parent is None

    @property
    def top(self) -> RecordScope:
        """The call's own record: what is drawn once per call (a filtered list to pick from) lives here."""
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    @property
    def root(self) -> RecordScope:
        """The outermost scope of this record (a report, not its nested parts)."""
        scope = self
        while not scope.fresh and not scope.is_top and scope.parent is not None:
            scope = scope.parent
        return scope

    def once(self, key: str, make: Callable[[], Any], *, inherit: bool = False) -> Any:
        """``values[key]``, made on first use (or, with ``inherit``, taken from an enclosing
        record of the same item when one holds it)."""
        if key not in self.values:
            found = self.inherited(key) if inherit else None
            self.values[key] = found if found is not None else make()
        return self.values[key]

    def inherited(self, key: str) -> Any:
        """``key`` from the nearest enclosing scope of the same item, or None."""
        node = self.parent if not self.fresh else None
        while node is not None:
            if key in node.values:
                return node.values[key]
            node = node.parent if not node.fresh else None
        return None

    # -- places ------------------------------------------------------------------------

    @property
    def place(self) -> PlaceFact:
        if self._place is None:
            if self.parent is not None and not self.fresh:
                self._place = self.parent.place
            elif country_minded(self.gen.entity):  # a country record sits at its capital
                self._place = record_country(self).capital
            elif (station := self._listed_station("origin")) is not None:  # a report is its station's
                self._place = self._place_of(station)
            elif self.parent is not None and self.gen.lists_places:
                self._place = self._place_of_airport() or self._nth_place()
            elif self.parent is not None and self.gen.home_country() and self.gen.names_no_place():
                self._place = self._nth_place()  # a national API's list spans its country
            else:
                self._place = self.gen.call_place() or self._nth_place()
        return self._place

    def _place_of(self, airport: AirportFact) -> PlaceFact:
        """The airport's city (when it is near), else the city nearest the airport."""
        ref = self.gen.facts.reference
        found = ref.find_place(airport.city)
        if found is not None and haversine_km(found.latitude, found.longitude, airport.latitude,
                                              airport.longitude) <= 80:
            return found
        return ref.nearest_place(airport.latitude, airport.longitude)

    def _place_of_airport(self) -> PlaceFact | None:
        """The city of the record's airport, when one was drawn first (and it is near)."""
        airport: AirportFact | None = self.values.get("airport:origin")
        if airport is None:
            return None
        found = self.gen.facts.reference.find_place(airport.city)
        if found is not None and haversine_km(found.latitude, found.longitude, airport.latitude,
                                              airport.longitude) <= 80:
            return found
        return self.gen.call_place()

    def _nth_place(self) -> PlaceFact:
        """Item ``index`` of a list of places: around the searched center when there is
        one (nearest first, within the radius), else distinct well-known cities."""
        ref = self.gen.facts.reference
        named = self.gen.search_places  # a search for "Berlin" lists Berlin and its namesakes
        if named:
            return named[self.index % len(named)]
        center = self.gen.call_place()
        home = self.gen.home_country()
        if center is not None and not (home and center.country_code == home and self.gen.names_no_place()):
            near = ref.places_near(center, self.gen.call_radius() or 50.0)
            if near:
                return near[self.index % len(near)][0]
        # A national API's list (the FBI's field offices, a country's parks) spans its country.
        pool = ref.places_in(home) if home else ref.drawable_places
        pool = pool or ref.drawable_places
        return pool[(self.gen.draw_offset * 7 + self.index * 13) % len(pool)]

    @property
    def point(self) -> tuple[float, float]:
        """Coordinates of the record: the city's, or a spot within a few km for venues."""
        point: tuple[float, float] = self.once("point", self._draw_point)
        return point

    def _draw_point(self) -> tuple[float, float]:
        place = self.place
        lat, lon = place.latitude, place.longitude
        if self.gen.entity in POINT_ENTITIES or self._found_near_call():
            radius = min(self.gen.call_radius() or 4.0, 4.0)
            dist = radius * math.sqrt(self.gen.rng.random())
            angle = self.gen.rng.random() * 2 * math.pi
            lat += dist / 111.0 * math.cos(angle)
            lon += dist / (111.0 * max(0.2, math.cos(math.radians(lat)))) * math.sin(angle)
        return round(lat, 4), round(lon, 4)

    def _found_near_call(self) -> bool:
        """An item of a list the call asked for around a point (fires, parking, sensors near
        it): each lies somewhere near the point, not all on it. Places listed as themselves
        (cities, a station asked by id) keep their own coordinates."""
        return (self.parent is not None and self.fresh and self.gen.call_point is not None
                and not self.gen.lists_places and not station_list(self.gen))

    def airport(self, role: str = "origin") -> AirportFact:
        airport: AirportFact = self.once(
            f"airport:{role}", lambda: self._listed_station(role) or self.gen.call_airport(role)
            or self._draw_airport(role), inherit=True)
        return airport

    def _listed_station(self, role: str) -> AirportFact | None:
        """The station of this item when the call lists stations (``ids=["KJFK", "EGLL"]``)."""
        stations = station_list(self.gen) if role == "origin" else ()
        return stations[self.index % len(stations)] if stations else None

    def _draw_airport(self, role: str) -> AirportFact:
        ref = self.gen.facts.reference
        center = self.gen.call_place()
        if role == "origin" and self.fresh and self.parent is not None and self.gen.lists_places and center:
            near = ref.airports_near(center)  # a search for Tokyo's airports lists HND, NRT, …
            if near:
                return near[self.index % len(near)]
        if role == "origin":
            own = ref.main_airport(self.place)
            if own is not None:
                return own
        pool = ref.major_airports
        pick = pool[self.gen.rng.randrange(len(pool))]
        if role != "origin" and pick.iata == self.airport("origin").iata:
            pick = pool[(pool.index(pick) + 1) % len(pool)]
        return pick

    # -- instruments ---------------------------------------------------------------------

    def instrument(self, kind: str = "") -> InstrumentFact:
        """The record's stock, coin or commodity: named by the call, shared with the parent
        record, or drawn (list items take distinct symbols in a seeded order)."""
        if self._instrument is None:
            if self.parent is not None and not self.fresh:
                self._instrument = self.parent.instrument(kind)
            else:
                named = self.gen.call_instruments()
                if named:
                    self._instrument = named[self.index % len(named)]
                else:
                    self._instrument = self._draw_instrument(kind)
        return self._instrument

    def _draw_instrument(self, kind: str) -> InstrumentFact:
        table = self.gen.facts.market_table
        wanted = kind or ("crypto" if self.gen.is_crypto() else "stock")
        symbols = table.symbols(wanted) or table.symbols("stock")
        return table.instruments[symbols[(self.gen.draw_offset + self.index) % len(symbols)]]

    # -- vocabulary records --------------------------------------------------------------

    def _named_record(self, kind: str) -> dict[str, Any] | None:
        """The entry the call names ("husky" for the breed's sub-breeds), if any."""
        vocab = self.gen.facts.vocab
        index = vocab.index(kind)
        # A list item's entry is not named by its stored record's own values (a cocktail
        # called "Prosecco" does not make each of its ingredients Prosecco); the call's are.
        row = self.gen.row_keys if self.in_list else frozenset()
        values = [v for k, v in self.gen.args.items() if not row or snake(k) not in row]
        for value in values if self.in_list else ():  # a search's rows: the entries it names, in turn
            found = (vocab.containing(kind, value) or vocab.having(kind, value)) if isinstance(
                value, str) and len(value) <= 60 else ()
            if found:
                return found[self.index % len(found)]
        for value in values:
            if isinstance(value, str) and value.lower() in index:
                return index[value.lower()]
        for value in values:  # a name a sibling vocabulary knows (a tern in bird_taxon)
            kin = vocab.kin_record(kind, value) if isinstance(value, str) and " " in value.strip() else None
            if kin is not None:
                return kin
        return None

    def _fresh_index(self, kind: str, size: int) -> int:
        """A random entry of a vocabulary; in a list, one its siblings have not drawn (a
        recipe names each ingredient once) while the vocabulary has such entries."""
        index = self.gen.rng.randrange(size)
        if not self.in_list or self.parent is None:
            return index
        used: set[int] = self.parent.values.setdefault(f"drawn:{kind}", set())
        for _ in range(3):
            if index not in used or len(used) >= size:
                break
            index = self.gen.rng.randrange(size)
        used.add(index)
        return index

    def vocab_record(self, kind: str) -> dict[str, Any]:
        """One entry of a record-shaped vocabulary, shared by the record's fields."""

        def pick() -> dict[str, Any]:
            records = self.gen.facts.vocab.get(kind).records
            return self._named_record(kind) or nth_record(self, kind) or records[self._fresh_index(kind, len(records))]

        record: dict[str, Any] = self.once(f"record:{kind}", pick, inherit=True)
        return record


def climate_temperature_c(place: PlaceFact, day: dt.date) -> float:
    """A plausible mean temperature for a place and date: warm tropics, cold poles, seasons."""
    lat = place.latitude
    annual_mean = 28.0 - 0.0062 * lat * lat - 0.12 * max(0.0, abs(lat) - 40)
    amplitude = min(16.0, 0.28 * abs(lat))
    season = math.cos(2 * math.pi * (day.timetuple().tm_yday - 200) / 365.25)
    if lat < 0:
        season = -season
    return annual_mean + amplitude * season
