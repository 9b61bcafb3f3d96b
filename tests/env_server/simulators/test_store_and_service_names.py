"""Names a real service of its kind would show: a game server's webstore sells ranks, crate keys
and kits (not repositories), a parking search lists car parks, a block was mined by a mining
pool and a title streams on a streaming service (not invented firms like "Wells Ltd")."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.simulators.records import default_facts
from state import Database

_URLS = {"complete_url": "https://play.example.net/thanks", "cancel_url": "https://play.example.net/store"}


def _call(catalog: Catalog, tool: str, args: dict[str, Any], seed: int) -> Any:
    env = ToolEnvironment(catalog, Database(), ServerSettings())
    env.create_session(tools=[tool], session_id="s", seed=seed, today=dt.date(2026, 12, 7))
    outcome = env.call_tool("s", tool, args)
    assert not outcome.is_error, outcome.message
    return outcome.result


def _records(kind: str) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in default_facts().vocab.get(kind).records}


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_a_tebex_package_is_a_game_store_item_in_its_category(builtin_catalog: Catalog, seed: int):
    packages = _records("game_store_package")
    listed = _call(builtin_catalog, "tebex_list_packages", {"token": "t"}, seed)["data"]
    assert listed
    for row in listed:
        package = packages[row["name"]]
        assert row.get("category_name", package["category"]) == package["category"]
        assert row.get("type", package["type"]) == package["type"]


@pytest.mark.parametrize(("tool", "args"), [
    ("tebex_create_basket", {"token": "t", **_URLS}),
    ("tebex_get_basket", {"token": "t", "ident": "bask_1"}),
    ("tebex_add_package_to_basket", {"ident": "bask_1", "package_id": 7}),
])
def test_a_tebex_basket_line_names_a_game_store_package(builtin_catalog: Catalog, tool: str, args: dict[str, Any]):
    packages = _records("game_store_package")
    lines = [line for seed in (1, 2, 3) for line in _call(builtin_catalog, tool, args, seed).get("packages", [])]
    assert lines and all(line["name"] in packages for line in lines)


def test_game_store_packages_cover_the_usual_store_categories():
    categories = {r["category"] for r in _records("game_store_package").values()}
    assert {"Ranks", "Currency", "Crates", "Kits", "Unbans"} <= categories
    assert len(_records("game_store_package")) >= 300


@pytest.mark.parametrize("seed", (1, 2))
def test_a_parkwhiz_quote_and_booking_name_a_car_park(builtin_catalog: Catalog, seed: int):
    car_parks = set(default_facts().vocab.get("parking_location").values)
    quotes = _call(builtin_catalog, "parkwhiz_search_parking_quotes", {
        "latitude": 40.75, "longitude": -73.99, "start_time": "2026-12-10T10:00:00",
        "end_time": "2026-12-10T14:00:00"}, seed)["quotes"]
    bookings = _call(builtin_catalog, "parkwhiz_list_bookings", {}, seed)["bookings"]
    names = [row["location_name"] for row in quotes + bookings if "location_name" in row]
    assert names and set(names) <= car_parks


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_a_mempool_block_was_mined_by_a_real_mining_pool(builtin_catalog: Catalog, seed: int):
    pools = set(default_facts().vocab.get("mining_pool").values)
    assert {"Foundry USA", "AntPool", "F2Pool", "ViaBTC"} <= pools
    blocks = _call(builtin_catalog, "mempool_list_recent_blocks", {}, seed)["blocks"]
    names = [b["pool_name"] for b in blocks if "pool_name" in b]
    assert names and set(names) <= pools


def test_watchmode_sources_are_streaming_services_of_their_type(builtin_catalog: Catalog):
    services = _records("streaming_service")
    sources = _call(builtin_catalog, "watchmode_list_sources", {}, 1)["sources"]
    assert [s["name"] for s in sources][:3] == ["Netflix", "Hulu", "Max"]  # the whole list, in its order
    assert all(s["type"] == services[s["name"]]["type"] for s in sources)
    free = _call(builtin_catalog, "watchmode_list_sources", {"types": "free"}, 1)["sources"]
    assert free and all(services[s["name"]]["type"] == "free" for s in free)


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_a_title_streams_on_a_streaming_service_with_its_offer(builtin_catalog: Catalog, seed: int):
    services = _records("streaming_service")
    offers = _call(builtin_catalog, "watchmode_get_title_sources", {"title_id": 3173903}, seed)["sources"]
    assert offers and all(o["type"] == services[o["name"]]["offer"] for o in offers)
    releases = _call(builtin_catalog, "watchmode_list_releases", {}, seed)["releases"]
    assert releases and all(r["source_name"] in services for r in releases if "source_name" in r)
