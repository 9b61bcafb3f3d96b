"""FAA facility and route values in the shapes the FAA's own data prints them.

An airport facility record (the FAA 5010 data behind aviation APIs) gives its position
twice, in degrees and in seconds of arc (``latitude_sec`` ``"127854.0000N"``, the same
point), its magnetic variation as ``"07W"``, its district office, sectional chart and air
route traffic control center (ARTCC ``ZAU``, "CHICAGO") as the FAA names them, and its
radio frequencies in MHz. A preferred route is a string of fixes and airways
(``"ERLIN J89 DUMMR Q102 ROKKY"``), active in hours written ``"1100-0300"``. The ARTCC of a
record is the centre nearest its point, so the code, its name and the position agree.

The field-name rules here run before the generic ones in ``naming`` (their names mean
nothing else); route fields with common names (``route``, ``area``, ``hours1``) get these
kinds only beside FAA fields, through ``catalog.shape_hints``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# The FAA's air route traffic control centres: id, name, and the rough point they serve from.
_ARTCCS: tuple[tuple[str, str, float, float], ...] = (
    ("ZAB", "ALBUQUERQUE", 35.1, -106.6), ("ZAN", "ANCHORAGE", 61.2, -149.9), ("ZAU", "CHICAGO", 41.8, -88.3),
    ("ZBW", "BOSTON", 42.7, -71.5), ("ZDC", "WASHINGTON", 39.1, -77.6), ("ZDV", "DENVER", 40.2, -105.1),
    ("ZFW", "FORT WORTH", 32.8, -97.3), ("ZHN", "HONOLULU", 21.3, -157.9), ("ZHU", "HOUSTON", 29.96, -95.3),
    ("ZID", "INDIANAPOLIS", 39.7, -86.3), ("ZJX", "JACKSONVILLE", 30.7, -81.9), ("ZKC", "KANSAS CITY", 38.9, -94.8),
    ("ZLA", "LOS ANGELES", 34.6, -118.1), ("ZLC", "SALT LAKE CITY", 40.8, -111.95), ("ZMA", "MIAMI", 25.8, -80.3),
    ("ZME", "MEMPHIS", 35.07, -89.96), ("ZMP", "MINNEAPOLIS", 44.6, -93.2), ("ZNY", "NEW YORK", 40.8, -73.1),
    ("ZOA", "OAKLAND", 37.5, -122.0), ("ZOB", "CLEVELAND", 41.3, -82.2), ("ZSE", "SEATTLE", 47.3, -122.2),
    ("ZTL", "ATLANTA", 33.4, -84.3),
)
# VFR sectional charts, each with the point it is named for.
_SECTIONALS: tuple[tuple[str, float, float], ...] = (
    ("SEATTLE", 47.6, -122.3), ("GREAT FALLS", 47.5, -111.3), ("BILLINGS", 45.8, -108.5),
    ("TWIN CITIES", 44.98, -93.27), ("GREEN BAY", 44.5, -88.0), ("LAKE HURON", 44.8, -83.4),
    ("MONTREAL", 44.9, -73.6), ("HALIFAX", 44.6, -68.5), ("KLAMATH FALLS", 42.2, -121.8),
    ("SALT LAKE CITY", 40.76, -111.9), ("CHEYENNE", 41.1, -104.8), ("OMAHA", 41.26, -95.93),
    ("CHICAGO", 41.88, -87.63), ("DETROIT", 42.33, -83.05), ("NEW YORK", 40.7, -74.0),
    ("SAN FRANCISCO", 37.77, -122.4), ("LAS VEGAS", 36.17, -115.1), ("DENVER", 39.74, -104.99),
    ("WICHITA", 37.69, -97.3), ("KANSAS CITY", 39.1, -94.6), ("ST LOUIS", 38.63, -90.2),
    ("CINCINNATI", 39.1, -84.5), ("WASHINGTON", 38.9, -77.0), ("LOS ANGELES", 34.05, -118.25),
    ("PHOENIX", 33.45, -112.07), ("ALBUQUERQUE", 35.08, -106.65), ("DALLAS-FT WORTH", 32.8, -97.0),
    ("MEMPHIS", 35.15, -90.05), ("ATLANTA", 33.75, -84.39), ("CHARLOTTE", 35.23, -80.84),
    ("EL PASO", 31.76, -106.49), ("SAN ANTONIO", 29.42, -98.49), ("HOUSTON", 29.76, -95.37),
    ("NEW ORLEANS", 29.95, -90.07), ("JACKSONVILLE", 30.33, -81.66), ("BROWNSVILLE", 25.9, -97.5),
    ("MIAMI", 25.76, -80.19), ("HAWAIIAN ISLANDS", 21.3, -157.85), ("ANCHORAGE", 61.2, -149.9),
)
# Flight Standards District Offices, by the three-letter code the FAA files them under.
_DISTRICT_OFFICES = ("ALB", "ANC", "ATL", "BHM", "BIS", "BNA", "BOS", "CHI", "CLE", "DAL", "DEN", "DSM", "FAT",
                     "GRB", "HOU", "IND", "JAN", "LAS", "LAX", "MCI", "MEM", "MIA", "MKE", "MSP", "NYC", "OKC", "ORL",
                     "PHL", "PHX", "PIT", "RIC", "SAN", "SAT", "SEA", "SFO", "SLC", "STL", "TPA")
_OFFICE_AIRPORT = {"CHI": "MDW", "NYC": "LGA"}  # an office named for a city, not an airport: the airport it sits by
_UNICOM_MHZ = ("122.700", "122.725", "122.800", "122.950", "122.975", "123.000", "123.050", "123.075")
_AIRWAYS = "JJJQQV"  # jet routes, RNAV Q-routes, victor airways
_CONSONANTS = "BCDFGHJKLMNPRSTVWZ"
_VOWELS = "AEIOU"


def _near(gen: Generation, table: tuple[Any, ...], role: str = "") -> Any:
    """The entry of ``table`` nearest the record's point (or its ``role`` airport's)."""
    if role:
        airport = gen.scope.airport(role)
        lat, lon = airport.latitude, airport.longitude
    else:
        lat, lon = gen.scope.point
    return min(table, key=lambda row: (row[-2] - lat) ** 2 + ((row[-1] - lon) * math.cos(math.radians(lat))) ** 2)


def _seconds(value: float, positive: str, negative: str) -> str:
    """Degrees as the FAA's seconds of arc with a hemisphere letter: 35.4362 -> 127570.3200N."""
    return f"{abs(value) * 3600:.4f}{positive if value >= 0 else negative}"


def _magnetic_variation(gen: Generation) -> str:
    """Declination across the US runs from about 15° east on the Pacific to 15° west in Maine."""
    lon = gen.scope.point[1]
    us = -170 <= lon <= -50
    degrees = round((-lon - 90) * 0.45) if us else round(-lon / 36)  # elsewhere: a few degrees
    return f"{abs(degrees):02d}{'E' if degrees >= 0 else 'W'}"


def _fix(gen: Generation) -> str:
    """A five-letter pronounceable fix name (``DUMMR``, ``ERLIN``)."""
    c, v = _CONSONANTS, _VOWELS
    return "".join(gen.rng.choice(pool) for pool in (c, v, c, v, c))


def _route_string(gen: Generation) -> str:
    """Fixes joined by airways, as a preferred route prints them."""
    parts = [_fix(gen)]
    for _ in range(gen.rng.randint(1, 3)):
        parts += [f"{gen.rng.choice(_AIRWAYS)}{gen.rng.randint(6, 199)}", _fix(gen)]
    if gen.rng.random() < 0.5:  # into an arrival procedure
        parts.append(f"{_fix(gen)}{gen.rng.randint(1, 9)}")
    return " ".join(parts)


def _hours(gen: Generation) -> str:
    start = gen.rng.choice((0, 1100, 1200, 1300, 1400, 2200, 2300))
    end = (start + gen.rng.choice((400, 600, 800, 1000, 1200))) % 2400
    return f"{start:04d}-{end:04d}"


def _certification(gen: Generation) -> str:
    """Part 139 class, index and schedule, then month/year: ``I C S 05/1973``."""
    year = gen.rng.randint(1972, gen.today.year - 1)
    return f"{gen.rng.choice(('I', 'I', 'II', 'III', 'IV'))} {gen.rng.choice('ABCDE')} S {gen.rng.randint(1, 12):02d}/{year}"


def _ctaf(gen: Generation) -> str:
    return f"{gen.rng.randint(118, 135)}.{gen.rng.choice(('000', '025', '050', '075', '100', '200', '300', '500'))}"


def _district_office(gen: Generation) -> str:
    """The district office nearest the record's point (the one that serves its region)."""
    ref, (lat, lon) = gen.facts.reference, gen.scope.point
    best, far = _DISTRICT_OFFICES[0], math.inf
    for code in _DISTRICT_OFFICES:
        at = ref.airport(_OFFICE_AIRPORT.get(code, code))
        if at is None:
            continue
        d = (at.latitude - lat) ** 2 + ((at.longitude - lon) * math.cos(math.radians(lat))) ** 2
        if d < far:
            best, far = code, d
    return best


def _us_icao(gen: Generation) -> str:
    """A US airport's ICAO code (``KAVL``): what a caller of the FAA's data asks about."""
    pool = [a for a in gen.facts.reference.major_airports if a.country_code == "US" and a.icao]
    return pool[gen.rng.randrange(len(pool))].icao if pool else "KAVL"


AVIATION_KINDS: dict[str, Callable[[Generation], Any]] = {
    "faa_airport_icao": _us_icao,
    "faa_ident": lambda g: g.scope.airport().iata,
    "faa_icao_ident": lambda g: g.scope.airport().icao,
    "faa_site_number": lambda g: f"{g.rng.randint(1000, 26999):05d}.*{g.rng.choice('AAAAH')}",
    "latitude_seconds": lambda g: _seconds(g.scope.point[0], "N", "S"),
    "longitude_seconds": lambda g: _seconds(g.scope.point[1], "E", "W"),
    "magnetic_variation": _magnetic_variation,
    "faa_district_office": lambda g: _district_office(g),
    "state_code": lambda g: g.facts.reference.state_code(g.scope.place.region) or g.scope.place.region,
    "vfr_sectional": lambda g: _near(g, _SECTIONALS)[0],
    "artcc": lambda g: _near(g, _ARTCCS)[0],
    "artcc_name": lambda g: _near(g, _ARTCCS)[1],
    "departure_artcc": lambda g: _near(g, _ARTCCS, "origin")[0],
    "arrival_artcc": lambda g: _near(g, _ARTCCS, "destination")[0],
    "pattern_altitude": lambda g: str(g.rng.choice((800, 1000, 1000, 1000, 1500))),
    "tollfree_phone": lambda g: "1-800-WX-BRIEF",
    "light_schedule": lambda g: g.rng.choice(("SS-SR", "SS-SR", "SS-SR", "SEE RMK")),
    "unicom": lambda g: g.rng.choice(_UNICOM_MHZ),
    "ctaf": _ctaf,
    "faa_certification": _certification,
    "flight_route": _route_string,
    "route_hours": _hours,
    "route_area": lambda g: f"{g.rng.choice(('NORTH', 'SOUTH', 'EAST', 'WEST'))} OF {_fix(g)}",
    "route_altitude": lambda g: g.rng.choice(("FL180-FL230", "FL240-FL350", "AOA FL240", "BLO FL180", "17000")),
    "aircraft_class": lambda g: g.rng.choice(("JETS", "TURBOJETS", "TURBOPROPS", "PROPS", "JETS ONLY")),
    "route_flow": lambda g: g.rng.choice(("NORTH", "SOUTH", "EAST", "WEST", "NORTHEAST", "SOUTHWEST")),
}

# Names only FAA data uses: they run before the generic rules (``_ident`` would make a code).
AVIATION_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), k)
    for p, k in [
        (r"^(faa_ident|faa_id|faa_lid|notam_facility_ident|notam_id)$", "faa_ident"),
        (r"^icao_ident$", "faa_icao_ident"),
        (r"^site_number$", "faa_site_number"),
        (r"^(latitude|lat)_(sec|secs|seconds)$", "latitude_seconds"),
        (r"^(longitude|lon|long)_(sec|secs|seconds)$", "longitude_seconds"),
        (r"^(magnetic_variation|mag_var|magvar|mag_variation)$", "magnetic_variation"),
        (r"^(district_office|fsdo)$", "faa_district_office"),
        (r"^(vfr_sectional|sectional|sectional_chart)$", "vfr_sectional"),
        (r"artcc_name$", "artcc_name"),
        (r"^d_artcc$|^(departure|origin)_artcc$", "departure_artcc"),
        (r"^a_artcc$|^(arrival|destination)_artcc$", "arrival_artcc"),
        (r"(^|_)artcc$", "artcc"),
        (r"^(tpa|traffic_pattern_altitude)$", "pattern_altitude"),
        (r"(toll_?free|tollfree)$|^fss_phone_numer_tollfree$", "tollfree_phone"),
        (r"^(lighting_schedule|beacon_schedule|beacon_light_schedule)$", "light_schedule"),
        (r"^unicom$", "unicom"),
        (r"^ctaf$", "ctaf"),
        (r"^certification_type_?date$", "faa_certification"),
    ]
]


_ARRIVAL_ROLES = frozenset({"destination", "to", "dest", "arrival", "arrival_airport", "destination_airport",
                            "to_airport", "arr", "arr_iata", "destination_iata", "destination_code"})


def trip_end_kind(field: str, hint: str | None) -> str | None:
    """A trip's arrival end that a profile hints as an airport code: the destination's airport,
    not the origin's again (a flight alert from MKZ to MKZ)."""
    return "destination_airport_code" if hint == "airport_code" and field in _ARRIVAL_ROLES else None
