"""Recalls and complaints whose texts agree with what was recalled: a vehicle's component,
a drug product.

* A vehicle recall or owner complaint (entity says recall, campaign or complaint, and the
  record has a ``component`` field) writes its summary, consequence and remedy from the
  ``vehicle_recall_text`` templates of the component's vehicle system (the heading before
  the first colon, read through ``tool_specs/reference/recall_systems.json``), naming the
  vehicle the call asked about: "Acura is recalling certain 2019 RDX vehicles. The master
  cylinder may leak brake fluid…". A complaint's summary is an owner's account.
* A drug recall (entity says drug and recall or enforcement, with a ``reason_for_recall``)
  names a drug product in its description (``Atorvastatin Tablets, 20 mg``) and gives a
  reason for recalling it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.drug_labels import DrugFacts, drug_facts, known_drugs, searched_drug
from env_server.simulators.naming import snake
from env_server.simulators.notice_compose import Fields, capitalized, compose, compose_whole, titled, words_of
from env_server.simulators.reference_tables import reference_table

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

VEHICLE_KIND, DRUG_KIND = "vehicle_recall_text", "drug_label_text"
_RECALL_WORDS = frozenset({"recall", "recalls", "campaign", "campaigns", "enforcement"})
_COMPLAINT_WORDS = frozenset({"complaint", "complaints"})
_COMPONENTS = ("component", "components")
_PARTS = {
    **dict.fromkeys(("summary", "description", "defect_summary", "defect", "details"), "summary"),
    **dict.fromkeys(("consequence", "consequence_summary", "consequences", "risk"), "consequence"),
    **dict.fromkeys(("remedy", "corrective_action", "remedy_summary", "notes"), "remedy"),
}
_MAKES, _MODELS, _YEARS = ("make", "manufacturer", "make_name"), ("model", "model_name"), ("model_year", "year")
_REASONS = ("reason_for_recall", "reason", "recall_reason")
_PRODUCTS = ("product_description", "product", "product_name")


@functools.cache
def _systems() -> dict[str, Any]:
    data: dict[str, Any] = reference_table("recall_systems.json")
    return data


@functools.lru_cache(maxsize=512)
def component_system(component: str) -> tuple[str, str]:
    """The vehicle system of an NHTSA component and the part it names, as words:
    ``SERVICE BRAKES, HYDRAULIC:MASTER CYLINDER`` -> (``brakes``, ``master cylinder``);
    ``ENGINE:DIESEL`` names no part, so the system's own (``engine``)."""
    heads = [h.strip().upper() for h in component.split(":")]
    table = _systems()
    system = table["systems"].get(heads[0], table["default"])
    vague = frozenset(table["vague"])
    named = next((h for h in reversed(heads[1:]) if h not in vague), None)
    if named is None:
        return system, table["defaults"][system]
    return system, table["parts"].get(named, named.lower())


def recall_step(name: str, entity: str, props: Mapping[str, Any]) -> Step | None:
    """A vehicle recall's or complaint's step, a drug recall's, or None."""
    words = words_of(name, entity)
    if not words.isdisjoint(_RECALL_WORDS | _COMPLAINT_WORDS) and Fields.among(props, _COMPONENTS):
        return _vehicle_step(props, complaint=not words.isdisjoint(_COMPLAINT_WORDS))
    if "drug" in words and not words.isdisjoint(_RECALL_WORDS):
        return _drug_recall_step(props)
    return None


def _vehicle_step(props: Mapping[str, Any], complaint: bool) -> Step | None:
    parts = {k: ("complaint" if complaint else _PARTS[snake(k)]) for k in props
             if snake(k) in _PARTS and Fields.among(props, (snake(k),))}
    if complaint:
        parts = {k: p for k, p in parts.items() if _PARTS[snake(k)] == "summary"}
    if not parts:
        return None
    components = Fields.among(props, _COMPONENTS)
    makes, models, years = (Fields.among(props, n, text_only=False) for n in (_MAKES, _MODELS, _YEARS))

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        component = components.first_value(record) or "EQUIPMENT"
        system, part = component_system(component)
        args = gen.snaked_args
        make = makes.first_value(record) or _sent(args, _MAKES) or gen.car()[0]
        model = _sent(args, _MODELS) or models.first_value(record) or gen.car()[1]
        year = _sent(args, _YEARS) or next((record[k] for k in years.keys if record.get(k)), None) or \
            gen.today.year - 1 - gen.rng.randrange(6)
        slots = {"make": titled(str(make)), "model": titled(str(model)), "year": year, "part": part}
        for key, which in parts.items():
            if key in record:
                record[key] = capitalized(compose(gen, VEHICLE_KIND, ("part", "system"), (which, system), slots))

    return compose_whole(step, parts)


def _sent(args: Mapping[str, Any], names: tuple[str, ...]) -> Any:
    return next((v for n in names if (v := args.get(n)) not in (None, "")), None)


def _drug_recall_step(props: Mapping[str, Any]) -> Step | None:
    reasons, products = Fields.among(props, _REASONS), Fields.among(props, _PRODUCTS)
    if not reasons:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        drug = drug_facts(searched_drug(gen) or known_drugs()[gen.rng.randrange(len(known_drugs()))])
        slots = drug.slots(gen)
        for key in products.keys:
            if key in record:
                record[key] = product_line(drug, slots["strength"], gen)
        for key in reasons.keys:
            if key in record:
                record[key] = compose(gen, DRUG_KIND, ("section",), ("recall",), slots)

    return compose_whole(step, reasons, products)


def product_line(drug: DrugFacts, strength: str, gen: Generation) -> str:
    """A recalled drug product as an enforcement report describes it."""
    count = gen.rng.choice((30, 60, 90, 100, 500, 1000))
    form = drug.form.title()
    pack = "single-dose vial" if drug.form == "injection" else f"{count}-count bottle"
    return f"{drug.name.title()} {form}, {strength}, {pack}, Rx only"
