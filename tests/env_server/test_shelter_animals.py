"""A shelter animal's breed belongs to its species, and an adoption search lists adoptable animals."""

from __future__ import annotations

import pytest

from env_server import ToolEnvironment
from env_server.simulators.pet_facts import breeds_of
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)


@pytest.mark.parametrize("kind", ["Rabbit", "Horse", "Bird", "Cat", "Barnyard", "Small & Furry"])
def test_a_petfinder_search_by_type_answers_breeds_of_that_type(env: ToolEnvironment, kind: str):
    animals = call(env, "petfinder_search_animals", type=kind)["animals"]
    assert animals and all(a["type"] == kind and a["breed_primary"] in breeds_of(kind) for a in animals), animals


def test_every_animal_of_an_unfiltered_search_has_a_breed_of_its_own_type(env: ToolEnvironment):
    for size in ("small", "medium", "large", "xlarge"):
        for animal in call(env, "petfinder_search_animals", size=size, limit=20)["animals"]:
            assert animal["breed_primary"] in breeds_of(animal["type"]), animal


def test_a_search_that_does_not_filter_by_status_lists_adoptable_animals(env: ToolEnvironment):
    animals = call(env, "petfinder_search_animals", type="Dog")["animals"]
    assert {a["status"] for a in animals} == {"adoptable"}


def test_a_rescuegroups_species_path_gives_that_species_breeds(env: ToolEnvironment):
    rows = call(env, "rescuegroups_search_available_animals", species="rabbits", postalcode="10001")["data"]
    assert rows and all(r["breedString"] in breeds_of("Rabbit") for r in rows)


def test_a_dog_breed_is_no_rabbit_breed():
    assert "Holland Lop" in breeds_of("Rabbit") and "Holland Lop" not in breeds_of("Dog")
    assert "Affenpinscher" in breeds_of("Dog") and "Affenpinscher" not in breeds_of("Rabbit")
