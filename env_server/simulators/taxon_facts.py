"""A taxon record that agrees with its own name: rank, classification, authorship, match.

``taxon_step(entity, props)`` is chosen once per object schema that names a taxon
(``scientific_name`` or ``scientificName``) and says its rank or authorship. On each record:

* the classification (kingdom to genus) is the ``taxon`` vocabulary's entry for the name,
  or, for a name it lacks, that of a species of the same genus; the genus is the name's
  first word;
* the rank follows the name: one word is a genus (or the rank whose field it is), two a
  species, three a subspecies; a search by rank names the taxon of that rank;
* the authorship is written as each code writes it: a zoologist and a year ("Linnaeus,
  1758", in brackets when the species has left its first genus), a botanist's standard
  abbreviation for plants and fungi ("L."); it is fixed per name, so two calls agree;
* a name match is EXACT for a known name and FUZZY, with a lower confidence, otherwise.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

LEVELS = ("kingdom", "phylum", "class", "order", "family", "genus")
# Zoologists and the years they named species in.
_ZOOLOGISTS = (("Linnaeus", 1758, 1758), ("Linnaeus", 1766, 1766), ("Gmelin", 1788, 1789),
               ("Cuvier", 1797, 1832), ("Lamarck", 1801, 1822), ("Temminck", 1807, 1840),
               ("Gray", 1821, 1875), ("Swainson", 1820, 1838), ("Gould", 1837, 1875),
               ("Boulenger", 1882, 1920), ("Blyth", 1842, 1875), ("Peters", 1852, 1882),
               ("Müller", 1776, 1784), ("Bonaparte", 1825, 1857), ("Günther", 1858, 1899))
_BOTANISTS = ("L.", "Mill.", "Lam.", "DC.", "Willd.", "Hook.f.", "Benth.", "Pers.", "Fr.", "Kunth",
              "Sm.", "Thunb.", "Roxb.", "Schltr.", "Sw.")
_CODE_OF_BOTANY = frozenset({"plantae", "fungi", "chromista"})
_RANKS_BY_WORDS = {1: "GENUS", 2: "SPECIES", 3: "SUBSPECIES"}
_NAME_FIELDS = ("scientific_name", "scientificName")
_STATUS_FIELDS = ("taxonomic_status", "taxonomicStatus", "status")


def _crc(text: str) -> int:
    return zlib.crc32(text.encode())


def authorship(name: str, kingdom: str) -> str:
    """The authorship of ``name`` as its code writes it, fixed per name."""
    h = _crc(name)
    if kingdom.lower() in _CODE_OF_BOTANY:
        return _BOTANISTS[h % len(_BOTANISTS)]
    author, first, last = _ZOOLOGISTS[h % len(_ZOOLOGISTS)]
    cited = f"{author}, {first + (h >> 8) % (last - first + 1)}"
    return f"({cited})" if (h >> 4) % 3 == 0 else cited


def rank_of(name: str, entry: Mapping[str, Any] | None, enum: frozenset[str]) -> str | None:
    """The rank a name of this many words has (a one-word name: the level whose field it is)."""
    words = name.split()
    if len(words) == 1 and entry is not None:
        level = next((lv for lv in LEVELS if str(entry.get(lv, "")).lower() == name.lower()), "genus")
        rank = level.upper()
    else:
        rank = _RANKS_BY_WORDS.get(min(len(words), 3), "SPECIES")
    return rank if not enum or rank in enum else None


def _entry(name: str, gen: Generation) -> tuple[dict[str, Any] | None, bool]:
    """The vocabulary's entry for ``name`` (known: True), else one of its genus, else one of its higher taxon."""
    index = gen.facts.vocab.index("taxon")
    found = index.get(name.lower())
    if found is not None:
        return found, True
    first = name.split()[0].lower() if name.split() else ""
    for entry in index.values():
        if first and any(str(entry.get(lv, "")).lower() == first for lv in LEVELS):
            return entry, False
    return None, False


def _enum(props: Mapping[str, Any], key: str) -> frozenset[str]:
    sub = props.get(key)
    return frozenset(sub.get("enum") or ()) if isinstance(sub, dict) else frozenset()


def taxon_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a taxon record agree with its name, or None for other records."""
    name_key = next((k for k in _NAME_FIELDS if k in props), None)
    if name_key is None or not ({"rank", "authorship"} & set(props)):
        return None
    ranks = _enum(props, "rank")
    status_key = next((k for k in _STATUS_FIELDS if k in props and "ACCEPTED" in _enum(props, k)), None)

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        name = record.get(name_key)
        if not isinstance(name, str) or not name.strip():
            return
        entry, known = _entry(name, gen)
        asked = str(gen.snaked_args.get("rank") or "").lower()
        if entry is not None and asked in LEVELS and isinstance(entry.get(asked), str):
            name = record[name_key] = entry[asked]  # a search for genera lists genera
        _classify(record, name, entry)
        if "rank" in record and (rank := rank_of(name, entry, ranks)) is not None:
            record["rank"] = rank
        if "authorship" in record:
            record["authorship"] = authorship(name, str((entry or {}).get("kingdom", "Animalia")))
        if status_key is not None and status_key in record:
            record[status_key] = "SYNONYM" if _crc(name) % 11 == 0 else "ACCEPTED"
        _match(record, name, known)

    return step


def _classify(record: dict[str, Any], name: str, entry: Mapping[str, Any] | None) -> None:
    if entry is None:
        return
    words = name.split()
    for level in LEVELS:
        if level in record and isinstance(entry.get(level), str):
            record[level] = entry[level]
    if len(words) > 1 and "genus" in record:
        record["genus"] = words[0]


def _match(record: dict[str, Any], name: str, known: bool) -> None:
    if "canonical_name" in record:
        record["canonical_name"] = name
    if record.get("match_type") in ("EXACT", "FUZZY", "HIGHERRANK", "NONE"):
        record["match_type"] = "EXACT" if known else "FUZZY"
        if isinstance(record.get("confidence"), int):
            record["confidence"] = 95 + _crc(name) % 5 if known else 80 + _crc(name) % 12
