"""Schema-driven value generation: one JSON value per output schema, seeded and realistic.

``Generation`` carries everything one call's generation needs: the seeded RNG, the
session clock, the call's arguments (for echoing) and the profile hints. ``fill`` runs a
plan compiled once per schema node that honours ``type``, ``enum``, ``const``,
``minimum``/``maximum``, ``minLength``/``maxLength``, ``minItems``/``maxItems`` and
``format``, so every output validates against the tool's output schema by construction.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from env_server.simulators.call_clock import CallClock, entity_words
from env_server.simulators.countries import CountryFact
from env_server.simulators.fx import FxQuery, build_query
from env_server.simulators.geo_kinds import call_countries, point_arg
from env_server.simulators.leaf_plans import id_prefix
from env_server.simulators.lineup import vin_lineup
from env_server.simulators.market import InstrumentFact, SessionMarket, market_domain
from env_server.simulators.naming import PLACE_ENTITIES
from env_server.simulators.place_query import search_places
from env_server.simulators.plans import PlanCache, plan_for
from env_server.simulators.records import (
    AIRPORT_ARGS,
    BASE_ARGS,
    CURRENCY_ARGS,
    DEST_AIRPORT_ARGS,
    INSTRUMENT_ARGS,
    LAT_ARGS,
    LON_ARGS,
    LOOSE_PLACE_ARGS,
    PLACE_ARGS,
    POINT_ENTITIES,
    RecordScope,
    WorldFacts,
    arg_number,
    arg_text,
    default_facts,
)
from env_server.simulators.reference import AirportFact, PlaceFact
from env_server.simulators.rng import SimRandom
from env_server.simulators.sites import Site
from env_server.simulators.us_zips import zip_of_call, zip_place
from state.encoding import encode_canonical

_PLACE_RANK = {name: i for i, name in enumerate(PLACE_ARGS)}
_LOOSE_PLACE_RANK = {name: i for i, name in enumerate(PLACE_ARGS + LOOSE_PLACE_ARGS)}
_LIMIT_ARGS = ("limit", "count", "max_results", "per_page", "page_size", "size", "top", "n", "num_results", "results")
_WEATHER_WORDS = frozenset({"weather", "forecast", "current", "observation", "climate", "air", "quality", "uv",
                            "astronomy", "sun", "sunrise", "marine", "geocode", "timezone", "pollen", "alert"})
_CRYPTO_WORDS = frozenset({"coin", "crypto", "cryptocurrency", "token", "asset", "market", "exchange_rate"})
_QUOTE_WORDS = frozenset({"quote", "stock", "ticker", "coin", "crypto", "cryptocurrency", "price", "candle",
                          "ohlc", "bar", "token", "asset", "trade"})


_PLACE_MINDED = PLACE_ENTITIES | POINT_ENTITIES | _WEATHER_WORDS
# A geocoder's records named for what they are to the caller, not for being places.
_GEOCODED = frozenset({"address", "result", "suggestion"})


def canonical_args(args: dict[str, Any]) -> str:
    """Arguments as canonical JSON: sorted keys, no spaces, UTF-8 kept."""
    return encode_canonical(args)


def call_seed(tool: str, args: dict[str, Any], seed: int, args_json: str | None = None) -> int:
    """Stable 64-bit seed from the tool name, canonical arguments and session seed.

    The hashed text is the canonical JSON of ``[tool, args, seed]``; ``args_json`` (from
    ``canonical_args``) spares encoding the arguments a second time.
    """
    if args_json is None:
        args_json = canonical_args(args)
    blob = f"[{encode_canonical(tool)},{args_json},{int(seed)}]"
    return int.from_bytes(hashlib.sha256(blob.encode("utf-8")).digest()[:8], "big")


_NO_HINTS: Mapping[str, str] = MappingProxyType({})


class Generation(CallClock):
    """Per-call generation state: a random generator seeded for this call alone, the
    session's clock and market, and the stack of records being built."""

    def __init__(
        self,
        seed: int,
        today: dt.date,
        args: dict[str, Any],
        entity: str = "item",
        hints: Mapping[str, str] = _NO_HINTS,  # one shared object: plans key on it
        *,
        session_seed: int = 0,
        now: dt.datetime | None = None,
        facts: WorldFacts | None = None,
        current: bool = False,
        plans: PlanCache | None = None,
        provider: str = "",
        link: str | None = None,
        home: str | None = None,
        category: str = "",
        about: str = "",
    ) -> None:
        # Annotated so values.py (which imports this module back) can type-check its reads.
        self.seed: int = seed
        self.today: dt.date = today
        self.args: dict[str, Any] = args
        self.entity: str = entity
        self.hints: Mapping[str, str] = hints
        self.rng: SimRandom = SimRandom(seed)
        self.id_prefix: str = id_prefix(entity.lower(), "item")
        self.now: dt.datetime = now or dt.datetime.combine(today, dt.time(9, 0))
        self.facts: WorldFacts = facts or default_facts()
        self.session_seed: int = session_seed
        self.current: bool = current  # "latest"/"current" data: dated today
        self.scope: RecordScope = RecordScope(self, None, fresh=True)
        self._args_snake: dict[str, Any] | None = None  # built on the first echo miss
        # Compiled plans of the schemas filled: the owner's (a catalog's, via SimContext), or
        # this generation's own when the caller has none.
        self.plans: PlanCache = {} if plans is None else plans
        self.provider: str = provider  # whose pages and images the record's URLs point at
        self.link: str | None = link
        self.home: str | None = home  # the profile's place: where records are when the call names none
        self.category: str = category  # the provider's catalog category: says a vague record's medium
        self.about: str = about  # the tool's description: says which sport its teams play
        # Snake-case names of the values in ``args`` that are the record's own (a stored row's, the
        # id and title a read or write names), made on first need: nested items (a release's
        # tracks) do not repeat them.
        self.record_only_from: Callable[[], frozenset[str]] | None = None
        # Snake-case names of a stored row's own values in ``args`` (not the call's): they
        # are the record's, and do not name the entries of its lists (``RecordScope``).
        self.row_keys: frozenset[str] = frozenset()

    @functools.cached_property
    def record_only(self) -> frozenset[str]:
        return self.record_only_from() if self.record_only_from is not None else frozenset()

    @functools.cached_property
    def market(self) -> SessionMarket:
        return SessionMarket(self.facts.market_table, self.session_seed)

    @functools.cached_property
    def site(self) -> Site | None:
        """The answering provider's hosts (None for a tool with no known provider site)."""
        return self.facts.sites.site_for(self.provider, self.link) if self.provider else None

    @functools.cached_property
    def fx(self) -> FxQuery:
        """The exchange-rate question of the call (base, targets, amount, days)."""
        return build_query(self)

    def fill(self, schema: Any, name: str = "", index: int | None = None, parent: str = "") -> Any:
        """One value for ``schema``. The schema is compiled once to a tree of closures
        (see ``_compile``); a call then only draws values and echoes arguments."""
        return plan_for(self.plans, schema, name, parent, self.entity, self.hints)(self, index)

    def enter(self, fresh: bool, index: int) -> RecordScope:
        scope = self.scope
        self.scope = RecordScope(self, scope, fresh=fresh, index=index)
        return scope

    # -- what the call's arguments name ------------------------------------------------

    @functools.cached_property
    def call_point(self) -> tuple[float, float] | None:
        """The coordinates the call sent (a nearby search's centre), or None."""
        if not self.snaked_args.keys().isdisjoint(LAT_ARGS):
            lat, lon = arg_number(self.snaked_args, LAT_ARGS), arg_number(self.snaked_args, LON_ARGS)
            if lat is not None and lon is not None and -90 <= lat <= 90 and -180 <= lon <= 180:
                return lat, lon
        return point_arg(self.snaked_args)

    @functools.cached_property
    def _call_place(self) -> PlaceFact | None:
        ref = self.facts.reference
        if not self.snaked_args.keys().isdisjoint(LAT_ARGS):
            lat, lon = arg_number(self.snaked_args, LAT_ARGS), arg_number(self.snaked_args, LON_ARGS)
            if lat is not None and lon is not None and -90 <= lat <= 90 and -180 <= lon <= 180:
                return ref.nearest_place(lat, lon)
        point = point_arg(self.snaked_args)  # "latlng": "48.85,2.35"
        if point is not None:
            return ref.nearest_place(*point)
        zipped = zip_of_call(self.snaked_args)  # a US ZIP is a place: its own town
        if zipped is not None:
            return zip_place(zipped, ref)
        rank = _LOOSE_PLACE_RANK if self._place_minded else _PLACE_RANK
        # The call's own arguments (one to three, usually), in the order place names rank.
        named = sorted((rank[key], key) for key in self.snaked_args if key in rank)
        for _, key in named:
            text = arg_text(self.snaked_args, (key,))
            if text is not None and len(text) <= 80:
                found = ref.find_place(text)
                if found is not None:
                    return found
        airport = self.call_airport("origin")
        if airport is not None:
            return ref.find_place(airport.city)
        return self._home_place() if self.home else None

    def home_country(self) -> str | None:
        """The country a national API's profile names ("US", "BR"), if it names one."""
        home = self.home or ""
        return home.upper() if len(home) == 2 else None

    def names_no_place(self) -> bool:
        """Whether the call's own arguments name no place (its place is the profile's home)."""
        return self.home is not None and self._call_place is not None and self._call_place == self._home_place()

    def _home_place(self) -> PlaceFact | None:
        """The profile's place: a country's capital (by ISO code) or a named city."""
        ref, home = self.facts.reference, self.home or ""
        country = ref.country(home.upper()) if len(home) == 2 else None
        capital = country.get("capital") if country else None
        return ref.find_place(f"{capital}, {country['name']}" if capital and country else home)

    @property
    def _place_minded(self) -> bool:
        return not entity_words(self.entity).isdisjoint(_PLACE_MINDED)

    @property
    def lists_places(self) -> bool:
        """Whether the records themselves are places (a list of cities, not of hotels); a
        geocoder's addresses, results and suggestions are places too."""
        words = entity_words(self.entity)
        return not words.isdisjoint(PLACE_ENTITIES) or self.category == "Geocoding" and not words.isdisjoint(
            _GEOCODED)

    def call_place(self) -> PlaceFact | None:
        return self._call_place

    @functools.cached_property
    def search_places(self) -> tuple[PlaceFact, ...] | None:
        """The places a place search answers (None: no place search; see ``place_query``)."""
        return search_places(self)

    @functools.cached_property
    def call_countries(self) -> tuple[CountryFact, ...]:
        """The countries a country tool's arguments name (see ``geo_kinds.call_countries``)."""
        return call_countries(self)

    def call_radius(self) -> float | None:
        value = arg_number(self.snaked_args, ("radius", "radius_km", "max_distance"))
        if value is None:
            meters = arg_number(self.snaked_args, ("radius_m", "radius_meters"))
            value = meters / 1000 if meters is not None else None
        return value if value is not None and value > 0 else None

    def call_airport(self, role: str) -> AirportFact | None:
        names = AIRPORT_ARGS if role == "origin" else DEST_AIRPORT_ARGS
        if self.snaked_args.keys().isdisjoint(names):
            return None
        text = arg_text(self.snaked_args, names)
        if text is None:
            return None
        ref = self.facts.reference
        hit = ref.airport(text.strip()) if len(text.strip()) in (3, 4) else None  # IATA, or ICAO
        if hit is None:
            place = ref.find_place(text)
            hit = ref.main_airport(place) if place is not None else None
        return hit

    @functools.cached_property
    def _call_instruments(self) -> tuple[InstrumentFact, ...]:
        table = self.facts.market_table
        found: list[InstrumentFact] = []
        for key in INSTRUMENT_ARGS:
            value = self.snaked_args.get(key)
            texts = value if isinstance(value, list) else str(value).split(",") if isinstance(value, str) else []
            for text in texts:
                hit = table.find(str(text)) if str(text).strip() else None
                if hit is not None and hit not in found:
                    found.append(hit)
        return tuple(found)

    def call_instruments(self) -> tuple[InstrumentFact, ...]:
        return self._call_instruments

    def call_currency(self) -> str | None:
        text = arg_text(self.snaked_args, CURRENCY_ARGS)
        code = text.split(",")[0].strip().upper() if text else None
        if code is None:  # "btceur" quotes in EUR
            pair = arg_text(self.snaked_args, INSTRUMENT_ARGS)
            code = self.facts.market_table.pair_of(pair)[1] if pair and len(pair) <= 12 else None
        return code if code and code in self.facts.market_table.fx_per_usd else None

    def is_crypto(self) -> bool:
        named = self._call_instruments
        if named:
            return named[0].kind == "crypto"
        domain = market_domain(self.category, self.provider, self.about)  # a crypto exchange's assets are coins
        if domain:
            return domain == "crypto"
        return not entity_words(self.entity).isdisjoint(_CRYPTO_WORDS)

    def is_quote(self) -> bool:
        return bool(self._call_instruments) or not entity_words(self.entity).isdisjoint(_QUOTE_WORDS)

    def quote_price(self, role: str) -> float:
        """The record's instrument today, in the call's currency (USD by default):
        ``close`` (the current price), ``open``, ``high``, ``low`` or ``previous_close``."""
        fact = self.scope.instrument()
        # Once per record: its open, high, low and close are one day's range.
        opened, high, low, close = self.scope.once(f"day_range:{fact.symbol}",
                                                   lambda: self.market.day_range(fact.symbol, self.today))
        usd = {"open": opened, "high": high, "low": low, "close": close, "previous_close": opened}[role]
        per = self.market.per_usd(self.call_currency() or "USD", self.today) or 1.0
        value = usd * per
        return round(value, 2 if value >= 1 else 6)

    def is_trip(self) -> bool:
        """A flight, offer or fare between two airports the call names."""
        return self.call_airport("origin") is not None and self.call_airport("destination") is not None

    def names_currencies(self) -> bool:
        return self.call_currency() is not None or arg_text(self.snaked_args, BASE_ARGS) is not None

    def fx_rate(self) -> float:
        base = (arg_text(self.snaked_args, BASE_ARGS) or "USD").split(",")[0].strip().upper()
        quote = self.call_currency() or ("EUR" if base != "EUR" else "USD")
        rate = self.market.rate(base, quote, self.today)
        return round(rate, 6) if rate is not None else round(self.rng.uniform(0.5, 2.0), 4)

    def car(self) -> tuple[str, str]:
        car: tuple[str, str] = self.scope.once("car", self._draw_car)
        return car

    def _draw_car(self) -> tuple[str, str]:
        line = vin_lineup(self)
        if line is not None:  # the model the VIN's make sold in its market and year
            return line["make"], line["model"]
        models = self.facts.reference.car_models
        make = self.decoded_vin["make"] if self.decoded_vin else arg_text(self.snaked_args, ("make", "make_name"))
        match = next((m for m in models if make and m.lower() == make.lower()), None)
        if match is None:
            makes = tuple(models)
            match = make or makes[self.rng.randrange(len(makes))]
        options = models.get(match) or ("Sedan",)
        return match, options[self.rng.randrange(len(options))]

    @functools.cached_property
    def decoded_vin(self) -> dict[str, Any] | None:
        """The call's VIN decoded (maker, country, model year), once per call."""
        vin = arg_text(self.snaked_args, ("vin",))
        return self.facts.reference.decode_vin(vin) if vin else None

    def _limit(self) -> int | None:
        return next((v for k in _LIMIT_ARGS if isinstance(v := self.args.get(k), int) and not isinstance(v, bool)), None)


