"""Studio Ghibli's films and places are the films' own: real titles and crews, places from the
films with the API's climate and terrain words, linked to their film by its API id."""

from __future__ import annotations

import datetime as dt
import json
from importlib import resources

from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database

_CLIMATES = {"Continental", "Wet", "Mild", "Dry"}
_TERRAINS = {"Hill", "Mountain", "Forest", "City", "Plain", "Ocean", "River", "Marsh"}


def _records(kind: str) -> list[dict]:
    return json.loads(resources.files("tool_specs").joinpath(f"vocab/{kind}.json").read_text())["records"]


def test_ghibli_locations_are_places_of_the_films_linked_by_film_id():
    films = {f"https://ghibliapi.vercel.app/films/{f['id']}" for f in _records("ghibli_film")}
    places = {p["name"] for p in _records("ghibli_location")}
    env = ToolEnvironment(load_catalog(), Database(), ServerSettings())
    for seed in range(3):
        env.create_session(tools=["studio_ghibli_list_locations"], session_id=f"s{seed}", seed=seed,
                           today=dt.date(2026, 12, 7))
        rows = env.call_tool(f"s{seed}", "studio_ghibli_list_locations", {}).result["locations"]
        assert rows
        for row in rows:
            assert row["name"] in places
            assert (row["climate"] in _CLIMATES, row["terrain"] in _TERRAINS) == (True, True)
            assert set(row["films"]) <= films


def test_ghibli_films_keep_their_own_director_year_and_romanised_title():
    facts = {f["title"]: f for f in _records("ghibli_film")}
    env = ToolEnvironment(load_catalog(), Database(), ServerSettings())
    tools = ["studio_ghibli_list_films", "studio_ghibli_get_film"]
    env.create_session(tools=tools, session_id="s", seed=5, today=dt.date(2026, 12, 7))
    rows = env.call_tool("s", tools[0], {}).result["films"]
    for row in rows:
        fact = facts[row["title"]]
        assert (row["director"], row["release_date"], row["running_time"]) == (
            fact["director"], fact["release_date"], fact["running_time"])
    film = env.call_tool("s", tools[1], {"film_id": rows[0]["id"]}).result
    assert film["original_title_romanised"] == facts[film["title"]]["original_title_romanised"]
    assert film["producer"] == facts[film["title"]]["producer"]
