"""The audit's checks of lookups that must answer about what was asked.

``lookup_hits(args, result)`` reports, in any record of ``result``:

* a number fact (``type`` trivia, math, date or year, and a ``text``) that does not name the
  number, the year or the month asked;
* a taxon whose rank does not fit its name (a binomial that is no species, one word that is
  a species);
* a postcode record of a UK nation whose coordinates lie outside the UK, or whose nation is
  not its postcode area's;
* a dictionary record for the ``word`` asked whose synonyms are not WordNet synonyms of the
  word, or whose definition is none of the word's WordNet senses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from env_server.simulators.number_facts import FACT_TYPES
from env_server.simulators.records import default_facts
from env_server.simulators.uk_postcodes import NATIONS, area_of, in_uk
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
_WORD_RANKS = {"SPECIES": 2, "SUBSPECIES": 3}
_RANKS = frozenset({"KINGDOM", "PHYLUM", "CLASS", "ORDER", "FAMILY", "GENUS", "SPECIES", "SUBSPECIES"})


def lookup_hits(args: Mapping[str, Any], result: Any) -> list[Hit]:
    """Findings of this module's checks in ``result`` for a call with ``args``."""
    found: list[Hit] = []
    for path, record in walk_records(result):
        found += fact_hits(path, args, record)
        found += rank_hits(path, record)
        found += postcode_hits(path, record)
        found += lexical_hits(path, args, record)
    return found


def lexical_hits(path: str, args: Mapping[str, Any], record: Mapping[str, Any]) -> list[Hit]:
    """A sense of the word asked is one of its WordNet senses, and its synonyms are the word's."""
    word = args.get("word")
    synonyms, definition = record.get("synonyms"), record.get("definition")
    if isinstance(synonyms, str):  # an imported spec's comma-separated string
        synonyms = [w.strip() for w in synonyms.split(",") if w.strip()]
    if not isinstance(word, str) or not word.strip() or not (isinstance(synonyms, list) or isinstance(definition, str)):
        return []
    senses = default_facts().reference.lexicon.senses(word)
    if not senses:
        return [(path, f"a dictionary record for {word!r}, a word WordNet does not know")]
    found: list[Hit] = []
    own = {w.lower() for s in senses for w in s.words}
    strange = [w for w in synonyms or () if isinstance(w, str) and w.lower() not in own]
    if strange:
        found.append((f"{path}.synonyms", f"synonyms of {word!r} that WordNet does not give: {strange[:4]}"))
    if isinstance(definition, str) and definition not in {s.definition for s in senses}:
        found.append((f"{path}.definition", f"a definition that is none of {word!r}'s senses: {definition[:60]!r}"))
    return found


def fact_hits(path: str, args: Mapping[str, Any], record: Mapping[str, Any]) -> list[Hit]:
    """A number fact names what was asked: the number, the year, or the month."""
    kind, text = record.get("type"), record.get("text")
    if not isinstance(kind, str) or kind not in FACT_TYPES or not isinstance(text, str) or args.get("fragment") is True:
        return []
    month = args.get("month")
    if kind == "date" and isinstance(month, int) and 1 <= month <= 12:
        wanted = _MONTHS[month - 1]
    else:
        asked = args.get("year" if kind == "year" else "number")
        if not isinstance(asked, int) or isinstance(asked, bool):
            return []
        wanted = str(asked)
    return [] if wanted in text else [(f"{path}.text", f"a {kind} fact that does not name {wanted}: {text[:80]!r}")]


def rank_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    """A taxon's rank fits its name's words: a binomial is a species, a trinomial a subspecies."""
    name = record.get("scientific_name") or record.get("canonical_name")
    rank = record.get("rank")
    if not isinstance(name, str) or not isinstance(rank, str) or rank.upper() not in _RANKS or "(" in name:
        return []
    words = len(name.split())
    wanted = _WORD_RANKS.get(rank.upper(), 1)
    if words == wanted or (words > 3 and wanted == 3):
        return []
    return [(f"{path}.rank", f"rank {rank} for the {words}-word name {name!r}")]


def postcode_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    """A UK postcode lies in the UK, in its area's nation."""
    code, country = record.get("postcode"), record.get("country")
    if not isinstance(code, str) or country not in NATIONS:
        return []
    found: list[Hit] = []
    lat, lon = record.get("latitude"), record.get("longitude")
    if isinstance(lat, (int, float)) and isinstance(lon, (int, float)) and not in_uk(lat, lon):
        found.append((f"{path}.latitude", f"UK postcode {code} at {lat}, {lon}, outside the UK"))
    area = area_of(code)
    if area is None:
        found.append((f"{path}.postcode", f"{code!r} in {country} is no UK postcode"))
    elif area.country != country:
        found.append((f"{path}.country", f"{code} is in {area.country}, not {country}"))
    return found
