"""A phone number belongs to its record's place: a city's numbers carry the area code that
serves it, and a lookup names the place a number's range serves (``phone_places``)."""

from __future__ import annotations

import phonenumbers
import pytest

from env_server import ToolEnvironment
from env_server.simulators.phone_places import city_key, local_numbers, place_of
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)


@pytest.mark.parametrize(("region", "city"), [
    ("US", "Chicago"), ("BR", "Brasília"), ("BR", "São Paulo"), ("DE", "Berlin"), ("GB", "London"),
    ("JP", "Tokyo"), ("IN", "Mumbai"), ("AU", "Sydney"), ("CA", "Toronto"), ("CN", "Xi'an")])
def test_a_citys_numbers_are_valid_and_served_by_that_city(region: str, city: str):
    numbers = local_numbers(region, ((city, ""),))
    assert len(numbers) >= 8
    for e164 in numbers:
        number = phonenumbers.parse(e164)
        assert phonenumbers.is_valid_number_for_region(number, region), e164
        assert city_key(place_of(number) or "") == city_key(city), e164


def test_a_city_the_geocoder_lacks_takes_its_neighbours_numbers_or_none():
    assert local_numbers("US", (("Nowhere Flats", ""), ("Chicago", "Illinois")))[0].startswith(("+1312", "+1773", "+1872"))
    assert local_numbers("US", (("Nowhere Flats", ""),)) == ()


def test_a_german_city_number_is_as_long_as_a_real_one():
    assert all(len(n) >= 11 for n in local_numbers("DE", (("Berlin", ""),)))  # +49 30 and 6 digits or more


def test_a_number_search_in_a_country_lists_numbers_of_the_locality_it_names(env: ToolEnvironment):
    rows = call(env, "telnyx_search_available_numbers", country_code="BR")["data"]
    for row in rows:
        place = place_of(phonenumbers.parse(row["phone_number"]))
        assert city_key(place or "") == city_key(row["locality"]), row


def test_a_lookup_names_the_city_the_numbers_area_code_serves(env: ToolEnvironment):
    assert place_of(phonenumbers.parse("+12164866954")) == "Cleveland"
    assert place_of(phonenumbers.parse("+13125550000")) == "Chicago"


def test_a_city_named_like_one_in_another_state_takes_its_own_states_area_codes():
    tennessee = local_numbers("US", (("Maryville", "Tennessee"),))
    assert tennessee and all(n.startswith("+1865") for n in tennessee)
    assert all(n.startswith("+1660") for n in local_numbers("US", (("Maryville", "Missouri"),)))
