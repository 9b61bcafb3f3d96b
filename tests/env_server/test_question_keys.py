"""Answers agree with the question's keys, and ids chain: filters named a little differently
from their field, reads keyed by more than an id, ids by type and slug, children that
inherit their parent, nested entities that open, base-world rows named before any list,
and lookups by a name only a sibling vocabulary knows."""

from __future__ import annotations

import pytest
from mcp import Client

from env_server.catalog import Catalog
from env_server.simulators.answers import answer_rows
from env_server.simulators.arg_fields import field_for_arg, named_like
from env_server.specs.audit_keys import emitted_id_hits, keyed_read_hits
from env_server.specs.audit_lists import question_hits
from tests.env_server.free_play import ok, session
from tests.servers import running_server

# -- filters named unlike their field ------------------------------------------------------


def test_a_qualified_filter_names_its_field():
    fields = {"award_year": "award_year", "category": "category", "currency": "currency", "known_name": "known_name"}
    assert field_for_arg("nobel_prize_category", fields) == "category"
    assert field_for_arg("nobel_prize_year", fields) == "award_year"
    assert field_for_arg("price_currency", fields) == "currency"
    assert field_for_arg("name", fields) == "known_name"
    assert field_for_arg("postal_code", {"code": "code"}) is None  # "code" is no attribute every row carries
    assert named_like("Rhonda Martin", "curie") == "Rhonda Curie"


def test_numeric_caps_are_amounts_not_window_bounds():
    props = {"title": {"type": "string"}, "price": {"type": "number", "minimum": 0, "maximum": 5000}}
    rows = [{"title": "Lens", "price": 246.8}, {"title": "Cap", "price": 12.0}]
    answer_rows(rows, {"price_max": 150}, {"properties": props})
    assert all(r["price"] <= 150 for r in rows)


def test_nobel_prizes_answer_the_category_and_year_asked(builtin_catalog: Catalog):
    env = session(builtin_catalog, "nobelprize_list_prizes")
    args = {"nobel_prize_category": "che", "nobel_prize_year": 2019, "limit": 3}
    out = ok(env, "nobelprize_list_prizes", **args)
    assert out["nobel_prizes"] and all(p["category"] == "che" and p["award_year"] == 2019
                                       for p in out["nobel_prizes"])
    assert question_hits(builtin_catalog.tools["nobelprize_list_prizes"], args, out) == []


def test_a_laureate_search_by_name_finds_that_name(builtin_catalog: Catalog):
    env = session(builtin_catalog, "nobelprize_search_laureates")
    out = ok(env, "nobelprize_search_laureates", name="Curie", limit=3)
    assert out["laureates"] and all("Curie" in row["known_name"] for row in out["laureates"])


def test_ebay_listings_are_in_the_currency_asked_or_the_default_and_under_the_cap(builtin_catalog: Catalog):
    env = session(builtin_catalog, "ebaybrowse_search_items")
    plain = ok(env, "ebaybrowse_search_items", q="camera lens", price_max=150)["itemSummaries"]
    euro = ok(env, "ebaybrowse_search_items", q="camera lens", price_max=150, priceCurrency="EUR")["itemSummaries"]
    assert plain and {r["currency"] for r in plain} == {"USD"} and all(r["price"] <= 150 for r in plain)
    assert euro and {r["currency"] for r in euro} == {"EUR"}


# -- reads keyed by more than an id ---------------------------------------------------------


def test_season_averages_are_keyed_by_season(builtin_catalog: Catalog):
    env = session(builtin_catalog, "balldontlie_get_season_averages")
    a = ok(env, "balldontlie_get_season_averages", season=2024, player_id=5)
    b = ok(env, "balldontlie_get_season_averages", season=2025, player_id=5)
    again = ok(env, "balldontlie_get_season_averages", season=2024, player_id=5)
    assert (a["season"], b["season"]) == (2024, 2025)
    assert a != {**b, "season": 2024} and again == a
    spec = builtin_catalog.tools["balldontlie_get_season_averages"]
    assert keyed_read_hits(spec, {"season": 2025, "player_id": 5}, a) == [
        ("$.season", "season=2024 answers a call for season=2025")]


def test_the_prize_of_a_category_is_that_category_and_its_laureates_open(builtin_catalog: Catalog):
    env = session(builtin_catalog, "nobelprize_get_prize")
    che = ok(env, "nobelprize_get_prize", category="che", year=2019)
    phy = ok(env, "nobelprize_get_prize", category="phy", year=2019)
    assert che["category"] == "che" and phy["category"] == "phy" and che["laureates"] != phy["laureates"]
    first = che["laureates"][0]
    laureate = ok(env, "nobelprize_get_laureate", laureate_id=first["id"])
    assert laureate["id"] == first["id"] and laureate["known_name"] == first["known_name"]


# -- ids chain by type and slug -------------------------------------------------------------


@pytest.mark.anyio
async def test_a_rawg_game_opens_by_the_integer_id_its_search_shows_and_by_slug(builtin_catalog: Catalog):
    env = session(builtin_catalog, "rawg_search_games", sid="rawg")
    with running_server(env) as base:
        async with Client(f"{base}/sessions/rawg/mcp") as client:
            found = await client.call_tool("rawg_search_games", {"search": "zelda", "page_size": 2})
            game = found.structured_content["results"][0]
            by_id = await client.call_tool("rawg_get_game", {"id": game["id"]})
            by_slug = await client.call_tool("rawg_get_game", {"id": game["slug"]})
            shots = await client.call_tool("rawg_list_game_screenshots", {"game_pk": game["id"]})
    assert isinstance(game["id"], int)
    assert not by_id.is_error and not by_slug.is_error and not shots.is_error
    assert by_id.structured_content == by_slug.structured_content
    assert by_id.structured_content["id"] == game["id"] and by_id.structured_content["name"] == game["name"]


def test_the_audit_flags_an_id_its_reader_refuses_by_type(builtin_catalog: Catalog):
    reader = builtin_catalog.tools["rawg_get_game"]
    stringly = reader.model_copy(update={"input_schema": {
        "type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}})
    assert emitted_id_hits("$.results[0].id", 42, stringly)
    assert emitted_id_hits("$.results[0].id", 42, reader) == []
    assert emitted_id_hits("$.results[0].name", "x", stringly) == []  # not the id the reader takes


# -- children and base worlds ---------------------------------------------------------------


def test_a_pipeline_shows_its_project_and_its_workflows_its_number(builtin_catalog: Catalog):
    env = session(builtin_catalog, "circleci_list_pipelines")
    rocket = ok(env, "circleci_list_pipelines", project_slug="gh/acme/rocket")["items"]
    other = ok(env, "circleci_list_pipelines", project_slug="gh/acme/other")["items"]
    assert {p["id"] for p in rocket}.isdisjoint(p["id"] for p in other)
    pipeline = ok(env, "circleci_get_pipeline", pipeline_id=rocket[0]["id"])
    assert pipeline["project_slug"] == "gh/acme/rocket" and pipeline["number"] == rocket[0]["number"]
    flows = ok(env, "circleci_list_pipeline_workflows", pipeline_id=rocket[0]["id"])["items"]
    assert flows and {w["pipeline_number"] for w in flows} == {rocket[0]["number"]}


def test_a_base_world_channel_takes_messages_before_any_list(builtin_catalog: Catalog):
    listed = ok(session(builtin_catalog, "discord_list_guild_channels"), "discord_list_guild_channels",
                guild_id="81384788765712384")["channels"]
    fresh = session(builtin_catalog, "discord_create_message")
    posted = ok(fresh, "discord_create_message", channel_id=listed[0]["id"], content="hello")
    assert posted["channel_id"] == listed[0]["id"]
    shown = ok(fresh, "discord_list_channel_messages", channel_id=listed[0]["id"], limit=5)["messages"]
    assert posted["id"] in {m["id"] for m in shown}


# -- lookups by name ------------------------------------------------------------------------


def test_a_species_lookup_answers_for_that_species(builtin_catalog: Catalog):
    env = session(builtin_catalog, "iucn_red_list_get_species")
    tern = ok(env, "iucn_red_list_get_species", name="Sterna hirundo")
    assert (tern["main_common_name"], tern["family"], tern["class"], tern["kingdom"]) == (
        "Common Tern", "Laridae", "AVES", "ANIMALIA")
