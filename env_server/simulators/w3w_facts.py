"""A what3words answer reads as one: three dot-separated words for a 3 m square, in the call's language.

A three-word address is ``index.home.raft``: three dictionary words of one language, joined by
dots. An autosuggest answers addresses close to what was typed (the words typed so far kept, the
last one completed from its prefix), ranked 1, 2, 3 …; a conversion names the square the call's
coordinates fall in, whose corners lie about three metres apart, and a ``map`` link of the
address. The language is the call's, else English. The words come from Faker's lorem word lists
(common words of each language), not from a slug vocabulary.

``w3w_step(entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import functools
import importlib
import math
import re
import zlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_LOCALES = {"en": "en_US", "de": "de_DE", "fr": "fr_FR", "es": "es_ES", "it": "it_IT", "nl": "nl_NL", "pl": "pl_PL",
            "cs": "cs_CZ", "da": "da_DK", "ru": "ru_RU", "uk": "uk_UA", "el": "el_GR", "vi": "vi_VN"}
_HALF_SIDE_DEG = 0.0000135  # half of a 3 m square's side, in degrees of latitude
_ADDRESS_RE = re.compile(r"^///?|\s+")


def w3w_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a three-word-address record agree with itself, or None."""
    if "words" not in props or not {"nearestPlace", "square", "map", "rank"} & set(props):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        language = _language(gen)
        if "language" in record:
            record["language"] = language
        words = words_for(record, gen, language, index)
        record["words"] = words
        if "rank" in record and index is not None:
            record["rank"] = index + 1
        if isinstance(record.get("map"), str):
            record["map"] = f"https://www.what3words.com/{words}"  # the API also writes w3w.co
        _square(record, gen)

    return step


def _language(gen: Generation) -> str:
    sent = gen.snaked_args.get("language")
    return sent.strip().lower()[:2] if isinstance(sent, str) and sent.strip().lower()[:2] in _LOCALES else "en"


@functools.lru_cache(maxsize=16)
def word_list(language: str) -> tuple[str, ...]:
    """Common words of ``language`` (Faker's lorem list), 3 to 10 letters, sorted."""
    module = importlib.import_module(f"faker.providers.lorem.{_LOCALES.get(language, 'en_US')}")
    words = {w.lower() for w in module.Provider.word_list if w.isalpha() and 3 <= len(w) <= 10}
    return tuple(sorted(words))


def words_for(record: Mapping[str, Any], gen: Generation, language: str, index: int | None) -> str:
    """The record's address: the call's own (converted), the typed words completed (autosuggest),
    or three words drawn for the square asked."""
    words = word_list(language)
    sent = gen.snaked_args
    own = sent.get("words")
    if isinstance(own, str) and len(_parts(own)) == 3:
        return ".".join(_parts(own))
    typed = sent.get("input")
    if isinstance(typed, str) and _parts(typed):
        parts = _parts(typed)[:3]
        while len(parts) < 3:
            parts.append("")
        last = parts[2]
        fits = [w for w in words if w.startswith(last) and w != last] or list(words)
        start = zlib.crc32(".".join(parts).encode()) % len(fits)
        completed = fits[(start + (index or 0) * 7) % len(fits)]
        first = [p or words[gen.rng.randrange(len(words))] for p in parts[:2]]
        return ".".join([*first, completed])
    return ".".join(words[gen.rng.randrange(len(words))] for _ in range(3))


def _parts(text: str) -> list[str]:
    return [p for p in _ADDRESS_RE.sub("", text.lower()).split(".") if p]


def _square(record: dict[str, Any], gen: Generation) -> None:
    """The square's corners about 3 m apart around its centre: the call's point, when it sends one."""
    centre = record.get("coordinates")
    square = record.get("square")
    if not isinstance(centre, dict) or not isinstance(square, dict):
        return
    point = gen.call_point
    if point is not None:
        centre["lat"], centre["lng"] = round(point[0], 6), round(point[1], 6)
    lat, lng = centre.get("lat"), centre.get("lng")
    if not isinstance(lat, (int, float)) or not isinstance(lng, (int, float)):
        return
    half_lng = _HALF_SIDE_DEG / max(0.01, math.cos(math.radians(lat)))
    square["southwest"] = {"lat": round(lat - _HALF_SIDE_DEG, 6), "lng": round(lng - half_lng, 6)}
    square["northeast"] = {"lat": round(lat + _HALF_SIDE_DEG, 6), "lng": round(lng + half_lng, 6)}
