"""Social accounts are the record's own (a handle made from its name), and comic characters and
issues read as comics: invented hero and villain names with descriptions that fit, titles of
the form "<series> (<year>) #<issue>"."""

from __future__ import annotations

import re

from env_server.catalog import Catalog
from env_server.simulators.records import default_facts
from env_server.simulators.social_links import handle_of
from tests.env_server.free_play import catalog, ok, session  # noqa: F401  (a fixture)

_ISSUE = re.compile(r"^(.+) \((\d{4})\) #(\d+)$")


def test_an_artists_twitter_url_is_made_from_the_artists_name(catalog: Catalog):
    artists = ok(session(catalog, "musixmatch_get_chart_artists"), "musixmatch_get_chart_artists",
                 page_size=5)["artist_list"]
    assert artists
    for artist in artists:
        assert artist["artist_twitter_url"] == f"https://twitter.com/{handle_of(artist['artist_name'])}"


def test_a_handle_keeps_a_names_letters_and_drops_honours():
    assert handle_of("Crimson Atlas") == "crimsonatlas"
    assert handle_of("Rt Hon Sir Jöhn Smith KC MP") == "johnsmith"
    assert len(handle_of("The Extraordinarily Long Band Name Collective")) <= 15


def test_a_marvel_character_is_an_invented_hero_whose_description_fits(catalog: Catalog):
    entries = {r["name"]: r["description"] for r in default_facts().vocab.get("comic_character").records}
    assert len(entries) >= 200
    results = ok(session(catalog, "marvel_search_characters"), "marvel_search_characters", limit=5)["results"]
    assert results
    for character in results:
        assert character["name"] in entries
        assert character["description"] == entries[character["name"]]


def test_a_comic_is_titled_as_an_issue_of_its_series(catalog: Catalog):
    comics = ok(session(catalog, "marvel_search_comics"), "marvel_search_comics", limit=4,
                titleStartsWith="Night", issueNumber=14, startYear=2019)["results"]
    assert comics
    for comic in comics:
        match = _ISSUE.match(comic["title"])
        assert match, comic["title"]
        assert match.group(1).startswith("Night") and match.group(2) == "2019" and match.group(3) == "14"
        assert comic["issueNumber"] == 14
        assert comic["series_name"].startswith(f"{match.group(1)} (2019 - ")


def test_a_characters_comics_read_as_issues(catalog: Catalog):
    comics = ok(session(catalog, "marvel_list_character_comics"), "marvel_list_character_comics",
                character_id=1009610, limit=4)["results"]
    assert comics
    for comic in comics:
        match = _ISSUE.match(comic["title"])
        assert match and int(match.group(3)) == comic["issueNumber"], comic["title"]
        assert int(match.group(2)) <= int(comic["onsaleDate"][:4])
