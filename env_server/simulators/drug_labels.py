"""Drug labels whose sections fit their drug, from the drug's therapeutic class.

A record is a drug label when its entity says label (``drug_label``, ``spl``) and it has a
drug's name field (``generic_name``, ``substance_name``…) and at least one label section
(``indications_and_usage``, ``warnings``, ``dosage_and_administration``…). Each section is
a ``drug_label_text`` template of its section, filled from the drug's class facts in
``tool_specs/reference/drug_classes.json``: what such a drug treats, the risks its label
warns of, how it is dosed, its form and strengths. A name the table does not list takes its
class from its USAN stem (``-statin``, ``-pril``, ``-sartan``) and else a general one. A
brand name drawn as a shop product is the drug's own name, as generic labels carry it.
``drug_facts`` is shared with drug recalls (``recall_notices``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake
from env_server.simulators.notice_compose import Fields, capitalized, compose_whole, template, words_of
from env_server.simulators.reference_tables import reference_table

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

KIND = "drug_label_text"
_LABEL_WORDS = frozenset({"label", "labels", "spl", "labeling", "monograph"})
_NAMES = ("generic_name", "substance_name", "active_ingredient", "drug_name", "nonproprietary_name")
_BRANDS = ("brand_name", "proprietary_name", "product_name")
_SECTIONS = {
    **dict.fromkeys(("indications_and_usage", "indications", "purpose", "uses", "indication"), "indications"),
    **dict.fromkeys(("warnings", "warnings_and_cautions", "warnings_and_precautions", "boxed_warning", "precautions",
                     "warning"), "warnings"),
    **dict.fromkeys(("dosage_and_administration", "dosage", "directions", "dosage_and_use"), "dosage"),
}


@dataclass(frozen=True)
class DrugFacts:
    """What a label says of a drug of this class."""

    name: str
    group: str
    conditions: tuple[str, ...]
    risks: tuple[str, ...]
    dose: str
    form: str
    strengths: tuple[str, ...]

    def slots(self, gen: Generation) -> dict[str, str]:
        rng = gen.rng
        condition = self.conditions[rng.randrange(len(self.conditions))]
        others = [c for c in self.conditions if c != condition] or [condition]
        risk = self.risks[rng.randrange(len(self.risks))]
        risk2 = ([r for r in self.risks if r != risk] or [risk])[0]
        return {"drug": self.name, "Drug": capitalized(self.name), "group": self.group, "condition": condition,
                "condition2": others[rng.randrange(len(others))], "risk": risk, "Risk": capitalized(risk),
                "RISK": risk.upper(), "risk2": risk2, "dose": self.dose, "form": self.form,
                "strength": self.strengths[rng.randrange(len(self.strengths))]}


@functools.cache
def _table() -> dict[str, Any]:
    data: dict[str, Any] = reference_table("drug_classes.json")
    return data


@functools.cache
def known_drugs() -> tuple[str, ...]:
    return tuple(sorted(_table()["drugs"]))


@functools.lru_cache(maxsize=2048)
def drug_facts(name: str) -> DrugFacts:
    """The label facts of the drug ``name`` (any case), by its listed class, its stem, or a general class."""
    table = _table()
    low = name.strip().lower()
    cls = table["drugs"].get(low) or next(
        (c for stem, c in table["stems"] if low.split(" ")[0].endswith(stem) or low.startswith(stem)), table["default"])
    facts = table["classes"][cls]
    return DrugFacts(low, facts["group"], tuple(facts["conditions"]), tuple(facts["risks"]), facts["dose"],
                     facts["form"], tuple(facts["strengths"]))


_SEARCHES = ("search", "q", "query", "term", "drug", "drug_name", "generic_name")


def searched_drug(gen: Generation) -> str | None:
    """The listed drug a search names (``sumatriptan``, ``openfda.generic_name:"sumatriptan"``), or None."""
    for key in _SEARCHES:
        value = gen.snaked_args.get(key)
        if isinstance(value, str):
            wanted = value.rsplit(":", 1)[-1].strip(" \"'").replace("+", " ").lower()
            if wanted in _table()["drugs"]:
                return wanted
    return None


def record_drug(record: dict[str, Any], names: Fields, gen: Generation) -> DrugFacts:
    """The drug the call names (by name or in its search), else the record's, else one drawn;
    written to the record's name fields."""
    sent = next((v for k in map(snake, names.keys) if isinstance(v := gen.snaked_args.get(k), str) and v.strip()),
                None)
    if sent is not None:
        return drug_facts(sent)
    named = names.first_value(record)
    drug = searched_drug(gen)  # a search for a drug finds that drug's labels
    if drug is None and named is not None and named.strip().lower() in _table()["drugs"]:
        return drug_facts(named)
    drug = drug or known_drugs()[gen.rng.randrange(len(known_drugs()))]
    for key in names.keys:
        if key in record:
            record[key] = drug
    return drug_facts(drug)


def label_step(name: str, entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that writes a drug label's sections for its drug, or None for other records."""
    if words_of(name, entity).isdisjoint(_LABEL_WORDS):
        return None
    names = Fields.among(props, _NAMES)
    sections = {k: _SECTIONS[snake(k)] for k in props if snake(k) in _SECTIONS and _is_text(props[k])}
    if not names or not sections:
        return None
    brands = Fields.among(props, _BRANDS)

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        drug = record_drug(record, names, gen)
        for key in brands.keys:
            if key in record and snake(key) not in gen.snaked_args:
                record[key] = drug.name.title()
        slots = drug.slots(gen)
        for key, section in sections.items():
            if key in record:
                text = _section(gen, section, drug, slots)
                record[key] = [text] if isinstance(record[key], list) else text

    return compose_whole(step, sections)


def _section(gen: Generation, section: str, drug: DrugFacts, slots: Mapping[str, str]) -> str:
    """A template of the section, filled; a drug with one indication is not given two."""
    text = template(gen, KIND, ("section",), (section,))
    for _ in range(6):
        if len(drug.conditions) > 1 or "{condition2}" not in text:
            break
        text = template(gen, KIND, ("section",), (section,))
    return text.format_map(slots)


def _is_text(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    if schema.get("type") == "array":
        return _is_text(schema.get("items") or {})
    return schema.get("type", "string") == "string" and "enum" not in schema
