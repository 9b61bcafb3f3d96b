"""Value kinds of pet directories whose shape the real service fixes.

* ``shelter_id``: a Petfinder organization id, the shelter's two-letter state or province code
  and a number (``OR123``), of the record's place (a US or Canadian one; a drawn US state else);
* ``distance_mi``: how far a listed animal or shelter is from the place searched, in miles,
  within the call's radius (0.5–50 miles), never the centre itself;
* ``dog_image_url``: a Dog CEO image, ``https://images.dog.ceo/breeds/<folder>/<file>.jpg``,
  where the folder is ``<breed>`` or ``<breed>-<sub_breed>`` of the breed the call asks for
  (``terrier-bedlington`` for "bedlington terrier"; any of a master breed's sub-breeds when it
  names only the master), or of any breed, and the file a Stanford Dogs name
  (``n02093647_1003``: the folder's WordNet id and a photo number).

``PET_KINDS`` joins ``values.KINDS`` through ``domain_kinds``; ``PET_LISTS`` says how many
images an image list holds: the ``count`` asked.
"""

from __future__ import annotations

import functools
import re
import zlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_RADIUS_ARGS = ("distance", "miles", "radius")
# The Stanford Dogs synsets run from n02085620 (Chihuahua) to n02113978 (Mexican hairless).
_WNID_LOW, _WNID_SPAN = 85_620, 28_358
# How many images a list holds when the call gives no count: a breed's three, one at random.
_DEFAULT_BREED_IMAGES, _DEFAULT_RANDOM_IMAGES = 3, 1


@functools.lru_cache(maxsize=1)
def _region_codes() -> dict[tuple[str, str], str]:
    """(country code, region name in lower case) -> its two-letter code, for the US and Canada."""
    import pycountry

    found: dict[tuple[str, str], str] = {}
    for sub in pycountry.subdivisions:
        if sub.country_code in ("US", "CA") and getattr(sub, "parent_code", None) is None:
            found[(sub.country_code, sub.name.lower())] = sub.code.split("-")[1]
    return found


def state_code(gen: Generation) -> str:
    """The two-letter code of the record's state or province (a drawn US state outside them)."""
    place = gen.scope.place
    code = _region_codes().get((place.country_code, place.region.lower()))
    if code is not None:
        return code
    states = sorted(c for (country, _), c in _region_codes().items() if country == "US")
    return gen.scope.once("pet_state", lambda: states[gen.rng.randrange(len(states))])


def shelter_id(gen: Generation) -> str:
    return f"{state_code(gen)}{gen.rng.randint(10, 999)}"


def distance_mi(gen: Generation) -> float:
    """Miles from the place searched: within its radius (at most 50 miles), at least half a mile."""
    radius = next((float(v) for k in _RADIUS_ARGS if isinstance(v := gen.args.get(k), (int, float))
                   and not isinstance(v, bool) and v > 0), 50.0)
    return round(gen.rng.uniform(0.5, max(0.6, min(radius, 50.0))), 1)


def _words(value: Any) -> list[str]:
    return re.findall(r"[a-z]+", value.lower()) if isinstance(value, str) else []


def _subs_of(gen: Generation) -> dict[str, tuple[str, ...]]:
    return {r["breed"]: tuple(r["sub_breeds"]) for r in gen.facts.vocab.get("dog_breed").records}


def breed_folders(gen: Generation) -> tuple[str, ...]:
    """The image folders of the breed the call asks for ("terrier-bedlington"), or () for any."""
    words, sub = _words(gen.args.get("breed")), "".join(_words(gen.args.get("sub_breed")))
    if not words:
        return ()
    subs = _subs_of(gen)
    joined = "".join(words)
    if sub:
        return (f"{joined}-{sub}",)
    if joined in subs:
        return tuple(f"{joined}-{s}" for s in subs[joined]) or (joined,)
    for master, rest in ((words[-1], words[:-1]), (words[0], words[1:])):
        if master in subs and "".join(rest) in subs[master]:
            return (f"{master}-{''.join(rest)}",)
    return (joined,)


def _any_folder(gen: Generation) -> str:
    breed, subs = gen.rng.choice(sorted(_subs_of(gen).items()))
    return f"{breed}-{gen.rng.choice(subs)}" if subs else breed


def dog_image_url(gen: Generation) -> str:
    folders = breed_folders(gen)
    folder = gen.rng.choice(folders) if folders else _any_folder(gen)
    wnid = _WNID_LOW + zlib.crc32(folder.encode()) % _WNID_SPAN
    return f"https://images.dog.ceo/breeds/{folder}/n02{wnid:06d}_{gen.rng.randint(1, 12_000)}.jpg"


def image_count(gen: Generation) -> int:
    count = gen.args.get("count")
    if isinstance(count, int) and not isinstance(count, bool) and count > 0:
        return count
    return _DEFAULT_BREED_IMAGES if _words(gen.args.get("breed")) else _DEFAULT_RANDOM_IMAGES


PET_KINDS: Mapping[str, Callable[[Generation], Any]] = {
    "shelter_id": shelter_id,
    "distance_mi": distance_mi,
    "dog_image_url": dog_image_url,
}
PET_FORMATS: Mapping[str, str] = {
    "shelter_id": r"^[A-Z]{2}\d{2,3}$",
    "dog_image_url": r"^https://images\.dog\.ceo/breeds/[a-z]+(-[a-z]+)?/n02\d{6}_\d+\.jpg$",
}
PET_LISTS: Mapping[str, Callable[[Generation], int]] = {"dog_image_url": image_count}
