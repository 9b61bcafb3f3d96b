"""Value kinds that agree with the rest of the record: its weather, trip, vehicle, place and price.

Each draws once per record (``scope.once``) what several fields share, so a report's
condition and its precipitation agree, a flight's times fit the distance between its
airports, and a vehicle's body, type and engine belong together. ``values.KINDS`` maps
kind names to these.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from env_server.simulators.calendar_kinds import holiday_pool
from env_server.simulators.lineup import line_vehicle, vin_lineup
from env_server.simulators.records import DEPARTURE_DATE_ARGS, climate_temperature_c
from env_server.simulators.reference import haversine_km
from env_server.simulators.sky import band, plausible
from env_server.simulators.weather_conditions import is_daytime, night_text

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

LANGUAGES = ("en", "fr", "de", "es", "it", "pt", "ja", "zh", "ko", "nl", "sv", "pl")
AIRLINES = (("LH", "Lufthansa"), ("DL", "Delta Air Lines"), ("AF", "Air France"), ("UA", "United Airlines"),
            ("KL", "KLM"), ("EK", "Emirates"), ("QF", "Qantas"), ("SQ", "Singapore Airlines"),
            ("BA", "British Airways"), ("IB", "Iberia"), ("JL", "Japan Airlines"), ("AA", "American Airlines"),
            ("TP", "TAP Air Portugal"), ("LX", "Swiss"), ("AC", "Air Canada"), ("TK", "Turkish Airlines"))
# Each airline's ICAO designator (facts), beside its IATA code.
AIRLINE_ICAO = {"LH": "DLH", "DL": "DAL", "AF": "AFR", "UA": "UAL", "KL": "KLM", "EK": "UAE", "QF": "QFA", "SQ": "SIA",
                "BA": "BAW", "IB": "IBE", "JL": "JAL", "AA": "AAL", "TP": "TAP", "LX": "SWR", "AC": "ACA", "TK": "THY"}


def _base_temperature(gen: Generation) -> float:
    """The report's temperature: the place's climate for the day, give or take a few degrees."""
    base: float = gen.scope.root.once(
        "temp_c", lambda: climate_temperature_c(gen.scope.place, gen.today) + gen.rng.uniform(-4.0, 4.0))
    return base


def temperature_c(gen: Generation) -> float:
    return round(_base_temperature(gen) + gen.rng.uniform(-1.5, 1.5), 1)


_WET = ("rain", "drizzle", "shower", "snow", "sleet", "storm", "thunder", "hail")


def condition(gen: Generation) -> str:
    """One weather condition per report, shared by its text and its precipitation."""

    def make() -> str:
        # Plausible for how warm the air is (no smoke, no thunder over a January Berlin).
        options = plausible(gen.facts.vocab.get("weather_condition").values, band(_base_temperature(gen)))
        text: str = gen.rng.choice(options)
        # A report of now, after dark, is not "Sunny" (a day of a forecast is a day).
        if not gen.scope.in_list and not is_daytime(*gen.scope.point, gen.now):
            text = night_text(text)
        return text

    condition: str = gen.scope.root.once("condition", make)
    return condition


def precipitation(gen: Generation) -> float:
    """Rain only where the report's condition says so."""
    wet = any(word in condition(gen).lower() for word in _WET)
    return round(gen.rng.uniform(0.2, 9.0), 1) if wet else 0.0


def price(gen: Generation) -> float:
    """A quote's price when the record is an instrument, a typical retail price otherwise."""
    if gen.is_quote():
        return gen.quote_price("close")
    if gen.is_trip():
        return fare(gen)
    return round(gen.rng.uniform(5, 250), 2)


def distance_km(gen: Generation) -> float:
    """From the searched center to the record, when the call names one."""
    center = gen.call_place()
    if center is None:
        return round(gen.rng.uniform(0.3, 25.0), 1)
    lat, lon = gen.scope.point
    # Sent coordinates are the centre itself, not the place nearest them.
    c_lat, c_lon = gen.call_point or (center.latitude, center.longitude)
    return round(haversine_km(c_lat, c_lon, lat, lon), 1)


def holiday(gen: Generation) -> tuple[dt.date, str]:
    """A public holiday of the record's country in the year asked, or from today on for a
    list of the next ones (see ``calendar_kinds.holiday_pool``; one per record)."""
    scope = gen.scope

    def make() -> tuple[dt.date, str]:
        found = holiday_pool(gen, scope.place.country_code) or holiday_pool(gen, "US")
        # A list of holidays gives the year's, in order.
        return found[scope.index % len(found) if scope.in_list else gen.rng.randrange(len(found))]

    holiday: tuple[dt.date, str] = scope.once("holiday", make)
    return holiday


def trip(gen: Generation) -> tuple[dt.datetime, dt.datetime]:
    """Departure and arrival of the record's trip: on the requested day, as long as the
    distance between its airports takes to fly (one per record, shared by its fields)."""

    def make() -> tuple[dt.datetime, dt.datetime]:
        day = gen.call_date(DEPARTURE_DATE_ARGS) or gen.today + dt.timedelta(days=gen.rng.randint(3, 60))
        leave = dt.datetime.combine(day, dt.time(gen.rng.randint(6, 21), gen.rng.choice((0, 15, 30, 45))))
        return leave, leave + dt.timedelta(minutes=_flight_minutes(gen))

    trip: tuple[dt.datetime, dt.datetime] = gen.scope.once("trip", make, inherit=True)
    return trip


def trip_minutes(gen: Generation) -> int:
    leave, arrive = trip(gen)
    return int((arrive - leave).total_seconds() // 60)


def _route_km(gen: Generation) -> float:
    origin, destination = gen.scope.airport("origin"), gen.scope.airport("destination")
    return haversine_km(origin.latitude, origin.longitude, destination.latitude, destination.longitude)


def _flight_minutes(gen: Generation) -> int:
    km = _route_km(gen)
    stops = gen.rng.choice((0, 0, 1)) if km > 3000 else 0
    return int(35 + km / 13.5 + stops * gen.rng.randint(60, 180))  # ~810 km/h, plus taxi and layovers


def fare(gen: Generation) -> float:
    usd = (45 + 0.085 * _route_km(gen)) * gen.rng.uniform(0.8, 1.45)
    per = gen.market.per_usd(gen.call_currency() or gen.scope.place.currency_code, gen.today) or 1.0
    return round(usd * per, 2)


def language(gen: Generation) -> str:
    """The record's language: its place's, or in a list of languages the next one."""
    scope = gen.scope

    def make() -> str:
        if scope.in_list:
            return LANGUAGES[(gen.draw_offset + scope.index) % len(LANGUAGES)]
        return scope.place.language_code if gen.rng.random() < 0.6 else gen.rng.choice(LANGUAGES)

    language: str = scope.once("language", make)
    return language


# NHTSA vPIC body classes and the vehicle type each belongs to (facts of its vocabulary).
BODY_CLASSES = (
    ("Sedan/Saloon", "PASSENGER CAR"), ("Hatchback/Liftback/Notchback", "PASSENGER CAR"), ("Coupe", "PASSENGER CAR"),
    ("Wagon", "PASSENGER CAR"), ("Convertible/Cabriolet", "PASSENGER CAR"),
    ("Sport Utility Vehicle (SUV)/Multi-Purpose Vehicle (MPV)", "MULTIPURPOSE PASSENGER VEHICLE (MPV)"),
    ("Crossover Utility Vehicle (CUV)", "MULTIPURPOSE PASSENGER VEHICLE (MPV)"),
    ("Minivan", "MULTIPURPOSE PASSENGER VEHICLE (MPV)"), ("Pickup", "TRUCK"),
)


def vehicle(gen: Generation) -> tuple[str, str, int, float]:
    """Body class, vehicle type, cylinders and displacement of the record's vehicle."""

    def make() -> tuple[str, str, int, float]:
        line = vin_lineup(gen)
        if line is not None:  # a decoded VIN: that model line's body and one of its engines
            return line_vehicle(gen, line)
        body, kind = gen.rng.choice(BODY_CLASSES)
        cylinders = gen.rng.choice((4, 4, 4, 6, 6, 8) if kind != "PASSENGER CAR" else (3, 4, 4, 4, 4, 6))
        return body, kind, cylinders, round(cylinders * gen.rng.uniform(0.38, 0.62), 1)

    vehicle: tuple[str, str, int, float] = gen.scope.once("vehicle", make)
    return vehicle


def vin_year(gen: Generation) -> int | None:
    """The model year a VIN encodes (its 10th character), when the call gives a VIN."""
    decoded = gen.decoded_vin
    year = decoded["model_year"] if decoded else None
    return int(year) if isinstance(year, int) else None


def vin_country(gen: Generation) -> str:
    """Where the VIN says the vehicle was built (its WMI), or the record's country."""
    decoded = gen.decoded_vin
    return decoded["country"] if decoded and decoded["country"] else gen.scope.place.country


def airline(gen: Generation) -> tuple[str, str]:
    airline: tuple[str, str] = gen.scope.once("airline", lambda: gen.rng.choice(AIRLINES), inherit=True)
    return airline
