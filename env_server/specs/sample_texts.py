"""Sample values a real caller would send, read off a parameter's name and description.

A parameter's schema says little ("a string"); its name and description say what it is:
``target`` described as "Target language code" takes ``de``, ``latlng`` described as
"Coordinate as 'lat,lng'" takes ``40.7142,-73.9614``, ``q`` of a translation tool takes a
sentence and ``q`` of a geocoder an address. ``text_value`` returns such a value, or
``None`` when no rule fits and the schema (``Generation.fill``) decides.

Rules are data, first match wins; each reads the parameter's snake_case name, its
lowercased description and type, and the tool's category.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators.generate import Generation
from env_server.simulators.naming import snake
from env_server.simulators.reference import PlaceFact
from env_server.simulators.values import draw_kind

Draw = Callable[[Generation], Any]

_LANGUAGES = ("en", "es", "fr", "de", "it", "pt")
_LANG_NAMES = frozenset({"target", "source", "from", "to", "lang", "language", "sl", "tl", "language1", "language2",
                         "target_lang", "source_lang", "target_language", "source_language", "language_code",
                         "lang_code", "locale", "hl", "languages", "langs", "translated_language",
                         "original_language", "lang_restrict", "spp_locale"})
_TARGET_NAMES = frozenset({"target", "to", "tl", "target_lang", "target_language"})
_SOURCE_NAMES = frozenset({"source", "from", "sl", "source_lang", "source_language", "language1", "language2"})
_NOT_A_LANGUAGE = re.compile(r"query language|search language|programming|natural language|language=|language id")
_TEXT_NAMES = frozenset({"text", "q", "content", "input", "inputs", "input_text", "input_string", "text_to_translate",
                         "document", "sentence", "texts", "content1", "content2", "text1", "text2", "source_text"})
_TEXT_DESC = re.compile(r"\btexts? (whose|being)|\bto (analy[sz]e|classify|summari[sz]e|translate|scan|identify|"
                        r"check|tag|segment|rephrase|parse|transform|split)\b|document to|plain text")
_PLACE_NAMES = frozenset({"q", "query", "text", "address", "search", "text_query", "location", "input", "place",
                          "free_text", "street"})
_PLACE_DESC = re.compile(r"address|place|geocode|city|location|where|near")
_POINT_NAMES = frozenset({"latlng", "latlon", "at", "position", "point", "ll", "location", "coordinates", "center",
                          "proximity", "focus", "coords"})
_UK_POSTCODES = ("SW1A 1AA", "EC1A 1BB", "M1 1AE", "B33 8TH", "CR2 6XH", "DN55 1PT", "W1A 0AX", "EH1 1YZ",
                 "LS1 4AP", "BS1 6QH", "G2 1DY", "CF10 1EP", "NE1 7RU", "L1 8JQ", "OX1 3PJ", "CB2 1TN")
_USER_AGENTS = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
    "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
)


def _phrase(gen: Generation) -> str:
    """An English sentence of the phrasebook (whose renderings a translation returns)."""
    return gen.rng.choice(gen.facts.vocab.get("phrasebook").texts)


def _place(gen: Generation) -> PlaceFact:
    places = gen.facts.reference.drawable_places
    return places[gen.rng.randrange(len(places))]


def _point_text(gen: Generation, lon_first: bool) -> str:
    p = _place(gen)
    return f"{p.longitude},{p.latitude}" if lon_first else f"{p.latitude},{p.longitude}"


def _iso6709(gen: Generation) -> str:
    p = _place(gen)
    return f"{p.latitude:+08.4f}{p.longitude:+09.4f}"


def _pairs(gen: Generation, lat_first: bool) -> list[list[float]]:
    """Two real places, near enough to route between (the second within its country)."""
    first = _place(gen)
    near = [p for p in gen.facts.reference.drawable_places if p.country_code == first.country_code and p != first]
    second = near[gen.rng.randrange(len(near))] if near else first
    return [[p.latitude, p.longitude] if lat_first else [p.longitude, p.latitude] for p in (first, second)]


def _words3(gen: Generation) -> str:
    words = [w.lower() for w in gen.facts.vocab.get("dictionary_word").texts if w.isalpha()]
    return ".".join(gen.rng.sample(words, 3))


def _lat_first(desc: str) -> bool:
    """Whether a coordinate pair is written latitude first (the default) or longitude first."""
    lon = min((desc.find(w) for w in ("lon", "lng") if w in desc), default=-1)
    lat = desc.find("lat")
    return not (lon >= 0 and (lat < 0 or lon < lat))


def _rule(spec: ToolSpec, name: str, schema: dict[str, Any]) -> Draw | None:
    low, desc = snake(name), str(schema.get("description") or "").lower()
    typ = schema.get("type", "string")
    found = _number_rule(low, desc, typ) or _pair_list_rule(desc, typ, schema)
    if found is not None or typ not in ("string", "array"):
        return found
    if low in _LANG_NAMES and "language" in desc and not _NOT_A_LANGUAGE.search(desc):
        return _language_rule(low, desc, many=typ == "array")
    if typ == "array":
        return _list_rule(low, desc)
    return _string_rule(spec, name, low, desc, schema)


_COUNTRY_CODE = re.compile(r"country code|iso[- ]?(3166|2)|alpha-2|two-letter country|iso (alpha-2 )?codes")


def _number_rule(low: str, desc: str, typ: Any) -> Draw | None:
    if typ == "integer" and re.fullmatch(r"(season|season_number)", low):
        if "year" in desc:
            return lambda g: g.today.year - 1
        return lambda g: g.rng.randint(1, 8)
    if typ == "integer" and re.fullmatch(r"(episode|episode_number)", low):
        return lambda g: g.rng.randint(1, 12)
    return None


def _pair_list_rule(desc: str, typ: Any, schema: dict[str, Any]) -> Draw | None:
    if typ == "array" and ("coordinat" in desc or "[lon" in desc or "[lng" in desc or "lat" in desc) \
            and isinstance(schema.get("items"), dict) and schema["items"].get("type") == "array":
        first = _lat_first(desc)
        return lambda g: _pairs(g, first)
    return None


def _language_rule(low: str, desc: str, *, many: bool) -> Draw:
    if "e.g. 'english'" in desc:
        return lambda g: "English"
    if "three-letter" in desc:
        return lambda g: g.rng.choice(("eng", "spa", "fra", "deu", "ita", "por"))
    if low in _TARGET_NAMES:  # the sampled texts are English: translate them into another language
        return lambda g: g.rng.choice(_LANGUAGES[1:])
    if low in _SOURCE_NAMES:
        return lambda g: "en"
    return (lambda g: [g.rng.choice(_LANGUAGES)]) if many else (lambda g: g.rng.choice(_LANGUAGES))


def _list_rule(low: str, desc: str) -> Draw | None:
    if _COUNTRY_CODE.search(desc) or "countries" in desc and "iso" in desc:
        return lambda g: [draw_kind("country_code", g)]
    if low in _TEXT_NAMES and (_TEXT_DESC.search(desc) or "texts" in desc):
        return lambda g: [_phrase(g) for _ in range(2)]
    return None


def _string_rule(spec: ToolSpec, name: str, low: str, desc: str, schema: dict[str, Any]) -> Draw | None:
    for rule in (_agent_or_point_rule, _postal_rule, _code_rule, _identifier_rule):
        found = rule(spec, low, desc)
        if found is not None:
            return found
    if is_text_param(name, schema):
        return _phrase
    return _place_or_owner_rule(spec, low, desc, schema)


def _agent_or_point_rule(spec: ToolSpec, low: str, desc: str) -> Draw | None:
    if "user_agent" in low or "user-agent" in desc or "user agent" in desc:
        return lambda g: g.rng.choice(_USER_AGENTS)
    if "iso 6709" in desc:
        return _iso6709
    # "location" also names cities; imported catalogs' reverse geocoders read it as a point
    # only partly yet, so it keeps the schema's draw.
    if low in _POINT_NAMES and low != "location" and re.search(r"\blat|coordinate", desc):
        lon_first = not _lat_first(desc)
        return lambda g: _point_text(g, lon_first)
    return None


def _multi_place(low: str) -> bool:
    return low in _PLACE_NAMES or low in ("from", "to", "city")


def _postal_rule(spec: ToolSpec, low: str, desc: str) -> Draw | None:
    if not (re.search(r"postal|postcode|(^|_)zip", low) or (
            re.search(r"postal code|postcode|zip code", desc) and not re.search(r"name|place", low)
            and not _multi_place(low))):
        return None
    if "outward" in desc:
        return lambda g: g.rng.choice(_UK_POSTCODES).split()[0]
    if "uk" in re.findall(r"[a-z]+", desc) or "british" in desc or "postcodes" in str(spec.family).lower():
        return lambda g: g.rng.choice(_UK_POSTCODES)
    return lambda g: draw_kind("postal_code", g)


def _code_rule(spec: ToolSpec, low: str, desc: str) -> Draw | None:
    if ("region code" in desc or _COUNTRY_CODE.search(desc)) and not _multi_place(low):
        if "alpha-3" in desc or "iso3" in low:
            return lambda g: draw_kind("country_code3", g)
        return lambda g: draw_kind("country_code", g)
    if "scientific name" in desc:
        return lambda g: draw_kind("animal_species.scientific_name", g)
    return None


def _identifier_rule(spec: ToolSpec, low: str, desc: str) -> Draw | None:
    if "imdb" in desc and low in ("i", "imdb_id", "imdbid", "id"):
        return lambda g: f"tt{g.rng.randint(100000, 9999999):07d}"
    if "three-word" in desc or "3 word" in desc or "what3words" in desc:
        return _words3
    if "ip address" in desc or low in ("ip", "ip_address"):
        return lambda g: draw_kind("ip", g)
    return None


def _place_or_owner_rule(spec: ToolSpec, low: str, desc: str, schema: dict[str, Any]) -> Draw | None:
    category = str(spec.category).lower()
    # A geocoder's "Search text." is a place too: what a caller types into a geocoder.
    if low in _PLACE_NAMES and (category == "geocoding" or "geocod" in desc) and (
            _PLACE_DESC.search(desc + low) or category == "geocoding" and desc.startswith("search text")):
        if "address" in desc and "place" not in desc:
            return lambda g: draw_kind("address", g)
        return lambda g: (lambda p: f"{p.name}, {p.country}")(_place(g))
    if low in ("namespace", "workspace", "owner", "model_owner", "user", "username") and not schema.get("format"):
        return lambda g: draw_kind("username", g)
    return None


def is_text_param(name: str, schema: dict[str, Any]) -> bool:
    """Whether a parameter carries a text for the tool to analyse (classify, translate, tag ...)."""
    desc = str(schema.get("description") or "").lower()
    return snake(name) in _TEXT_NAMES and bool(_TEXT_DESC.search(desc) or re.fullmatch(r"(first|second) text\.?", desc))


def text_value(spec: ToolSpec, name: str, schema: dict[str, Any], gen: Generation) -> Any | None:
    """A value a real caller would send for this parameter, or None to fill by schema."""
    rule = _rule(spec, name, schema)
    return rule(gen) if rule is not None else None
