"""Public-transport journeys a rider would believe: as long as the distance and the mode take.

A journey runs between the places the call names: a London station of
``tool_specs/vocab/london_station.json`` ("Oxford Circus"), a point ("51.51,-0.14") or a
city of the reference ("Utrecht"). Its legs are a walk to the first stop, one ride (or two
with an interchange, when no line serves both ends), and a walk from the last stop. A ride
takes its route length (1.3 × the straight line) at the mode's speed: a metro about 33
km/h, a bus 15, a train between cities 95; an interchange adds four minutes, a walk goes at
4.8 km/h. A journey's duration is the sum of its legs, and it arrives that long after it
starts. Alternatives (the second and third journey of a list) leave a few minutes later.

``JOURNEY_KINDS`` join ``values.KINDS``; ``JOURNEY_LISTS`` size a journey's legs.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from env_server.simulators.reference import haversine_km

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation
    from env_server.simulators.records import RecordScope

_FROM_ARGS = ("from", "origin", "orig", "from_station", "starting_station", "departure_station", "origin_station",
              "start", "departure")
_TO_ARGS = ("to", "destination", "dest", "to_station", "destination_station", "arrival_station", "end", "arrival")
_OPERATORS = {"NL": "NS", "DE": "Deutsche Bahn", "ES": "Renfe", "FR": "SNCF", "IT": "Trenitalia", "US": "Amtrak",
              "CH": "SBB", "AT": "ÖBB", "BE": "SNCB", "JP": "JR", "SE": "SJ", "DK": "DSB", "NO": "Vy", "PL": "PKP Intercity",
              "CZ": "České dráhy", "IN": "Indian Railways", "CA": "VIA Rail", "AU": "NSW TrainLink"}
# How a country's rail operators name a city's main station.
_MAIN_STATION = {"NL": "{} Centraal", "BE": "{}-Centraal", "DE": "{} Hauptbahnhof", "AT": "{} Hauptbahnhof",
                 "CH": "{} HB", "IT": "{} Centrale", "ES": "{} Estación Central", "FR": "Gare de {}",
                 "GB": "{} Central", "US": "{} Union Station", "JP": "{} Station", "SE": "{} Centralstation",
                 "DK": "{} Hovedbanegård", "NO": "{} S", "PL": "{} Główna", "CZ": "{} hlavní nádraží"}
_POINT_RE = re.compile(r"^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$")
_ROUTE = 1.3  # a route is longer than the straight line
_WALK_KMH, _METRO_KMH, _BUS_KMH, _TRAIN_KMH = 4.8, 33.0, 15.0, 95.0
_INTERCHANGE_MIN = 4
_MODES = {"DLR": "dlr", "Overground": "overground", "Elizabeth": "elizabeth-line"}


@dataclass(frozen=True)
class Stop:
    name: str
    latitude: float
    longitude: float
    zone: int = 0
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Leg:
    mode: str  # walking, tube, bus, national-rail, ...
    line: str
    origin: str
    destination: str
    minutes: int

    @property
    def instruction(self) -> str:
        if self.mode == "walking":
            return f"Walk to {self.destination}"
        if self.mode == "bus":
            return f"Bus {self.line} towards {self.destination}"
        line = self.line if self.line in ("DLR", "Overground") else f"{self.line} line"
        return f"{line} to {self.destination}"


@dataclass(frozen=True)
class Journey:
    start: dt.datetime
    legs: tuple[Leg, ...]
    fare_pence: int

    @property
    def minutes(self) -> int:
        return sum(leg.minutes for leg in self.legs)

    @property
    def arrival(self) -> dt.datetime:
        return self.start + dt.timedelta(minutes=self.minutes)

    @property
    def transfers(self) -> int:
        return max(0, sum(1 for leg in self.legs if leg.mode != "walking") - 1)


def _stations(gen: Generation) -> tuple[dict[str, Any], ...]:
    return gen.facts.vocab.get("london_station").records


def _as_stop(row: dict[str, Any]) -> Stop:
    return Stop(str(row["name"]), float(row["latitude"]), float(row["longitude"]), int(row["zone"]),
                tuple(row["lines"]))


def find_stop(gen: Generation, text: str) -> Stop | None:
    """The stop a call names: a London station, a point, or a city of the reference."""
    match = _POINT_RE.match(text)
    if match:
        lat, lon = float(match.group(1)), float(match.group(2))
        row = min(_stations(gen), key=lambda r: haversine_km(lat, lon, r["latitude"], r["longitude"]))
        if haversine_km(lat, lon, row["latitude"], row["longitude"]) < 1.0:
            return _as_stop(row)
        return Stop(f"{lat:.4f},{lon:.4f}", lat, lon)
    key = re.sub(r"\s+(underground\s+)?station$", "", text.strip().lower())
    named = next((r for r in _stations(gen) if str(r["name"]).lower() in (key, key.replace("st ", "st. "))), None)
    if named is not None:
        return _as_stop(named)
    place = gen.facts.reference.find_place(text)
    return Stop(place.name, place.latitude, place.longitude) if place is not None else None


def _ends(gen: Generation) -> tuple[Stop, Stop]:
    """The journey's two ends: the ones the call names, else two London stations apart."""
    texts = [next((str(v) for k in names if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), None)
             for names in (_FROM_ARGS, _TO_ARGS)]
    found: list[Stop | None] = list(gen.scope.top.once("journey_ends", lambda: [
        find_stop(gen, t) if t else None for t in texts]))
    rows = _stations(gen)
    for i, stop in enumerate(found):
        if stop is None:
            row = rows[(gen.draw_offset + 17 * i) % len(rows)]
            found[i] = _as_stop(row) if texts[i] is None else Stop(str(texts[i]), row["latitude"], row["longitude"])
    a, b = found
    assert a is not None and b is not None
    if a.name == b.name and texts[1] is None:
        b = _as_stop(rows[(rows.index(next(r for r in rows if r["name"] == a.name)) + 5) % len(rows)]) \
            if a.lines else b
    return a, b


def _minutes(km: float, kmh: float) -> int:
    return max(1, math.ceil(km * _ROUTE / kmh * 60))


def _ride(a: Stop, b: Stop, option: int) -> list[Leg]:
    """The rides between two stops: a shared line, or two lines with an interchange."""
    km = haversine_km(a.latitude, a.longitude, b.latitude, b.longitude)
    if not a.lines or not b.lines:  # between cities, or places with no known lines
        if km > 30:
            return [Leg("national-rail", "National Rail", a.name, b.name, _minutes(km, _TRAIN_KMH) + 6)]
        return [Leg("bus", str(10 + int(km * 7) % 190), a.name, b.name, _minutes(km, _BUS_KMH))]
    shared = [line for line in a.lines if line in b.lines]
    if option == 2 and km < 8:  # the third alternative: the bus
        return [Leg("bus", str(10 + int(km * 7) % 190), a.name, b.name, _minutes(km, _BUS_KMH))]
    if not shared:
        return []  # the caller routes it through an interchange
    line = shared[option % len(shared)]
    return [Leg(_MODES.get(line, "tube"), line, a.name, b.name, _minutes(km, _METRO_KMH) + 1)]


def _via(gen: Generation, a: Stop, b: Stop) -> list[Leg]:
    """Two rides through the station that serves a line of each end with the least detour."""
    best: tuple[float, Stop] | None = None
    for row in _stations(gen):
        hub = _as_stop(row)
        into, out = set(hub.lines) & set(a.lines), set(hub.lines) & set(b.lines)
        if hub.name in (a.name, b.name) or not into or not out or into == out:
            continue
        detour = haversine_km(a.latitude, a.longitude, hub.latitude, hub.longitude) + haversine_km(
            hub.latitude, hub.longitude, b.latitude, b.longitude)
        if best is None or detour < best[0]:
            best = (detour, hub)
    if best is None:
        km = haversine_km(a.latitude, a.longitude, b.latitude, b.longitude)
        return [Leg("bus", str(10 + int(km * 7) % 190), a.name, b.name, _minutes(km, _BUS_KMH))]
    hub = best[1]
    first, second = _ride(a, hub, 0), _ride(hub, b, 0)
    second = [Leg(leg.mode, leg.line, leg.origin, leg.destination, leg.minutes + _INTERCHANGE_MIN) for leg in second]
    return first + second


def _fare(legs: list[Leg], a: Stop, b: Stop, zones: set[int]) -> int:
    rides = [leg for leg in legs if leg.mode != "walking"]
    if not rides:
        return 0
    if all(leg.mode == "bus" for leg in rides):
        return 175
    if any(leg.mode == "national-rail" for leg in rides):
        km = haversine_km(a.latitude, a.longitude, b.latitude, b.longitude)
        return int(round(400 + km * 22, -1))
    return 290 if zones == {1} else 350 if 1 in zones else 200


def _start(gen: Generation, option: int) -> dt.datetime:
    day = gen.call_date(("date", "datetime", "departure", "when")) or gen.today
    clock = next((str(v) for k in ("time", "datetime", "departure") if isinstance(v := gen.snaked_args.get(k), str)),
                 "")
    hhmm = re.search(r"(?:T|^)(\d{2}):?(\d{2})", clock)
    if hhmm and int(hhmm.group(1)) < 24 and int(hhmm.group(2)) < 60:
        at = dt.time(int(hhmm.group(1)), int(hhmm.group(2)))
    else:
        at = gen.now.time().replace(second=0, microsecond=0) if day == gen.today else dt.time(9, 0)
    return dt.datetime.combine(day, at) + dt.timedelta(minutes=2 + 6 * option)


def journey(gen: Generation, scope: RecordScope | None = None) -> Journey:
    """The journey of the record (``scope``, by default the one being built; its legs share it)."""
    scope = scope or gen.scope.root

    def make() -> Journey:
        option = scope.index if scope.in_list else 0
        a, b = _ends(gen)
        km = haversine_km(a.latitude, a.longitude, b.latitude, b.longitude)
        if km < 1.2:
            legs = [Leg("walking", "", a.name, b.name, _minutes(km, _WALK_KMH))]
        else:
            rides = _ride(a, b, option) or _via(gen, a, b)
            legs = [Leg("walking", "", a.name, rides[0].origin, 2 + option % 3), *rides,
                    Leg("walking", "", rides[-1].destination, b.name, 3 + (option * 2) % 4)]
            legs = [one for one in legs if one.mode != "walking" or one.origin != one.destination]
        zone: dict[str, int] = gen.scope.top.once("station_zones", lambda: {
            str(r["name"]): int(r["zone"]) for r in _stations(gen)})
        zones = {zone.get(name, 1) for one in legs if one.mode != "walking" for name in (one.origin, one.destination)}
        return Journey(_start(gen, option), tuple(legs), _fare(legs, a, b, zones))

    found: Journey = scope.once("journey", make)
    return found


def leg(gen: Generation) -> Leg:
    """The leg of the record: item ``index`` of its journey's legs."""
    scope = gen.scope.root
    legs = journey(gen, scope.parent.root if scope.parent is not None else scope).legs
    return legs[min(scope.index, len(legs) - 1)]


def minutes(gen: Generation) -> int:
    """A duration named alike at both levels ("duration"): the leg's in a leg, else the journey's."""
    scope = gen.scope.root
    parent = scope.parent.root if scope.parent is not None else None
    return leg(gen).minutes if parent is not None and "journey" in parent.values else journey(gen).minutes


def _named_city(gen: Generation, names: tuple[str, ...]) -> Any:
    text = next((str(v) for k in names if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), None)
    return (text, gen.facts.reference.find_place(text) if text else None)


def train_trip(gen: Generation) -> tuple[str, str, dt.datetime, dt.datetime]:
    """A train between two cities (origin and destination names, departure and arrival):
    the cities the call names, else the record's city and another of its country, 30–400 km
    apart; it takes the distance at 95 km/h plus stops."""
    scope = gen.scope.root

    def make() -> tuple[str, str, dt.datetime, dt.datetime]:
        (a_text, a), (b_text, b) = _named_city(gen, _FROM_ARGS), _named_city(gen, _TO_ARGS)
        a = a or scope.place
        if b is None:
            ref = gen.facts.reference
            near = [p for p, km in ref.places_near(a, 400) if km >= 30 and p.country_code == a.country_code]
            pool = near or [p for p in ref.drawable_places if p.country_code == a.country_code and p != a]
            b = pool[gen.rng.randrange(len(pool))] if pool else a
        km = haversine_km(a.latitude, a.longitude, b.latitude, b.longitude)
        day = gen.call_date(("date", "departure_date", "travel_date")) or gen.today
        leave = dt.datetime.combine(day, dt.time(gen.rng.randint(6, 21), gen.rng.choice((2, 17, 32, 47))))
        arrive = leave + dt.timedelta(minutes=_minutes(km, _TRAIN_KMH) + 6)
        return (a_text or main_station(a.name, a.country_code), b_text or main_station(b.name, b.country_code),
                leave, arrive)

    found: tuple[str, str, dt.datetime, dt.datetime] = scope.once("train_trip", make)
    return found


def rail_operator(gen: Generation) -> str:
    """The national operator of the country the train runs in."""
    place = gen.facts.reference.find_place(train_trip(gen)[0]) or gen.scope.place
    return _OPERATORS.get(place.country_code, "National Rail" if place.country_code == "GB" else "Regional Rail")


def train_fare(gen: Generation) -> float:
    """A standard single fare: a base plus about 0.17 per km (first class 1.6 times that)."""
    leave, arrive = train_trip(gen)[2:]
    km = (arrive - leave).total_seconds() / 60 * _TRAIN_KMH / 60 / _ROUTE
    first = str(gen.scope.values.get("seat_class") or gen.snaked_args.get("seat_class") or "").startswith("first")
    return round((2.5 + 0.17 * km) * (1.6 if first else 1.0), 2)


def terminus(gen: Generation) -> str:
    """Where a city line runs to (a headsign): a neighbouring town, else the city's centre."""
    place = gen.scope.place
    near = [p for p, km in gen.facts.reference.places_near(place, 25) if p.name != place.name]
    return near[gen.rng.randrange(len(near))].name if near else f"{place.name} Centre"


def main_station(city: str, country: str) -> str:
    """A city's main station, named the way the country's railways name it."""
    return _MAIN_STATION.get(country, "{} Central Station").format(city)


def _iso(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


JOURNEY_KINDS: dict[str, Callable[[Generation], Any]] = {
    "journey_start": lambda g: _iso(journey(g).start),
    "journey_arrival": lambda g: _iso(journey(g).arrival),
    "journey_minutes": minutes,
    "journey_fare_pence": lambda g: journey(g).fare_pence,
    "journey_transfers": lambda g: journey(g).transfers,
    "leg_mode": lambda g: leg(g).mode,
    "leg_instruction": lambda g: leg(g).instruction,
    "leg_origin": lambda g: leg(g).origin,
    "leg_destination": lambda g: leg(g).destination,
    "leg_minutes": lambda g: leg(g).minutes,
    "station_name": lambda g: main_station(g.scope.place.name, g.scope.place.country_code),
    "origin_station": lambda g: train_trip(g)[0],
    "destination_station": lambda g: train_trip(g)[1],
    "train_departure": lambda g: _iso(train_trip(g)[2]),
    "train_arrival": lambda g: _iso(train_trip(g)[3]),
    "rail_operator": rail_operator,
    "terminus": terminus,
    "train_fare": train_fare,
    "train_minutes": lambda g: int((train_trip(g)[3] - train_trip(g)[2]).total_seconds() // 60),
}

# The kinds that are moments of the journey (not points on a series axis; see ``plans``).
JOURNEY_MOMENTS = frozenset({"journey_start", "journey_arrival", "train_departure", "train_arrival"})

# A journey's legs are all of its legs.
JOURNEY_LISTS: dict[str, Callable[[Generation], int]] = {
    kind: (lambda g: len(journey(g).legs)) for kind in ("leg_mode", "leg_instruction", "leg_minutes")}
