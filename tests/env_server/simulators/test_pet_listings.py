"""An adoption listing reads as one animal: its size is its breed's, a dog or a cat has a sex its
name agrees with, its description is about an animal of its species, it lies some way from the
place searched, and it belongs to a shelter with a Petfinder organization id. Dog CEO images are
Stanford Dogs photos in the folder of the breed asked, as many as asked."""

from __future__ import annotations

import re

from env_server import ToolEnvironment
from env_server.simulators.records import default_facts
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

_SIZES = {(r["breed"], r["species"]): r["size"] for r in default_facts().vocab.get("pet_breed").records}
_PROFILES = {r["text"]: r["species"] for r in default_facts().vocab.get("pet_profile").records}
_NAME_SEX = {r["name"]: r["sex"] for r in default_facts().vocab.get("pet_name").records}
_DOG_IMAGE = re.compile(r"^https://images\.dog\.ceo/breeds/([a-z]+(?:-[a-z]+)?)/n02\d{6}_\d+\.jpg$")


def test_every_dog_breed_has_a_size_group_and_setters_are_large():
    dogs = {b: s for (b, species), s in _SIZES.items() if species == "Dog"}
    assert set(dogs.values()) == {"Small", "Medium", "Large", "Extra Large"}
    assert dogs["Irish Setter"] == "Large" and dogs["Bedlington Terrier"] == "Medium"
    assert dogs["Chihuahua"] == "Small" and dogs["Great Dane"] == "Extra Large"


def test_a_searched_animal_is_the_size_of_its_breed(env: ToolEnvironment):
    animals = call(env, "petfinder_search_animals", type="dog", age="senior", location="Portland, Oregon",
                   limit=40)["animals"]
    assert animals and all(a["size"] == _SIZES[(a["breed_primary"], "Dog")] for a in animals), animals


def test_a_size_filter_lists_breeds_of_that_size(env: ToolEnvironment):
    animals = call(env, "petfinder_search_animals", type="dog", size="xlarge", limit=20)["animals"]
    assert animals and all(a["size"] == "Extra Large" == _SIZES[(a["breed_primary"], "Dog")] for a in animals)


def test_a_breed_filter_gives_the_breeds_species_and_no_name_of_the_breed(env: ToolEnvironment):
    animals = call(env, "petfinder_search_animals", breed="Maine Coon")["animals"]
    assert animals and {a["type"] for a in animals} == {"Cat"} and {a["size"] for a in animals} == {"Large"}
    assert all(a["name"] != "Maine Coon" for a in animals), animals


def test_dogs_and_cats_are_male_or_female_as_their_names_are(env: ToolEnvironment):
    for kind in ("dog", "cat"):
        for a in call(env, "petfinder_search_animals", type=kind, limit=40)["animals"]:
            assert a["gender"] in ("Male", "Female"), a
            assert _NAME_SEX.get(a["name"], "Any") in ("Any", a["gender"]), a


def test_animals_of_a_location_search_lie_at_some_distance_nearest_first(env: ToolEnvironment):
    animals = call(env, "petfinder_search_animals", type="dog", location="Portland, Oregon", sort="distance",
                   distance=30)["animals"]
    distances = [a["distance"] for a in animals]
    assert len(set(distances)) > 1 and all(0.5 <= d <= 30 for d in distances), distances
    assert distances == sorted(distances)


def test_a_listing_describes_an_animal_of_its_species_on_its_own_page(env: ToolEnvironment):
    for kind in ("dog", "cat", "rabbit"):
        first = call(env, "petfinder_search_animals", type=kind)["animals"][0]
        listing = call(env, "petfinder_get_animal", id=first["id"])
        assert _PROFILES.get(listing["description"]) == listing["type"], listing
        assert re.fullmatch(r"[A-Z]{2}\d{2,3}", listing["organization_id"]), listing
        slug = re.sub(r"[^a-z0-9]+", "-", listing["name"].lower()).strip("-")
        assert listing["url"] == f"https://www.petfinder.com/{kind}/{slug}-{listing['id']}/"


def test_shelters_near_a_place_have_ids_of_its_state_and_lie_apart(env: ToolEnvironment):
    orgs = call(env, "petfinder_search_organizations", location="Portland, OR")["organizations"]
    assert orgs and all(re.fullmatch(r"OR\d{2,3}", o["id"]) and o["state"] == "OR" for o in orgs), orgs
    assert all(o["distance"] > 0 for o in orgs) and "Organization" not in " ".join(o["name"] for o in orgs)


def test_breed_images_are_photos_in_the_breeds_folder_as_many_as_asked(env: ToolEnvironment):
    urls = call(env, "dog_ceo_get_breed_images", breed="bedlington terrier")["message"]
    assert len(urls) == 3 and len(set(urls)) == 3
    assert {m[1] for u in urls if (m := _DOG_IMAGE.match(u))} == {"terrier-bedlington"}, urls
    urls = call(env, "dog_ceo_get_breed_images", breed="hound", sub_breed="afghan", count=5)["message"]
    assert len(urls) == 5 and all((m := _DOG_IMAGE.match(u)) and m[1] == "hound-afghan" for u in urls), urls


def test_a_master_breeds_images_come_from_its_sub_breeds(env: ToolEnvironment):
    urls = call(env, "dog_ceo_get_breed_images", breed="hound", count=12)["message"]
    folders = {m[1] for u in urls if (m := _DOG_IMAGE.match(u))}
    assert len(urls) == 12 and len(folders) > 1 and all(f.startswith("hound-") for f in folders), urls


def test_random_images_are_dog_ceo_photos_as_many_as_asked(env: ToolEnvironment):
    urls = call(env, "dog_ceo_get_random_images", count=7)["message"]
    assert len(urls) == 7 and all(_DOG_IMAGE.match(u) for u in urls), urls
    assert len(call(env, "dog_ceo_get_random_images")["message"]) == 1
