"""Nearby places and airports: looked up through a latitude band, same answers as a full scan, and fast."""

from __future__ import annotations

import time

import pytest

from env_server.simulators.records import default_facts
from env_server.simulators.reference import PlaceFact, ReferenceData, haversine_km

# Mid-latitude capitals, a city near the date line, one far north and one far south.
CENTERS = ("Lisbon", "Tokyo", "Suva", "Tromsø", "Longyearbyen", "Ushuaia", "Quito", "Anchorage")


@pytest.fixture(scope="module")
def ref() -> ReferenceData:
    return default_facts().reference


def _center(ref: ReferenceData, name: str) -> PlaceFact:
    place = ref.find_place(name)
    assert place is not None, name
    return place


def _places_by_scan(ref: ReferenceData, c: PlaceFact, radius: float) -> list[tuple[str, float]]:
    found = [(p, haversine_km(c.latitude, c.longitude, p.latitude, p.longitude)) for p in ref.places]
    return [(p.name, d) for p, d in sorted((f for f in found if f[1] <= radius), key=lambda f: (f[1], f[0].name))]


@pytest.mark.parametrize("name", CENTERS)
@pytest.mark.parametrize("radius", [25.0, 150.0, 900.0])
def test_places_near_matches_a_full_scan(ref: ReferenceData, name: str, radius: float):
    center = _center(ref, name)
    assert [(p.name, d) for p, d in ref.places_near(center, radius)] == _places_by_scan(ref, center, radius)


@pytest.mark.parametrize("name", CENTERS)
def test_airports_near_matches_a_full_scan(ref: ReferenceData, name: str):
    center = _center(ref, name)
    own = ref.airports_of(center)
    def dist(a):
        return haversine_km(center.latitude, center.longitude, a.latitude, a.longitude)
    others = sorted((a for a in ref._airports_by_city_flat if a not in own and dist(a) <= 300.0), key=dist)
    assert [a.iata for a in ref.airports_near(center, 300.0)] == [a.iata for a in [*own, *others]]


def test_nearby_lookups_cost_a_band_not_the_whole_world(ref: ReferenceData):
    centers = [_center(ref, n) for n in CENTERS]
    ref.places_near(centers[0], 50.0), ref.airports_near(centers[0])  # build the indexes
    started = time.perf_counter()
    for _ in range(10):
        for center in centers:
            ref.places_near(center, 50.0)
            ref.airports_near(center)
    # A full scan costs ~40 ms per place lookup and ~100 ms per airport lookup on this VM (~10 s here).
    assert time.perf_counter() - started < 2.0


@pytest.mark.parametrize("point", [(38.72, -9.14), (-18.1, 179.9), (78.2, 15.6), (-89.0, 0.0), (0.0, -160.0),
                                   (51.5, -0.12), (64.0, -150.0)])
def test_nearest_place_matches_a_full_scan(ref: ReferenceData, point: tuple[float, float]):
    lat, lon = point
    full = min(ref.drawable_places, key=lambda p: haversine_km(lat, lon, p.latitude, p.longitude))
    assert ref.nearest_place(lat, lon) == full
