"""An adoptable animal's breed is one of its species: a rabbit is a Holland Lop, not an affenpinscher.

Shelter listings (Petfinder, RescueGroups) give an animal a type ("Dog", "Rabbit", "Scales,
Fins & Other") and a breed named the way shelters write it ("Golden Retriever", "Domestic Short
Hair"). The breed is drawn from the breeds of the record's type (``tool_specs/vocab/pet_breed.json``),
the type the call asks for when it names one (RescueGroups' ``rabbits`` path is Rabbit), and a
search that does not filter by status lists animals still up for adoption.

``pet_step(entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake
from env_server.simulators.records import default_facts

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_ENTITIES = frozenset({"animal", "pet", "adoptable"})
_TYPES = ("type", "species", "animal_type")
_BREEDS = ("breed_primary", "breedPrimary", "breedString", "breed", "primary_breed", "breed_name")
_TYPE_ARGS = ("type", "species", "animal_type")
# How APIs name a species in a path or a filter, to the type a shelter listing shows.
_SPECIES_WORDS = {"dog": "Dog", "dogs": "Dog", "cat": "Cat", "cats": "Cat", "rabbit": "Rabbit", "rabbits": "Rabbit",
                  "horse": "Horse", "horses": "Horse", "bird": "Bird", "birds": "Bird",
                  "reptile": "Scales, Fins & Other", "reptiles": "Scales, Fins & Other",
                  "scales, fins & other": "Scales, Fins & Other", "small-animals": "Small & Furry",
                  "small & furry": "Small & Furry", "barnyard": "Barnyard", "farm": "Barnyard"}


def pet_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that gives a shelter animal a breed of its own species, or None."""
    if not set(snake(entity).split("_")) & _ENTITIES:
        return None
    breed_key = next((k for k in _BREEDS if k in props), None)
    if breed_key is None:
        return None
    type_key = next((k for k in _TYPES if k in props), None)
    types = tuple((props.get(type_key) or {}).get("enum") or ()) if type_key else ()
    statuses = tuple((props.get("status") or {}).get("enum") or ())

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        sent = gen.snaked_args
        asked = _asked_species(sent)
        species = asked or (_shelter_mix(gen, types) if types else "Dog")
        if type_key is not None and species in types:
            record[type_key] = species
        if snake(breed_key) not in sent and "breed" not in sent:
            breeds = breeds_of(species)
            record[breed_key] = breeds[gen.rng.randrange(len(breeds))]
        if "adoptable" in statuses and "status" in record and "status" not in sent:
            record["status"] = "adoptable"

    return step


def _shelter_mix(gen: Generation, types: tuple[str, ...]) -> str:
    """A type as shelters hold them: mostly dogs and cats, a few of every other kind."""
    roll = gen.rng.random()
    if roll < 0.5 and "Dog" in types:
        return "Dog"
    if roll < 0.85 and "Cat" in types:
        return "Cat"
    return types[gen.rng.randrange(len(types))]


def _asked_species(sent: Mapping[str, Any]) -> str | None:
    for key in _TYPE_ARGS:
        value = sent.get(key)
        if isinstance(value, str) and value.strip():
            return _species_of(value)
    return None


def _species_of(value: Any) -> str | None:
    return _SPECIES_WORDS.get(value.strip().lower()) if isinstance(value, str) else None


@functools.lru_cache(maxsize=16)
def breeds_of(species: str) -> tuple[str, ...]:
    """The breeds shelters list under ``species`` (dogs' for a species with none)."""
    records = default_facts().vocab.get("pet_breed").records
    found = tuple(r["breed"] for r in records if r["species"] == species)
    return found or breeds_of("Dog")
