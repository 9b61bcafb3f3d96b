"""An adoptable animal's breed is one of its species: a rabbit is a Holland Lop, not an affenpinscher.

Shelter listings (Petfinder, RescueGroups) give an animal a type ("Dog", "Rabbit", "Scales,
Fins & Other") and a breed named the way shelters write it ("Golden Retriever", "Domestic Short
Hair"). The breed is drawn from the breeds of the record's type (``tool_specs/vocab/pet_breed.json``),
the type the call asks for when it names one (RescueGroups' ``rabbits`` path is Rabbit), or the
breed's type when the call names a breed, and a search that does not filter by status lists
animals still up for adoption. The animal's size is its breed's (a breed of the size asked, when
the call filters by size); a dog or a cat is Male or Female, a name given to one sex is that
sex's (``pet_name``); the listing's description is one written for its species
(``pet_profile``), and its page is ``https://www.petfinder.com/<type>/<name>-<id>/``.

``pet_step(entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from env_server.simulators.naming import snake
from env_server.simulators.pet_kinds import distance_mi
from env_server.simulators.records import default_facts

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_ENTITIES = frozenset({"animal", "pet", "adoptable"})
_TYPES = ("type", "species", "animal_type")
_BREEDS = ("breed_primary", "breedPrimary", "breedString", "breed", "primary_breed", "breed_name")
_TYPE_ARGS = ("type", "species", "animal_type")
_BREED_ARGS = ("breed", "breed_primary", "breed_name")
_SIZES = ("size", "sizeGroup", "size_group")
_SIZE_ARGS = ("size", "size_group")
_SEXES = ("gender", "sex")
_TEXTS = ("description", "descriptionText", "description_text")
# A size as calls and schemas spell it (``xlarge``, ``X-Large``, ``Extra Large``), folded: the breed data's.
_SIZE_WORDS = {"small": "Small", "medium": "Medium", "large": "Large", "xlarge": "Extra Large"}
# How APIs name a species in a path or a filter, to the type a shelter listing shows.
_SPECIES_WORDS = {"dog": "Dog", "dogs": "Dog", "cat": "Cat", "cats": "Cat", "rabbit": "Rabbit", "rabbits": "Rabbit",
                  "horse": "Horse", "horses": "Horse", "bird": "Bird", "birds": "Bird",
                  "reptile": "Scales, Fins & Other", "reptiles": "Scales, Fins & Other",
                  "scales, fins & other": "Scales, Fins & Other", "small-animals": "Small & Furry",
                  "small & furry": "Small & Furry", "barnyard": "Barnyard", "farm": "Barnyard"}


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where one object schema keeps an animal's facts (None: it has no such field)."""

    breed: str
    kind: str | None
    types: tuple[str, ...]
    statuses: tuple[str, ...]
    size: str | None
    sizes: tuple[str, ...]
    sex: str | None
    text: str | None
    url: str | None


def pet_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a shelter animal one of its breed and species, or None."""
    if not set(snake(entity).split("_")) & _ENTITIES:
        return None
    breed_key = next((k for k in _BREEDS if k in props), None)
    if breed_key is None:
        return None
    type_key = next((k for k in _TYPES if k in props), None)
    size_key = next((k for k in _SIZES if k in props), None)
    layout = _Layout(breed_key, type_key, _enum(props, type_key), _enum(props, "status"), size_key,
                     _enum(props, size_key), next((k for k in _SEXES if k in props), None),
                     next((k for k in _TEXTS if (props.get(k) or {}).get("type") == "string"), None),
                     "url" if (props.get("url") or {}).get("type") == "string" else None)
    return lambda record, gen, index: _finish(layout, record, gen)


def _enum(props: Mapping[str, Any], key: str | None) -> tuple[str, ...]:
    return tuple((props.get(key) or {}).get("enum") or ()) if key else ()


def _finish(at: _Layout, record: dict[str, Any], gen: Generation) -> None:
    sent = gen.snaked_args
    species, breed = _species_and_breed(at, record, gen)
    size = _asked_size(sent)
    if at.size is not None and (label := _enum_size(size or breed["size"], at.sizes)) is not None:
        record[at.size] = label
    if at.sex is not None:
        _sex(record, at.sex, species, gen)
    if at.text is not None and isinstance(record.get(at.text), str):
        record[at.text] = _profile(gen, species)
    if at.url is not None and isinstance(record.get(at.url), str):
        record[at.url] = _listing_url(record, species)
    if "adoptable" in at.statuses and "status" in record and "status" not in sent:
        record["status"] = "adoptable"
    if isinstance(record.get("distance"), (int, float)) and "distance" in sent:
        record["distance"] = distance_mi(gen)  # the call's ``distance`` is its radius, not the animal's


def _species_and_breed(at: _Layout, record: dict[str, Any], gen: Generation) -> tuple[str, dict[str, Any]]:
    """The animal's type (asked, the breed's asked, or drawn) and its breed (asked, or one of the
    type's of the size asked), written to the record."""
    sent = gen.snaked_args
    breed, size = _sent_breed(sent), _asked_size(sent)
    species = _asked_species(sent) or (breed["species"] if breed else None) or (
        _shelter_mix(gen, at.types, size) if at.types else "Dog")
    if at.kind is not None and species in at.types:
        record[at.kind] = species
    if breed is None:
        pool = breeds_of(species, size) or breeds_of(species)
        breed = breed_record(pool[gen.rng.randrange(len(pool))], species)
        record[at.breed] = breed["breed"]
    return species, breed


def _sent_breed(sent: Mapping[str, Any], whole: bool = False) -> Any:
    """The breed record of the breed the call filters by (its first, if it names several), or
    (``whole``) the breed text sent."""
    value = next((v for k in _BREED_ARGS if isinstance(v := sent.get(k), str) and v.strip()), None)
    if whole:
        return value
    return _by_name().get(value.split(",")[0].strip().lower()) if value else None


def _asked_size(sent: Mapping[str, Any]) -> str | None:
    value = next((v for k in _SIZE_ARGS if isinstance(v := sent.get(k), str) and v.strip()), None)
    return _SIZE_WORDS.get(_size_word(value.split(",")[0])) if value else None


def _size_word(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower()).replace("extra", "x")


def _enum_size(size: str, enum: tuple[str, ...]) -> str | None:
    """The breed's size as the schema spells it ("Extra Large", "X-Large"); the size when no enum."""
    if not enum:
        return size
    return next((e for e in enum if isinstance(e, str) and _size_word(e) == _size_word(size)), None)


def _sex(record: dict[str, Any], key: str, species: str, gen: Generation) -> None:
    """A shelter knows a dog's or cat's sex (the one asked, or the one its name is given to), and a
    name given to one sex is not the other's."""
    name_key = next((k for k in ("name", "animal_name") if isinstance(record.get(k), str)), None)
    named = _name_sexes().get(str(record.get(name_key)).lower()) if name_key else None
    record[key] = _sex_of(gen, species, named, record.get(key))
    echoed = name_key is not None and _sent_breed(gen.snaked_args) is not None and str(
        record.get(name_key)).lower() == str(_sent_breed(gen.snaked_args, whole=True)).lower()
    if name_key is not None and (echoed or named not in (None, "Any", record[key])):
        names = _names_for(record[key])
        record[name_key] = names[gen.rng.randrange(len(names))]


def _sex_of(gen: Generation, species: str, named: str | None, drawn: Any) -> Any:
    sent = next((v for k in _SEXES if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), None)
    if sent is not None:
        return next((e for e in ("Male", "Female", "Unknown") if e == sent.strip().capitalize()), drawn)
    if named in ("Male", "Female"):
        return named
    if species in ("Dog", "Cat") or gen.rng.random() < 0.8:
        return gen.rng.choice(("Male", "Female"))
    return "Unknown"


def _profile(gen: Generation, species: str) -> str:
    texts = _profiles().get(species) or _profiles()["Dog"]
    return texts[gen.rng.randrange(len(texts))]


def _listing_url(record: Mapping[str, Any], species: str) -> str:
    """The animal's page: ``https://www.petfinder.com/dog/mario-705474/`` on the listing's host."""
    host = urlparse(str(record.get("url"))).netloc or "www.petfinder.com"
    name = re.sub(r"[^a-z0-9]+", "-", str(record.get("name") or "pet").lower()).strip("-") or "pet"
    kind = re.sub(r"[^a-z0-9]+", "-", species.lower()).strip("-")
    return f"https://{host}/{kind}/{name}-{record.get('id')}/"


def _shelter_mix(gen: Generation, types: tuple[str, ...], size: str | None) -> str:
    """A type as shelters hold them: mostly dogs and cats, a few of every other kind (of the size asked)."""
    roll = gen.rng.random()
    if size is not None:
        types = tuple(t for t in types if breeds_of(t, size)) or types
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


@functools.lru_cache(maxsize=64)
def breeds_of(species: str, size: str | None = None) -> tuple[str, ...]:
    """The breeds shelters list under ``species`` (of ``size``; dogs' for a species with none)."""
    records = default_facts().vocab.get("pet_breed").records
    found = tuple(r["breed"] for r in records if r["species"] == species and size in (None, r["size"]))
    return found or (breeds_of("Dog", size) if size is None else ())


def breed_record(breed: str, species: str) -> dict[str, Any]:
    """The record of ``breed`` under ``species`` (a breed name two species share is each's)."""
    found = next((r for r in default_facts().vocab.get("pet_breed").records
                  if r["breed"] == breed and r["species"] == species), None)
    return found or _by_name().get(breed.lower()) or {"breed": breed, "species": species, "size": "Medium"}


@functools.lru_cache(maxsize=1)
def _by_name() -> dict[str, dict[str, Any]]:
    return {r["breed"].lower(): r for r in reversed(default_facts().vocab.get("pet_breed").records)}


@functools.lru_cache(maxsize=1)
def _name_sexes() -> dict[str, str]:
    return {r["name"].lower(): r["sex"] for r in default_facts().vocab.get("pet_name").records}


@functools.lru_cache(maxsize=4)
def _names_for(sex: Any) -> tuple[str, ...]:
    """The names given to animals of ``sex``, and to either."""
    return tuple(r["name"] for r in default_facts().vocab.get("pet_name").records if r["sex"] in (sex, "Any"))


@functools.lru_cache(maxsize=1)
def _profiles() -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {}
    for r in default_facts().vocab.get("pet_profile").records:
        found.setdefault(r["species"], []).append(r["text"])
    return {species: tuple(texts) for species, texts in found.items()}
