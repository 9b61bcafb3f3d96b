"""The audit's checks of lookups that must answer about what was asked.

``lookup_hits(args, result)`` reports, in any record of ``result``:

* a number fact (``type`` trivia, math, date or year, and a ``text``) that does not name the
  number, the year or the month asked;
* a taxon whose rank does not fit its name (a binomial that is no species, one word that is
  a species);
* a postcode record of a UK nation whose coordinates lie outside the UK, or whose nation is
  not its postcode area's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from env_server.simulators.number_facts import FACT_TYPES
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
