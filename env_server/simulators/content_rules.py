"""Rules that bind what a record says, not only its numbers: energy that follows its
macronutrients, a slug that spells its name.

They have the shape of ``invariants`` rules (``field`` names the fields that bind them;
``enforce`` repairs a generated record, ``violation`` reports a broken one), and join
``invariants.RULES``, so the generator, the audit and the property tests all use them.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from env_server.simulators.nutrient_names import CARBS, ENERGY, FAT, PROTEIN, SUGAR


def _first(record: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    for name in names:
        if name in record:
            return name
    return None


def _grams(record: Mapping[str, Any], names: tuple[str, ...]) -> tuple[str, float] | None:
    key = _first(record, names)
    if key is None:
        return None
    value = record[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return key, float(value)


@functools.lru_cache(maxsize=4096)
def _has_table(fields: tuple[str, ...]) -> bool:
    return not set(fields).isdisjoint(_TOTALS)


@functools.lru_cache(maxsize=4096)
def _has_macros(fields: tuple[str, ...]) -> bool:
    """Whether a record with these fields names a macronutrient (once per record shape)."""
    names = set(fields)
    return any(not names.isdisjoint(group) for group in (PROTEIN, FAT, CARBS))


def energy_of(protein: float, fat: float, carbs: float) -> float:
    """Atwater factors: 4 kcal per gram of protein and of carbohydrate, 9 per gram of fat."""
    return 4 * protein + 4 * carbs + 9 * fat


@dataclass(frozen=True)
class Nutrients:
    """A nutrient record adds up: sugar is part of the carbohydrate, and the energy is
    4·protein + 4·carbohydrate + 9·fat (within 5 %, as food tables round)."""

    name: str = "energy follows the macronutrients"
    field: tuple[str, ...] = ENERGY + SUGAR

    def _parts(self, record: Mapping[str, Any]) -> tuple[tuple[str, float], ...] | None:
        parts = tuple(_grams(record, names) for names in (ENERGY, PROTEIN, FAT, CARBS))
        return None if any(p is None for p in parts) else parts  # type: ignore[return-value]

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        if not _has_macros(tuple(record)):  # a dish's headline calories alone: nothing to bind
            return
        sugar, carbs = _grams(record, SUGAR), _grams(record, CARBS)
        if sugar is not None and carbs is not None and sugar[1] > carbs[1]:
            record[sugar[0]] = _like(record[sugar[0]], carbs[1] * 0.6)
        parts = self._parts(record)
        if parts is not None:  # values only go down, so the schema's maxima still hold
            (energy, kcal), (pk, p), (fk, f), (ck, c) = parts
            want = energy_of(p, f, c)
            if want > kcal + 1 and kcal > 0:  # too much food for the energy: the macros shrink to fit it
                # (past rounding: a record enforced again, a stored row, stays as it is)
                for key, grams in ((pk, p), (fk, f), (ck, c)):
                    record[key] = _like_down(record[key], grams * kcal / want)
                sugar = _grams(record, SUGAR)
                if sugar is not None and sugar[1] > float(record[ck]):
                    record[sugar[0]] = _like_down(record[sugar[0]], float(record[ck]) * 0.6)
                want = energy_of(*(float(record[k]) for k in (pk, fk, ck)))
            record[energy] = _like(record[energy], min(want, kcal) if want > kcal else want)

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        sugar, carbs = _grams(record, SUGAR), _grams(record, CARBS)
        if sugar is not None and carbs is not None and sugar[1] > carbs[1] + 0.01:
            return f"sugar within carbohydrate: {sugar[0]}={sugar[1]:g} exceeds {carbs[0]}={carbs[1]:g}"
        parts = self._parts(record)
        if parts is None:
            return None
        (energy, have), (_, p), (_, f), (_, c) = parts
        want = energy_of(p, f, c)
        if abs(have - want) > max(1.0, want * 0.05):
            return f"{self.name}: {energy}={have:g} but 4·protein + 4·carbs + 9·fat = {want:.0f}"
        return None


def _like(template: Any, value: float) -> int | float:
    return int(round(value)) if isinstance(template, int) else round(value, 2)


def _like_down(template: Any, value: float) -> int | float:
    """``value`` typed as ``template``, never rounded up past it."""
    return int(value) if isinstance(template, int) else math.floor(value * 100) / 100


_TOTALS = ("totalNutrients", "total_nutrients", "nutrients", "nutrition")
_WEIGHT = ("totalWeight", "total_weight", "weight_g", "serving_weight_grams")


@dataclass(frozen=True)
class DishTotals:
    """A dish's headline ``calories`` is its nutrient table's energy, and its weight holds
    at least its macronutrients (a dish is not dry powder: about 2.5 times their mass)."""

    name: str = "a dish's calories and weight follow its nutrients"
    field: tuple[str, ...] = ("calories", "totalWeight", "total_weight")

    def _table(self, record: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[tuple[str, float], ...]] | None:
        if not _has_table(tuple(record)):  # no nutrient table: nothing to bind (once per record shape)
            return None
        key = _first(record, _TOTALS)
        table = record.get(key) if key is not None else None
        if not isinstance(table, dict):
            return None
        parts = tuple(_grams(table, names) for names in (ENERGY, PROTEIN, FAT, CARBS))
        return None if any(p is None for p in parts) else (table, parts)  # type: ignore[return-value]

    def _wants(self, record: Mapping[str, Any], found: Any = None) -> list[tuple[str, float, bool]]:
        """(field, wanted value, whether the value is a floor)."""
        found = found or self._table(record)
        if found is None:
            return []
        _, ((_, kcal), (_, p), (_, f), (_, c)) = found
        wants = []
        if _grams(record, ("calories",)) is not None:
            wants.append(("calories", kcal, False))
        weight = _grams(record, _WEIGHT)
        if weight is not None:
            wants.append((weight[0], (p + f + c) * 2.5, True))
        return wants

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        found = self._table(record)
        if found is None:
            return
        calories = _grams(record, ("calories",))
        if found is not None and calories is not None and found[1][0][1] > calories[1] > 0:
            table, parts = found  # the table shrinks to the headline (values only go down)
            ratio = calories[1] / parts[0][1]
            for key, value in parts:
                table[key] = _like_down(table[key], value * ratio)
            Nutrients().enforce(table, args)
            found = self._table(record)
        for key, want, floor in self._wants(record, found):
            if not floor or record[key] < want:
                record[key] = _like(record[key], want)

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        for key, want, floor in self._wants(record):
            have = float(record[key])
            if (have < want - 1) if floor else abs(have - want) > max(1.0, want * 0.01):
                return f"{self.name}: {key}={have:g} but the nutrients call for {'at least ' if floor else ''}{want:.0f}"
        return None


# -- slugs -----------------------------------------------------------------------------------

_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def slug_of(text: str) -> str:
    return _NOT_SLUG.sub("-", text.lower()).strip("-")


# A slug may lead with the record's numeric id, as Hearthstone's do ("52119-arch-villain-rafaam").
_ID_PREFIX = re.compile(r"^\d+-")
# A slug a name can be read back from: a few short words joined by hyphens ("albert-einstein").
_NAME_SLUG = re.compile(r"^(?:\d+-)?[a-z0-9]{1,20}(?:-[a-z0-9]{1,20}){0,5}$")


def _spells(slug: str, name: str) -> bool:
    return _ID_PREFIX.sub("", slug) == slug_of(name)


def name_of(slug: str) -> str:
    """A name read back from its slug ("maya-angelou" -> "Maya Angelou")."""
    return " ".join(w[:1].upper() + w[1:] for w in slug.replace("_", "-").split("-") if w)


@dataclass(frozen=True)
class SlugSpells:
    """``<x>_slug`` spells ``<x>`` (an author's slug, their name). A slug the call sent
    (under any argument name: ``id_or_slug``) stays, and the name is read back from it."""

    slug: str
    named: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.slug} spells {self.named[0]}"

    @property
    def field(self) -> tuple[str, ...]:
        return (self.slug,)

    def _pair(self, record: Mapping[str, Any]) -> tuple[str, str] | None:
        named = _first(record, self.named)
        if named is None or self.slug not in record:
            return None
        if not isinstance(record[named], str) or not isinstance(record[self.slug], str) or not record[named].strip():
            return None
        return self.slug, named

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        pair = self._pair(record)
        if pair is None or _spells(record[pair[0]], record[pair[1]]):
            return
        slug, named = pair
        sent = record[slug] if record[slug] in args.values() else None  # the call asked for this slug
        if sent is not None and not _NAME_SLUG.match(sent):
            return  # not a name's slug ("QQQ…", "x_y"): the record keeps its own name
        if sent is not None:
            old = slug_of(record[named])
            record[named] = name_of(_ID_PREFIX.sub("", sent))
            for key, value in record.items():  # its page URLs name it too
                if isinstance(value, str) and "://" in value and old and value.rstrip("/").endswith("/" + old):
                    record[key] = value.rstrip("/")[: -len(old)] + _ID_PREFIX.sub("", sent)
        else:
            prefix = _ID_PREFIX.match(record[slug])
            record[slug] = (prefix.group(0) if prefix else "") + slug_of(record[named])

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        pair = self._pair(record)
        if pair is None or _spells(record[pair[0]], record[pair[1]]):
            return None
        if record[pair[0]] in args.values() and not _NAME_SLUG.match(record[pair[0]]):
            return None  # a sent slug no name spells is the caller's, as ``enforce`` leaves it
        return f"{self.name}: {pair[0]}={record[pair[0]]!r} does not spell {pair[1]}={record[pair[1]]!r}"


# -- status pages and badge tallies -------------------------------------------------------------

# A component's state -> the page's indicator it calls for (Statuspage's scale), and the
# page's headline for each indicator.
_WORST = {"operational": 0, "under_maintenance": 1, "degraded_performance": 1, "partial_outage": 2, "major_outage": 3}
_INDICATORS = ("none", "minor", "major", "critical")
_HEADLINES = {"none": "All Systems Operational", "minor": "Minor Service Outage", "major": "Partial System Outage",
              "critical": "Major Service Outage"}


@dataclass(frozen=True)
class StatusRollup:
    """A status page's indicator (and its headline) is its worst component's state: all
    operational is "none", a degraded component "minor", an outage "major" or "critical"."""

    name: str = "the page indicator follows its components"
    field: tuple[str, ...] = ("indicator",)

    def _want(self, record: Mapping[str, Any]) -> str | None:
        if record.get("indicator") not in _INDICATORS:
            return None
        states = [str(c["status"]) for rows in record.values() if isinstance(rows, list)
                  for c in rows if isinstance(c, dict) and c.get("status") in _WORST]
        return _INDICATORS[max(_WORST[s] for s in states)] if states else None

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        want = self._want(record)
        if want is not None:
            record["indicator"] = want
            if record.get("description") in _HEADLINES.values():
                record["description"] = _HEADLINES[want]

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        want = self._want(record)
        if want is not None and record["indicator"] != want:
            return f"{self.name}: indicator {record['indicator']!r} but the components call for {want!r}"
        return None


@dataclass(frozen=True)
class Tiered:
    """Rarer tiers count fewer: bronze badges at least silver, silver at least gold."""

    tiers: tuple[str, ...] = ("gold", "silver", "bronze")
    name: str = "rarer badges count fewer"

    @property
    def field(self) -> tuple[str, ...]:
        return self.tiers

    def _counts(self, record: Mapping[str, Any]) -> list[int] | None:
        counts = [record.get(t) for t in self.tiers]
        return counts if all(type(c) is int for c in counts) else None  # type: ignore[return-value]

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        counts = self._counts(record)
        if counts is not None:
            record.update(zip(self.tiers, sorted(counts), strict=True))

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        counts = self._counts(record)
        if counts is not None and counts != sorted(counts):
            return f"{self.name}: {dict(zip(self.tiers, counts, strict=True))}"
        return None


# -- files -----------------------------------------------------------------------------------

_EXTENSIONS = {"image/jpeg": ("jpg", "jpeg"), "image/png": ("png",), "image/gif": ("gif",), "image/webp": ("webp",),
               "image/heic": ("heic",), "image/svg+xml": ("svg",), "video/mp4": ("mp4",), "video/quicktime": ("mov",),
               "audio/mpeg": ("mp3",), "application/pdf": ("pdf",), "text/plain": ("txt",), "text/csv": ("csv",),
               "text/html": ("html", "htm"), "application/json": ("json",), "application/zip": ("zip",),
               "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ("docx",),
               "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ("xlsx",)}
_FILE_NAMES = ("filename", "file_name", "fileName", "original_filename", "originalFilename", "name")
_MIME_FIELDS = ("mimeType", "mime_type", "mimetype", "content_type", "contentType")
_EXTENSION = re.compile(r"\.([A-Za-z0-9]{2,5})$")


@dataclass(frozen=True)
class FileType:
    """A file's name ends in the extension of its MIME type (a PNG is not "notes.txt")."""

    name: str = "a file's extension follows its MIME type"
    field: tuple[str, ...] = _MIME_FIELDS

    def _pair(self, record: Mapping[str, Any]) -> tuple[str, str, tuple[str, ...]] | None:
        mime = next((record[k] for k in _MIME_FIELDS if isinstance(record.get(k), str)), None)
        key = next((k for k in _FILE_NAMES if isinstance(record.get(k), str) and _EXTENSION.search(record[k])), None)
        wanted = _EXTENSIONS.get(mime.split(";")[0].strip().lower()) if mime else None
        return (key, str(record[key]), wanted) if key is not None and wanted else None

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        pair = self._pair(record)
        if pair is not None and _EXTENSION.search(pair[1]).group(1).lower() not in pair[2]:  # type: ignore[union-attr]
            record[pair[0]] = _EXTENSION.sub("." + pair[2][0], pair[1])

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        pair = self._pair(record)
        if pair is not None and _EXTENSION.search(pair[1]).group(1).lower() not in pair[2]:  # type: ignore[union-attr]
            return f"{self.name}: {pair[1]!r} is no {'/'.join(pair[2])} file"
        return None


CONTENT_RULES: tuple[Any, ...] = (
    Nutrients(),
    DishTotals(),
    *(SlugSpells(f"{who}_slug", (who, f"{who}_name")) for who in ("author", "artist", "creator", "owner", "user")),
    SlugSpells("slug", ("name", "full_name", "display_name")),
    StatusRollup(),
    Tiered(),
    FileType(),
)


def enforce_content(record: dict[str, Any], args: Mapping[str, Any]) -> None:
    """Apply the content rules to one finished record (a stored row laid over a fresh draw)."""
    for rule in _content_rules_for(tuple(record)):
        rule.enforce(record, args)


@functools.lru_cache(maxsize=4096)
def _content_rules_for(fields: tuple[str, ...]) -> tuple[Any, ...]:
    """The content rules a record with these field names can bind (by name, once per shape)."""
    names = set(fields)
    return tuple(rule for rule in CONTENT_RULES if not names.isdisjoint(rule.field))
