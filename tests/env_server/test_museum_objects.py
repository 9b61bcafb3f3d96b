"""A museum object's department, medium, culture and date agree, and a search finds objects about its term."""

from __future__ import annotations

import datetime as dt
import re

from env_server.catalog import Catalog
from env_server.simulators.artwork_facts import PUBLIC_DOMAIN_BEFORE, date_text
from env_server.simulators.records import default_facts
from tests.env_server.free_play import catalog, ok, session  # noqa: F401  (fixtures)

_HOLDINGS = {r["department"]: r for r in default_facts().vocab.get("museum_collection").records}


def _year(text: str) -> int:
    number = int(re.search(r"\d+", text).group())  # type: ignore[union-attr]
    return -number if "B.C." in text else number


def test_a_met_object_s_medium_culture_and_date_belong_to_its_department(catalog: Catalog):
    env = session(catalog, "met_museum_get_object")
    terms = ("river", "armor", "vase", "portrait", "quilt", "temple", "horse", "flowers", "boat", "mask")
    found = [i for t in terms for i in ok(env, "met_museum_search_objects", q=t)["objectIDs"]]
    assert len(found) >= 10
    for object_id in found:
        obj = ok(env, "met_museum_get_object", objectID=object_id)
        held = _HOLDINGS[obj["department"]]
        assert obj["medium"] in held["media"] and obj["culture"] in held["cultures"], obj
        year = _year(obj["objectDate"])
        assert held["earliest"] <= year <= max(held["latest"], dt.date.today().year), obj
        assert obj["isPublicDomain"] == (year < PUBLIC_DOMAIN_BEFORE), obj


def test_objects_a_met_search_finds_are_titled_after_the_term(catalog: Catalog):
    env = session(catalog, "met_museum_search_objects")
    ids = ok(env, "met_museum_search_objects", q="sunflowers")["objectIDs"]
    assert ids
    for object_id in ids:
        assert "sunflowers" in ok(env, "met_museum_get_object", objectID=object_id)["title"].lower()


def test_museum_dates_read_as_a_museum_writes_them():
    assert (date_text(1887), date_text(-1450), date_text(150)) == ("1887", "ca. 1450 B.C.", "ca. A.D. 150")


def test_a_met_object_is_titled_as_its_department_titles_its_objects(catalog: Catalog):
    env = session(catalog, "met_museum_get_object")
    listed = ok(env, "met_museum_list_objects")["objectIDs"]
    searched = [i for t in ("horse", "moon", "sunflowers") for i in ok(env, "met_museum_search_objects", q=t)["objectIDs"]]
    for object_id in listed + searched:
        obj = ok(env, "met_museum_get_object", objectID=object_id)
        held = _HOLDINGS[obj["department"]]
        frames = [re.escape(f).replace(re.escape("{term}"), ".+") for f in held["term_titles"]]
        assert obj["title"] in held["titles"] or any(re.fullmatch(f, obj["title"]) for f in frames), obj
