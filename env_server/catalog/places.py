"""The country an imported tool's description says its records are in.

"Retrieve information about schools and universities in Switzerland", "streets in Denmark
based on the district", "UK city data", "Dutch train stations": a tool whose calls name no
place still answers from that country. Country names come from ``pycountry`` (common names
first); demonyms and short forms the descriptions use are ours.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from env_server.catalog.models import SourceFormat

if TYPE_CHECKING:
    from env_server.catalog.models import ToolSpec

# Adjectives, short forms and common names pycountry spells otherwise -> ISO 3166 alpha-2.
_DEMONYMS = {
    "swiss": "CH", "danish": "DK", "dutch": "NL", "german": "DE", "french": "FR", "british": "GB", "uk": "GB",
    "england": "GB", "us": "US", "usa": "US", "american": "US", "canadian": "CA", "australian": "AU",
    "japanese": "JP", "chinese": "CN", "indian": "IN", "brazilian": "BR", "mexican": "MX", "spanish": "ES",
    "italian": "IT", "portuguese": "PT", "irish": "IE", "cypriot": "CY", "finnish": "FI", "swedish": "SE",
    "norwegian": "NO", "polish": "PL", "austrian": "AT", "belgian": "BE", "korean": "KR", "south korea": "KR",
    "greek": "GR", "czech": "CZ", "czech republic": "CZ", "hungarian": "HU", "icelandic": "IS", "estonian": "EE",
    "latvian": "LV", "lithuanian": "LT", "argentine": "AR", "chilean": "CL", "colombian": "CO",
    "singaporean": "SG", "thai": "TH", "vietnamese": "VN", "vietnam": "VN", "indonesian": "ID", "nigerian": "NG",
    "kenyan": "KE", "egyptian": "EG", "south african": "ZA", "russia": "RU", "russian": "RU", "taiwan": "TW",
    "taiwanese": "TW", "tanzania": "TZ", "venezuela": "VE", "bolivia": "BO", "faa": "US",
}
# Words that read as a country but rarely mean one in a tool description.
_NOT_COUNTRIES = frozenset({"jersey", "guernsey", "chad", "georgia", "jordan", "turkey", "niger", "mali", "oman",
                            "peru", "cuba", "togo", "iran", "iraq"})


# Short forms matched only in capitals ("US", "UK"): "us" is also a pronoun.
_CAPITALS = re.compile(r"(?<![\w-])(US|USA|UK|FAA)(?![\w-])")  # the FAA's data is the US's


@functools.lru_cache(maxsize=1)
def _pattern() -> tuple[re.Pattern[str], dict[str, str]]:
    """One pattern of every country name and demonym (longest first, so "South Africa" beats
    "Africa"), and the country each names."""
    import pycountry

    pairs: dict[str, str] = {}
    for country in sorted(pycountry.countries, key=lambda c: c.alpha_2):
        name = getattr(country, "common_name", None) or country.name
        if "," not in name and "(" not in name and name.lower() not in _NOT_COUNTRIES:
            pairs.setdefault(name.lower(), country.alpha_2)
    pairs.update({k: v for k, v in _DEMONYMS.items() if k not in ("us", "usa", "uk", "faa")})
    names = sorted(pairs, key=lambda n: (-len(n), n))
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])"), pairs


def described_country(description: str) -> str | None:
    """The ISO 3166 alpha-2 code of the country a description places its records in, or None
    (none, or several)."""
    pattern, pairs = _pattern()
    found = {pairs[m] for m in pattern.findall(description.lower())}
    found |= {_DEMONYMS[m.lower()] for m in _CAPITALS.findall(description)}
    return found.pop() if len(found) == 1 else None


def share_group_places(tools: dict[str, ToolSpec], groups: dict[str, list[tuple[str, str]]]) -> int:
    """A tool whose description names no country answers from its list's country, when every
    tool of the list that names one names the same ("candidate data of the two major parties in
    the United States" places its sibling "a candidate's positions" there too). Returns how many
    tools took a place. Built-in specs keep the places their authors gave them."""
    taken = 0
    for members in groups.values():
        names = [n for _, n in members if n in tools and tools[n].source is not SourceFormat.NATIVE]
        places = {tools[n].profile.place for n in names} - {None}
        if len(places) != 1:
            continue
        place = places.pop()
        for name in names:
            spec = tools[name]
            if spec.profile.place is None:
                tools[name] = spec.model_copy(update={"profile": spec.profile.model_copy(update={"place": place})})
                taken += 1
    return taken
