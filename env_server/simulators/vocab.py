"""Vocabularies: the creative text no data package has, read from ``tool_specs/vocab``.

A file ``<kind>.json`` backs the value kind of the same name (``film_title``,
``review``, ``dog_breed``, …). Plain kinds hold ``values``; kinds whose entries carry
several facts hold ``records`` (a dog breed and its sub-breeds, a word and its
definition). Text may name the slots ``{city}``, ``{country}``, ``{first_name}`` and
``{weekday}``, which the simulator fills from the record being built.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

# Record fields named differently across vocabularies that mean the same thing.
KEY_ALIASES = {"sci_name": "scientific_name", "family_sci_name": "family"}
SLOTS = ("city", "country", "first_name", "weekday", "term", "title")
# "term": search answers only (term_weave); "title": an issue's own title (tracker_facts)
_SLOT_RE = re.compile(r"\{([a-z_]+)\}")


class VocabSpec(BaseModel):
    """One vocabulary file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="The value kind; equals the file stem.")
    description: str = Field(min_length=1)
    values: tuple[str, ...] = ()
    records: tuple[dict[str, Any], ...] = ()
    slots: tuple[str, ...] = Field(default=(), description=(
        "Further slots this kind's texts name, filled by the composer that draws the kind from its "
        "record's own fields (a transit notice's {line} and {stop})."))

    @model_validator(mode="after")
    def _one_shape(self) -> VocabSpec:
        if bool(self.values) == bool(self.records):
            raise ValueError(f"vocabulary '{self.kind}' needs exactly one of 'values' or 'records'")
        if self.records:
            keys = list(self.records[0])
            bad = [i for i, r in enumerate(self.records) if list(r) != keys]
            if bad:
                raise ValueError(f"vocabulary '{self.kind}': records {bad[:5]} do not have the keys {keys}")
        for text in self.texts:
            unknown = set(_SLOT_RE.findall(text)) - set(SLOTS) - set(self.slots)
            if unknown:
                raise ValueError(f"vocabulary '{self.kind}': unknown slot(s) {sorted(unknown)} in {text!r}")
        return self

    @property
    def texts(self) -> tuple[str, ...]:
        """The display text of every entry (a record's first field)."""
        if self.values:
            return self.values
        first = next(iter(self.records[0]))
        return tuple(str(r[first]) for r in self.records)

    @property
    def has_slots(self) -> bool:
        return any("{" in t for t in self.texts)


def default_vocab_dir() -> Path:
    return Path(str(resources.files("tool_specs") / "vocab"))


class Vocabulary:
    """Every vocabulary of one directory, read on first use of each kind."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or default_vocab_dir()
        self._kinds = tuple(sorted(p.stem for p in self.directory.glob("*.json")))
        self._known = frozenset(self._kinds)
        self._loaded: dict[str, VocabSpec] = {}
        self._indexes: dict[str, dict[str, dict[str, Any]]] = {}
        self._siblings_of: dict[str, tuple[str, ...]] = {}
        self._words: dict[str, dict[str, tuple[int, ...]]] = {}
        self._found: dict[str, tuple[dict[str, Any], ...]] = {}
        self._grouped: dict[tuple[str, ...], dict[tuple[str, ...], tuple[str, ...]]] = {}

    @property
    def kinds(self) -> tuple[str, ...]:
        return self._kinds

    def __contains__(self, kind: object) -> bool:
        return kind in self._known

    def index(self, kind: str) -> dict[str, dict[str, Any]]:
        """A record vocabulary's entries by display text, lowercased (for lookups by name)."""
        found = self._indexes.get(kind)
        if found is None:
            spec = self.get(kind)
            first = next(iter(spec.records[0])) if spec.records else ""
            found = self._indexes[kind] = {str(r[first]).lower(): r for r in spec.records}
        return found

    def word_index(self, kind: str) -> dict[str, tuple[int, ...]]:
        """Each word (four letters or more, lowercased) of a kind's texts -> the entries that use it."""
        found = self._words.get(kind)
        if found is None:
            index: dict[str, list[int]] = {}
            for i, text in enumerate(self.get(kind).texts):
                for word in set(re.findall(r"[a-z]{4,}", text.lower())):
                    index.setdefault(word, []).append(i)
            found = self._words[kind] = {w: tuple(ids) for w, ids in index.items()}
        return found

    def containing(self, kind: str, text: str) -> tuple[dict[str, Any], ...]:
        """The records of ``kind`` whose display text has ``text`` as whole words (any case), the
        one it names exactly first: what a name search for it finds ("margarita": Margarita,
        Tommy's Margarita, Frozen Margarita). Empty for texts under three letters."""
        wanted = text.strip().lower()
        key = f"{kind}~{wanted}"
        found = self._found.get(key)
        if found is None:
            spec = self.get(kind)
            first = next(iter(spec.records[0])) if spec.records else ""
            word = re.compile(rf"(?<![\w]){re.escape(wanted)}(?![\w])") if len(wanted) >= 3 else None
            hits = [r for r in spec.records if word is not None and word.search(str(r[first]).lower())]
            found = self._found[key] = tuple(sorted(hits, key=lambda r: str(r[first]).lower() != wanted))
        return found

    def having(self, kind: str, text: str) -> tuple[dict[str, Any], ...]:
        """The records of ``kind`` with a fact (not their display text) equal to ``text``, any
        case, underscores read as spaces: what a filter for it finds ("Non_Alcoholic" drinks)."""
        wanted = text.strip().lower().replace("_", " ")
        key = f"{kind}={wanted}"
        found = self._found.get(key)
        if found is None:
            spec = self.get(kind)
            first = next(iter(spec.records[0])) if spec.records else ""
            found = self._found[key] = tuple(r for r in spec.records if any(
                k != first and isinstance(v, str) and v.lower() == wanted for k, v in r.items()))
        return found

    def grouped(self, kind: str, *keys: str) -> dict[tuple[str, ...], tuple[str, ...]]:
        """A record vocabulary's display texts grouped by the values of ``keys`` (a notice's
        templates by the effect they announce), made on first use."""
        found = self._grouped.get((kind, *keys))
        if found is None:
            spec = self.get(kind)
            first = next(iter(spec.records[0]))
            groups: dict[tuple[str, ...], list[str]] = {}
            for record in spec.records:
                groups.setdefault(tuple(str(record[k]) for k in keys), []).append(str(record[first]))
            found = self._grouped[(kind, *keys)] = {key: tuple(texts) for key, texts in groups.items()}
        return found

    def lookup(self, kind: str, text: str) -> dict[str, Any] | None:
        """The record of ``kind`` that has ``text`` (any case) in any of its fields."""
        found = self._indexes.get(f"{kind}:*")
        if found is None:
            found = self._indexes[f"{kind}:*"] = {
                str(v).lower(): r for r in reversed(self.get(kind).records) for v in r.values()}
        return found.get(text.strip().lower())

    def kin_record(self, kind: str, text: str) -> dict[str, Any] | None:
        """A record of ``kind`` for a name only a sibling vocabulary knows: a tern is in
        ``bird_taxon``, not in ``taxon``. Siblings are record vocabularies with a field of the
        same meaning as ``kind``'s display field (``sci_name`` is ``scientific_name``); the
        fields they lack come from the ``kind`` record sharing their most specific value
        (the tern's order Charadriiformes gives its class Aves), and a genus is the first
        word of a scientific name."""
        own = self.get(kind).records
        keys = list(own[0]) if own else []
        if not keys:
            return None
        for sibling in self._siblings(kind, keys[0]):
            found = self.lookup(sibling, text)
            if found is None:
                continue
            mapped = {KEY_ALIASES.get(k, k): v for k, v in found.items() if KEY_ALIASES.get(k, k) in keys}
            if "genus" in keys and "genus" not in mapped and isinstance(mapped.get("scientific_name"), str):
                mapped["genus"] = mapped["scientific_name"].split(" ")[0]
            kin = next((r for key in reversed(keys) if key in mapped and key != keys[0]
                        for r in own if r[key] == mapped[key]), own[sum(map(ord, text)) % len(own)])
            return {key: mapped.get(key, kin[key]) for key in keys}
        return None

    def _siblings(self, kind: str, display: str) -> tuple[str, ...]:
        found = self._siblings_of.get(kind)
        if found is None:
            found = self._siblings_of[kind] = tuple(
                other for other in self._kinds if other != kind and self._has_records(other)
                and display in {KEY_ALIASES.get(k, k) for k in self.get(other).records[0]})
        return found

    def _has_records(self, kind: str) -> bool:
        try:
            return bool(self.get(kind).records)
        except (ValueError, OSError):
            return False

    def get(self, kind: str) -> VocabSpec:
        spec = self._loaded.get(kind)
        if spec is None:
            path = self.directory / f"{kind}.json"
            spec = VocabSpec.model_validate(json.loads(path.read_text(encoding="utf-8")))
            if spec.kind != kind:
                raise ValueError(f"{path}: 'kind' is '{spec.kind}', expected the file stem '{kind}'")
            self._loaded[kind] = spec
        return spec
