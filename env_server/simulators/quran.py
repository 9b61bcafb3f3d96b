"""The Qur'an as its facts are: surahs, ayahs and editions, never invented text.

Surah names (Arabic and transliterated), revelation place, ayah counts, juz, pages,
sajdah ayahs and the Arabic text come from the ``quran-text`` package (the Ḥafṣ muṣḥaf of
the King Fahd Complex, CC BY 4.0), loaded on first use. The English meaning of each
surah's name and the editions a Qur'an API serves are ``tool_specs/reference/quran.json``.

An Arabic edition answers the ayah's own text. We ship no licensed translation, so a
translation edition's ``text`` says that it is not available here rather than putting
other words in scripture's place.

``record_steps`` asks ``surah_step``, ``ayah_step`` and ``edition_step`` once per object
schema; each picks records by their field names (a record with ``numberOfAyahs`` is a
surah, one with ``numberInSurah`` and ``text`` an ayah, one with ``identifier`` and
``format`` and ``type`` an edition), never by tool.
"""

from __future__ import annotations

import functools
import json
import re
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

SURAHS = 114
AYAHS = 6236
DEFAULT_EDITION = "quran-uthmani"
_REFERENCE = re.compile(r"^\s*(\d{1,3})\s*:\s*(\d{1,3})\s*$")
_ARABIC = re.compile(r"[\u0600-\u06ff]")
_REVELATION = {"makki": "Meccan", "madani": "Medinan"}


@dataclass(frozen=True)
class EditionFact:
    identifier: str
    language: str
    name: str
    english_name: str
    format: str
    type: str

    @property
    def arabic_text(self) -> bool:
        """Whether the edition is the Arabic text itself (not a translation, a tafsir or audio)."""
        return self.language == "ar" and self.type == "quran"


@dataclass(frozen=True)
class AyahFact:
    surah: int
    number_in_surah: int
    number: int  # 1..6236 across the whole text
    juz: int
    page: int
    sajda: bool
    arabic: str


@dataclass(frozen=True)
class SurahFact:
    number: int
    name: str  # Arabic
    english_name: str  # transliterated
    english_meaning: str
    revelation: str  # "Meccan" | "Medinan"
    ayah_count: int
    first_number: int  # global number of its first ayah


class QuranFacts:
    """The package's muṣḥaf and our reference table, read once."""

    def __init__(self) -> None:
        from quran_text import Mushaf

        self._mushaf = Mushaf.hafs()
        data = json.loads((resources.files("tool_specs") / "reference" / "quran.json").read_text(encoding="utf-8"))
        meanings: list[str] = data["surah_name_meanings"]
        self.surahs = tuple(
            SurahFact(number=s.number, name=f"سورة {s.name_ar}", english_name=s.name_en,
                      english_meaning=meanings[s.number - 1], revelation=_REVELATION[s.revelation],
                      ayah_count=s.ayah_count, first_number=s.first_ayah.index + 1)
            for s in (self._mushaf.surah(n) for n in range(1, SURAHS + 1)))
        self.editions = tuple(EditionFact(e["identifier"], e["language"], e["name"], e["englishName"], e["format"],
                                          e["type"]) for e in data["editions"])
        self._editions = {e.identifier: e for e in self.editions}
        self._sajdat = frozenset(a.index + 1 for a in self._mushaf.sajdat())
        self._ayahs: dict[tuple[int, int], AyahFact] = {}

    def surah(self, number: int) -> SurahFact:
        return self.surahs[min(max(number, 1), SURAHS) - 1]

    def ayah(self, surah: int, number_in_surah: int) -> AyahFact:
        fact = self.surah(surah)
        within = min(max(number_in_surah, 1), fact.ayah_count)
        key = (fact.number, within)
        found = self._ayahs.get(key)
        if found is None:
            ayah = self._mushaf.ayah(fact.number, within)
            number = ayah.index + 1
            found = self._ayahs[key] = AyahFact(surah=fact.number, number_in_surah=within, number=number,
                                                juz=ayah.juz.number, page=ayah.page.number,
                                                sajda=number in self._sajdat, arabic=ayah.text)
        return found

    def search(self, keyword: str) -> list[Any]:
        """The package's spans of ``keyword`` in the Arabic text (marks folded)."""
        spans: list[Any] = self._mushaf.search(keyword)
        return spans

    def ayah_numbered(self, number: int) -> AyahFact:
        """The ayah with global number ``number`` (1..6236)."""
        number = min(max(number, 1), AYAHS)
        surah = next(s for s in reversed(self.surahs) if s.first_number <= number)
        return self.ayah(surah.number, number - surah.first_number + 1)

    def edition(self, identifier: str | None) -> EditionFact:
        """The edition an identifier names; a bare language code ("en") its first edition."""
        text = (identifier or DEFAULT_EDITION).strip()
        found = self._editions.get(text)
        if found is None:
            found = next((e for e in self.editions if e.language == text.lower() and e.format == "text"), None)
        return found or self._editions[DEFAULT_EDITION]


@functools.lru_cache(maxsize=1)
def quran_facts() -> QuranFacts:
    return QuranFacts()


def ayah_text(ayah: AyahFact, edition: EditionFact, matched: str = "") -> str:
    """The ayah's text in ``edition``: the Arabic itself, or a plain statement that the
    translation's text is not available (we never write scripture in its place); a search
    hit says what it matched."""
    if edition.arabic_text:
        return ayah.arabic
    hit = f", a match for \"{matched}\"," if matched else ""
    return (f"[{edition.english_name}'s {edition.type} of {ayah.surah}:{ayah.number_in_surah}{hit} is not "
            f"available in this environment: no licensed copy of its text ships with it]")


# -- what the call asks for ---------------------------------------------------------------


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def asked_ayah(args: Mapping[str, Any]) -> AyahFact | None:
    """The ayah a call names: "2:255", a global number, or a surah and an ayah number."""
    facts = quran_facts()
    reference = args.get("reference")
    if isinstance(reference, str) and (match := _REFERENCE.match(reference)):
        return facts.ayah(int(match.group(1)), int(match.group(2)))
    number = _int(reference)
    if number is not None:
        return facts.ayah_numbered(number)
    surah, ayah = _int(args.get("surah")), _int(args.get("ayah"))
    if surah is not None and ayah is not None:
        return facts.ayah(surah, ayah)
    return None


def _drawn_ayah(gen: Generation, index: int | None) -> AyahFact:
    """An ayah for a search hit or an unnamed read: seeded by the call, distinct per item."""
    keyword = str(gen.snaked_args.get("keyword") or gen.snaked_args.get("q") or "")
    surah = _int(gen.snaked_args.get("surah"))
    facts = quran_facts()
    seed = zlib.crc32(f"{keyword.lower()}|{surah}".encode()) + gen.rng.randrange(AYAHS)
    if surah is not None:
        fact = facts.surah(surah)
        return facts.ayah(fact.number, seed % fact.ayah_count + 1)
    return facts.ayah_numbered((seed + 541 * (index or 0)) % AYAHS + 1)


def _arabic_hits(keyword: str) -> list[AyahFact]:
    """Ayahs whose Arabic text holds an Arabic keyword (the package's search folds marks)."""
    facts = quran_facts()
    found: list[AyahFact] = []
    for span in facts.search(keyword)[:50]:
        ayah = span.first_ayah
        fact = facts.ayah(ayah.surah.number, ayah.number)
        if fact not in found:
            found.append(fact)
    return found


# -- record steps -------------------------------------------------------------------------


def _set(record: dict[str, Any], props: Mapping[str, Any], values: Mapping[str, Any]) -> None:
    for key, value in values.items():
        if key in record and _fits(value, props.get(key)):
            record[key] = value


def _fits(value: Any, schema: Any) -> bool:
    enum = schema.get("enum") if isinstance(schema, dict) else None
    return not enum or value in enum


def _ayah_values(ayah: AyahFact, edition: EditionFact, matched: str = "") -> dict[str, Any]:
    surah = quran_facts().surah(ayah.surah)
    return {"number": ayah.number, "numberInSurah": ayah.number_in_surah, "number_in_surah": ayah.number_in_surah,
            "text": ayah_text(ayah, edition, matched), "juz": ayah.juz, "page": ayah.page, "sajda": ayah.sajda,
            "surah_number": ayah.surah, "surah": ayah.surah, "surah_englishName": surah.english_name,
            "surah_name": surah.name, "edition_identifier": edition.identifier, "edition": edition.identifier}


def ayah_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes an ayah record a real ayah (the one asked, or a seeded one), or
    None for other records."""
    if "text" not in props or not {"numberInSurah", "number_in_surah"} & set(props):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        keyword = gen.snaked_args.get("keyword")
        keyword = keyword.strip() if isinstance(keyword, str) else ""
        arabic = bool(_ARABIC.search(keyword))
        sent = gen.snaked_args.get("edition")
        # A search reads the English text unless it is asked in Arabic (the API's default).
        edition = quran_facts().edition(sent if isinstance(sent, str) else "en" if keyword and not arabic else None)
        ayah = asked_ayah(gen.snaked_args) if index is None else None
        if ayah is None and index is not None and arabic:
            hits = _arabic_hits(keyword)
            ayah = hits[index % len(hits)] if hits else None
        _set(record, props, _ayah_values(ayah or _drawn_ayah(gen, index), edition, keyword))
        if isinstance(record.get("audio"), str):  # an audio edition's recitation, Alafasy's by default
            reciter = edition.identifier if edition.format == "audio" else "ar.alafasy"
            record["audio"] = f"https://cdn.islamic.network/quran/audio/128/{reciter}/{record['number']}.mp3"

    return step


def surah_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a surah record the surah asked, with its real ayahs, or None
    for records that are not surahs."""
    if not {"numberOfAyahs", "number_of_ayahs"} & set(props):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        facts = quran_facts()
        asked = _int(gen.snaked_args.get("surah")) if index is None else None
        surah = facts.surah(asked if asked is not None else (gen.rng.randrange(SURAHS) + 1 if index is None
                                                             else (index % SURAHS) + 1))
        _set(record, props, {"number": surah.number, "name": surah.name, "englishName": surah.english_name,
                             "english_name": surah.english_name, "englishNameTranslation": surah.english_meaning,
                             "english_name_translation": surah.english_meaning,
                             "revelationType": surah.revelation, "revelation_type": surah.revelation,
                             "numberOfAyahs": surah.ayah_count, "number_of_ayahs": surah.ayah_count})
        if isinstance(record.get("ayahs"), list):
            record["ayahs"] = _surah_ayahs(gen, surah, props.get("ayahs"))

    return step


def _surah_ayahs(gen: Generation, surah: SurahFact, schema: Any) -> list[dict[str, Any]]:
    """The surah's ayahs from ``offset`` on, ``limit`` of them (all, by default), in order."""
    facts = quran_facts()
    edition = facts.edition(gen.snaked_args.get("edition"))
    offset = max(_int(gen.snaked_args.get("offset")) or 0, 0)
    limit = _int(gen.snaked_args.get("limit"))
    last = surah.ayah_count if limit is None or limit <= 0 else min(surah.ayah_count, offset + limit)
    items = schema.get("items") if isinstance(schema, dict) else None
    keys = tuple((items or {}).get("properties") or ("number", "numberInSurah", "text"))
    rows = []
    for n in range(offset + 1, last + 1):
        values = _ayah_values(facts.ayah(surah.number, n), edition)
        rows.append({k: values[k] for k in keys if k in values})
    return rows


def edition_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes an edition record one of the editions a Qur'an API serves, or
    None for other records."""
    if not {"identifier", "format", "type", "englishName"} <= set(props):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        editions = _asked_editions(gen)
        edition = editions[(index or 0) % len(editions)]
        _set(record, props, {"identifier": edition.identifier, "language": edition.language, "name": edition.name,
                             "englishName": edition.english_name, "format": edition.format, "type": edition.type})

    return step


def _asked_editions(gen: Generation) -> tuple[EditionFact, ...]:
    """The editions that pass the call's ``language``, ``format`` and ``type`` filters."""
    args = gen.snaked_args
    found = tuple(e for e in quran_facts().editions
                  if all(not isinstance(args.get(k), str) or args[k] == getattr(e, k) for k in ("language", "format",
                                                                                                 "type")))
    return found or quran_facts().editions
