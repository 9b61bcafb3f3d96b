"""Sample arguments a real caller would send, where the schema alone gives nonsense.

``samples.sample_arguments`` fills each parameter from its schema; for some parameters the
name or the description says more than the type: a language pair is two different
languages, a prefix is the start of a word, a season is a recent year, a UUID parameter
takes a UUID, and a description's own example (``e.g. '5881028'``) is what a caller sends.
``caller_value`` returns ``NO_RULE`` when no rule applies.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from env_server.simulators.generate import Generation
from env_server.simulators.naming import snake

NO_RULE = object()

_EXAMPLE = re.compile(r"""(?:e\.g\.,?|such as|for example,?|like)\s+(?:'([^']{1,80})'|"([^"]{1,80})")""")
_TARGET_LANG = re.compile(r"^(target|to|dest|destination|tl)(_lang|_language|_locale)?$|^(target_)?lang(uage)?_to$")
_SOURCE_LANG = re.compile(r"^(source|from|src|sl)(_lang|_language|_locale)?$|^(source_)?lang(uage)?_from$")
_LANG_CODES = ("fr", "de", "es", "it", "pt", "ja", "nl")
_PREFIXES = ("lim", "pho", "cele", "gar", "tra", "hon", "pre", "sum", "bri", "mou", "wint", "qui")
_POINTS = ("48.8566,2.3522", "40.7128,-74.0060", "51.5074,-0.1278", "35.6762,139.6503", "52.5200,13.4050",
           "-33.8688,151.2093", "41.9028,12.4964", "19.4326,-99.1332")
_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def caller_value(name: str, schema: dict[str, Any], gen: Generation, chosen: dict[str, Any]) -> Any:
    """A believable value for parameter ``name``, or ``NO_RULE``."""
    typ = schema.get("type")
    low = snake(name)
    text = str(schema.get("description") or "")
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return _language_from_enum(low, enum, gen, chosen)
    if typ == "integer" and low in ("season", "season_year", "year") and "season" in (low + text.lower()):
        return _fit(gen.today.year - gen.rng.randint(0, 3), schema)
    if typ == "array" and (example := _example(text)) is not None:
        return [example]
    if typ != "string" or schema.get("format"):
        return NO_RULE
    return _string_rule(low, text, gen, chosen)


def _string_rule(low: str, text: str, gen: Generation, chosen: dict[str, Any]) -> Any:
    lowered = text.lower()
    if "language" in lowered or low.endswith(("_lang", "_language")):
        if _TARGET_LANG.match(low):
            taken = {str(v) for v in chosen.values()}
            return next(code for code in _LANG_CODES[gen.rng.randrange(3):] + ("en",) if code not in taken)
        if _SOURCE_LANG.match(low):
            return "en"
    if low == "prefix" or "partial word" in lowered:
        return gen.rng.choice(_PREFIXES)
    if low in ("latlng", "latlon", "lat_lng", "lat_lon", "ll", "coordinates"):
        return gen.rng.choice(_POINTS)
    if "uuid" in low or "mbid" in low or "(uuid)" in lowered:
        return str(uuid.UUID(int=gen.rng.getrandbits(128), version=4))
    if "ipfs" in low or low == "cid":
        return "Qm" + "".join(gen.rng.choice(_BASE58) for _ in range(44))
    example = _example(text)
    return example if example is not None else NO_RULE


def _language_from_enum(low: str, enum: list[Any], gen: Generation, chosen: dict[str, Any]) -> Any:
    """A translation's target differs from its source (and a source is English when it can be)."""
    if _SOURCE_LANG.match(low):
        return next((v for v in enum if str(v).lower() in ("en", "english", "en-gb", "en-us")), NO_RULE)
    if _TARGET_LANG.match(low):
        taken = {str(v) for v in chosen.values()}
        options = [v for v in enum if str(v) not in taken]
        return gen.rng.choice(options) if options and len(options) < len(enum) else NO_RULE
    return NO_RULE


def _example(text: str) -> str | None:
    found = _EXAMPLE.search(text)
    return (found.group(1) or found.group(2)) if found else None


def _fit(value: int, schema: dict[str, Any]) -> int:
    lo, hi = schema.get("minimum"), schema.get("maximum")
    if isinstance(hi, int) and value > hi:
        value = hi
    if isinstance(lo, int) and value < lo:
        value = lo
    return value
