"""Which geographic kind a field holds, from its name, its record's entity and its parent.

``cca3`` is an alpha-3 code wherever it appears; ``region`` of a country is a world region
("Europe"), of an address a state; ``name`` inside a ``currency`` object is the currency's
name. These rules run before the general rules of ``naming`` and beat a broad profile
hint ("cca3": "country_code", "capital": "city"), since the name says more. ``geo_array``
gives whole-list values: a country's languages, time zones and borders, a point's
``latlng`` and the bounding box around it.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.geo_kinds import country, country_minded

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Node = Callable[["Generation", "int | None"], Any]

_TIME_WORDS = frozenset({"timezone", "tz", "time"})
# Words a time-zone record's name may add ("current_time", "world_time_zone"); a time series,
# a time entry or a transit time is not a zone, and its "name" is no zone's name (nor is a
# DNS "zone"'s: a domain).
ZONE_WORDS = _TIME_WORDS | {"zone", "local", "current", "world", "now", "clock", "info", "data", "lookup"}
# Records that are a spot on a map (a geocoding hit, an address, a feature).
_MAP_WORDS = frozenset({"place", "feature", "toponym", "locality", "poi", "geocode", "address", "location",
                        "suggestion", "geoname", "city", "town"})

_ANYWHERE: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), k) for p, k in (
    (r"^(cca3|alpha3|alpha_3|alpha3_code|iso3|iso_alpha3|iso_a3|country_code3|country_code_alpha3|country_iso3"
     r"|iso3_code|country_code_iso3)$", "country_code3"),
    (r"^(cca2|alpha2|alpha_2|alpha2_code|iso2|iso_alpha2|iso_a2|country_code|country_code2|country_iso2"
     r"|country_iso_code|iso_country_code|country_code_iso2)$", "country_code"),
    (r"^(ccn3|iso_numeric|isonumeric|country_numeric|numeric_code)$", "country_numeric"),
    (r"^(capital|capital_city|capital_name)$", "capital"),
    (r"^(continent|continent_name)$", "continent"),
    (r"^continent_code$", "continent_code"),
    (r"^(subregion|sub_region)$", "subregion"),
    (r"^(wb_region|world_bank_region)$", "wb_region"),
    (r"^(calling_codes?|country_calling_code|phone_code|dial_code|dialing_code|phone_prefix|idd"
     r"|country_phone_code)$", "calling_code"),
    (r"^(tlds?|top_level_domains?|cctld)$", "tld"),
    (r"^(flag|flag_png|flag_url|flag_image|flag_image_uri|flag_image_url|flags_png)$", "flag_url"),
    (r"^flag_svg$", "flag_svg_url"),
    (r"^flag_emoji$", "flag_emoji"),
    (r"^currency_symbol$", "currency_symbol"),
    (r"^currency_name$", "currency_name"),
    (r"^(currency_code|currency_iso|currency_alpha3)$", "currency_code"),
    (r"^(language_code|lang_code|iso639_1)$", "language_code"),
    (r"^(postal_code|postcode|zip|zip_code|zipcode)$", "postal_code"),
    # What a weather service resolved the location asked to: the place, not a street in it.
    (r"^(resolved_address|resolved_location|resolved_name)$", "place_label"),
    (r"^(road|street_name|thoroughfare)$", "street_name"),
    (r"^(street_address|address_line1|address_line_1|line1)$", "street"),
    (r"^(house_number|housenumber|building_number|street_number)$", "house_number"),
    (r"^(utc_offset|gmt_offset|timezone_offset|utc_offset_hours|gmt_offset_hours|offset_hours)$", "utc_offset"),
    (r"^(utc_offset_seconds|gmt_offset_seconds|offset_seconds)$", "utc_offset_seconds"),
    (r"^(dst_offset|dst_savings|dst_offset_hours)$", "dst_offset"),
    (r"^dst_offset_seconds$", "dst_offset_seconds"),
    (r"^(is_dst|dst|is_daylight_saving_time|daylight_saving|dst_active|is_dst_active|in_dst)$", "is_dst"),
    (r"^(timezone_id|time_zone_id|zone_id|iana_time_id|iana_timezone)$", "timezone"),
    (r"^(time_zone_name|timezone_name|effective_time_zone_full|time_zone_long_name)$", "tz_long_name"),
))
_COUNTRY: dict[str, str] = {
    **dict.fromkeys(("name", "common", "common_name", "country_name", "name_common", "iso_name", "short_name",
                     "country"), "country"),
    **dict.fromkeys(("official", "official_name", "name_official", "long_name"), "country_official_name"),
    **dict.fromkeys(("region", "world_region"), "world_region"),
    **dict.fromkeys(("area", "area_km2", "area_sq_km", "area_in_sq_km", "surface_area"), "country_area"),
    **dict.fromkeys(("code", "iso_code"), "country_code"),
}
_TIME: dict[str, str] = {
    **dict.fromkeys(("local_time", "localtime", "local_date_time", "date_time", "local_datetime", "time_local",
                     "current_local_time", "formatted", "time", "current_time"), "local_time"),
    **dict.fromkeys(("abbreviation", "abbr", "timezone_abbreviation", "zone_abbreviation", "effective_time_zone_short"),
                    "tz_abbreviation"),
    **dict.fromkeys(("display_name", "long_name"), "tz_long_name"),
    **dict.fromkeys(("offset", "raw_offset", "total_offset"), "utc_offset"),
    "raw_offset_seconds": "raw_offset_seconds",
    "name": "timezone",
}
_MAP: dict[str, str] = {
    **dict.fromkeys(("display_name", "formatted_address", "full_address", "freeform_address", "label",
                     "address_label", "place_formatted", "display_address", "formatted"), "address"),
    **dict.fromkeys(("importance", "confidence", "relevance"), "unit_score"),
    **dict.fromkeys(("class", "osm_class"), "osm_feature.class"),
    **dict.fromkeys(("type", "osm_value", "addresstype", "types"), "osm_feature.type"),
}


def _words(name: str) -> frozenset[str]:
    return frozenset(name.lower().split("_"))


@functools.lru_cache(maxsize=65536)
def geo_kind(low: str, entity: str, parent: str = "") -> str | None:
    """The geographic kind of snake_case field ``low``, or None when it is not one."""
    parent_words = _words(parent)
    if parent_words & {"currency", "currencies"}:
        found = {"name": "currency_name", "code": "currency_code", "symbol": "currency_symbol"}.get(low)
        if found:
            return found
    if parent_words & {"language", "languages"} and low == "name":
        return "language_name"
    for pattern, kind in _ANYWHERE:
        if pattern.match(low):
            return kind
    if country_minded(entity) and low in _COUNTRY and not parent_words & {"capital", "currency", "language"}:
        return _COUNTRY[low]
    if low in _TIME and any(w & _TIME_WORDS and w <= ZONE_WORDS for w in (_words(entity), parent_words)):
        return _TIME[low]
    if _words(entity) & _MAP_WORDS and low in _MAP:
        return _MAP[low]
    return None


# Hints that say more than a field's name can (Google gives offsets in seconds).
_DELIBERATE = frozenset({"utc_offset_seconds", "raw_offset_seconds", "dst_offset_seconds", "utc_offset",
                         "dst_offset", "flag_svg_url", "flag_emoji", "tz_long_name", "local_time", "place_label",
                         "place_context"})
# Kinds an enum field may be narrowed by (the record's own value, when the enum holds it).
_ENUM_KINDS = frozenset({"world_region", "subregion", "continent", "continent_code", "wb_region", "country_code",
                         "country_code3", "currency_code", "timezone", "is_dst", "osm_feature.type",
                         "osm_feature.class"})


def overrides_hint(hint: str | None) -> bool:
    """A name's geographic kind beats a profile hint unless the hint is a deliberate one."""
    return hint not in _DELIBERATE and (hint is None or "." not in hint)  # a record vocabulary's field is its own


def geo_enum_kind(name: str, entity: str, parent: str, hints: Mapping[str, str]) -> str | None:
    """The geographic kind that picks an enum field's value (a country's region), if any."""
    from env_server.simulators.naming import snake

    kind = geo_kind(snake(name), snake(entity), snake(parent))
    return kind if kind in _ENUM_KINDS and overrides_hint(hints.get(name)) else None


# -- whole lists -------------------------------------------------------------------------------

_COUNTRY_LISTS: dict[str, Callable[[Generation], list[Any]]] = {
    **dict.fromkeys(("languages", "language_codes"), lambda g: list(country(g).languages)),
    **dict.fromkeys(("timezones", "time_zones"), lambda g: list(country(g).timezones)),
    **dict.fromkeys(("borders", "neighbours", "neighbors"), lambda g: list(country(g).borders)),
    "capital": lambda g: [country(g).capital.name],
    **dict.fromkeys(("currencies", "currency_codes"), lambda g: [country(g).currency_code]),
    **dict.fromkeys(("tld", "tlds", "top_level_domain"), lambda g: [country(g).tld]),
    **dict.fromkeys(("calling_codes", "calling_code"), lambda g: [country(g).calling_code]),
}
_ONE_EACH = frozenset({"currencies"})  # object lists with one entry per country fact


def _point_list(name: str, text: bool, box: float) -> Callable[[Generation], list[Any]] | None:
    def pack(values: list[float]) -> list[Any]:
        return [f"{v:.7f}" for v in values] if text else [round(v, 6) for v in values]

    if name in ("latlng", "lat_lng", "latlon", "lat_lon"):
        return lambda g: pack(list(g.scope.point))
    if name == "center":
        return lambda g: pack(list(reversed(g.scope.point)))
    if name in ("boundingbox", "bounding_box"):  # Nominatim: south, north, west, east
        return lambda g: pack([g.scope.point[0] - box, g.scope.point[0] + box,
                               g.scope.point[1] - box, g.scope.point[1] + box])
    if name == "bbox":  # GeoJSON: west, south, east, north
        return lambda g: pack([g.scope.point[1] - box, g.scope.point[0] - box,
                               g.scope.point[1] + box, g.scope.point[0] + box])
    return None


# Arrays of two numbers named like a point, by the order their axes come in: GeoJSON and
# map centres write longitude first, most others (AQICN's ``geo``, ``latlng``) latitude first.
_LAT_FIRST = frozenset({"latlng", "lat_lng", "latlon", "lat_lon", "latlong", "lat_long", "geo", "geo_point",
                        "geopoint", "position", "point", "coords", "coord", "location", "loc", "lat_lon_point"})
_LON_FIRST = frozenset({"coordinates", "coordinate", "center", "centre", "centroid", "lnglat", "lng_lat", "lonlat",
                        "lon_lat", "longlat", "long_lat"})
# A shape's vertices (a ring of an isoline, a line's points) lie this far about its point, in degrees.
_VERTEX_SPREAD = 0.02


def point_order(name: str) -> str | None:
    """``"latlon"`` or ``"lonlat"`` for an array named like a point, else None."""
    from env_server.simulators.naming import snake

    low = snake(name)
    return "latlon" if low in _LAT_FIRST else "lonlat" if low in _LON_FIRST else None


def _holds_pair(schema: Mapping[str, Any] | None) -> bool:
    """An array schema that admits exactly two items (a bound saying otherwise is not a point)."""
    schema = schema or {}
    lo, hi = schema.get("minItems", 0), schema.get("maxItems", 2)
    return isinstance(lo, int) and isinstance(hi, int) and lo <= 2 <= hi and hi < 3


def _point_pair(order: str) -> Node:
    """The record's point, in ``order``; an item of a shape (a ring's vertex) lies about it,
    each at its own bearing, so a polygon does not collapse to one spot."""

    def pair(gen: Generation, index: int | None) -> list[float]:
        lat, lon = gen.scope.point
        if index is not None:
            bearing = index * 2.399963  # the golden angle: vertices spread round the point
            reach = _VERTEX_SPREAD * (0.6 + 0.4 * ((index * 7 + gen.draw_offset) % 10) / 10)
            lat = max(-90.0, min(90.0, lat + reach * math.cos(bearing)))
            lon = (lon + reach * math.sin(bearing) + 180.0) % 360.0 - 180.0
        lat, lon = round(lat, 6), round(lon, 6)
        return [lat, lon] if order == "latlon" else [lon, lat]

    return pair


def geo_array(name: str, items: dict[str, Any], entity: str, child: Node,
              schema: Mapping[str, Any] | None = None) -> Node | None:
    """A whole-list value for array field ``name``, or None to draw its items one by one."""
    low = name.lower()
    item_type = items.get("type", "string")
    if item_type in ("number", "string"):
        box = 0.08 if _words(entity) & {"city", "town", "locality", "toponym", "country", "region"} else 0.0015
        points = _point_list(low, item_type == "string", box)
        if points is not None:
            return lambda gen, index: points(gen)
        order = point_order(name) if item_type == "number" and _holds_pair(schema) else None
        if order is not None:  # AQICN's station "geo", a geofence's "coordinates", a polygon's vertex
            return _point_pair(order)
    if not country_minded(entity):
        return None
    if item_type == "string" and low in _COUNTRY_LISTS:
        listed = _COUNTRY_LISTS[low]
        return lambda gen, index: listed(gen)
    if item_type == "object" and low in _ONE_EACH:
        return lambda gen, index: [child(gen, 0)]
    return None
