"""MCP tool annotations: derived from each spec's operation, and on the wire of every listing."""

from __future__ import annotations

import pytest
from mcp import Client

from env_server.annotations import tool_annotations
from env_server.catalog.models import Operation, SourceFormat
from env_server.orchestrator.channel import TALK_TOOL
from env_server.search import SEARCH_TOOL
from env_server.server import build_server


def hints(spec) -> tuple[bool | None, bool | None, bool | None, bool | None]:
    a = tool_annotations(spec)
    return a.read_only_hint, a.destructive_hint, a.idempotent_hint, a.open_world_hint


@pytest.mark.parametrize(
    ("name", "operation", "expected"),
    [
        # (readOnly, destructive, idempotent, openWorld)
        ("aqicn_get_city_aqi", Operation.READ, (True, False, True, False)),
        ("aqicn_search_stations", Operation.SEARCH, (True, False, True, False)),
        ("pinterest_list_boards", Operation.LIST, (True, False, True, False)),
        ("cloudflare_create_dns_record", Operation.CREATE, (False, False, False, False)),
        ("cloudflare_update_dns_record", Operation.UPDATE, (False, False, True, False)),
        ("netlify_delete_site", Operation.DELETE, (False, True, True, False)),
        ("uber_cancel_ride", Operation.DELETE, (False, True, True, False)),
        ("zohobooks_void_invoice", Operation.UPDATE, (False, True, True, False)),  # a cancel modelled as update
        ("clockify_stop_timer", Operation.ACTION, (False, True, False, False)),  # a cancel modelled as action
        ("stytch_send_sms_otp", Operation.ACTION, (False, False, False, False)),
    ],
)
def test_hints_follow_the_operation_and_cancel_verbs(builtin_catalog, name, operation, expected):
    spec = builtin_catalog.tools[name]
    assert spec.profile.operation is operation  # the catalog still models it this way
    assert hints(spec) == expected


def test_meta_tools_are_annotated_too():
    assert hints(SEARCH_TOOL) == (True, False, True, False)
    assert tool_annotations(SEARCH_TOOL).title == "Search tools"
    assert hints(TALK_TOOL) == (False, False, False, False)
    assert tool_annotations(TALK_TOOL).title == "Talk to user"


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("aqicn_get_city_aqi", "AQICN: Get city AQI"),  # the description's capitals
        ("openmeteo_get_air_quality", "Open-Meteo: Get air quality"),
        ("last_fm_search_tracks", "Last.fm: Search tracks"),  # a provider spelled over two words
        ("met_museum_get_object", "Metropolitan Museum of Art: Get object"),
        ("nyt_search_articles", "New York Times APIs: Search articles"),  # its initials
        ("cloudflare_create_dns_record", "Cloudflare: Create DNS record"),
    ],
)
def test_titles_read_as_words_with_the_provider_in_front(builtin_catalog, name, title):
    assert tool_annotations(builtin_catalog.tools[name]).title == title


def test_imported_tools_get_a_title_without_their_stand_in_provider(builtin_catalog):
    # What the WildToolBench loader makes of a second 'searchProducts' signature in group 116.
    renamed = builtin_catalog.tools["aqicn_search_stations"].model_copy(update={
        "name": "searchProducts__2", "base_name": "searchProducts", "provider": "wild_tool_bench_116",
        "source": SourceFormat.WILDTOOLBENCH})
    assert tool_annotations(renamed).title == "Search products"
    inline = renamed.model_copy(update={"name": "search_products", "base_name": None, "provider": "search_shop"})
    assert tool_annotations(inline).title == "Search products"  # a scenario id is no provider


def test_every_catalog_tool_is_annotated_and_writes_are_never_read_only(builtin_catalog):
    for spec in builtin_catalog.tools.values():
        a = tool_annotations(spec)
        assert a.title and a.open_world_hint is False
        assert a.read_only_hint is (spec.profile.operation in (Operation.READ, Operation.SEARCH, Operation.LIST))
        if spec.profile.operation is Operation.DELETE:
            assert a.destructive_hint and a.idempotent_hint


@pytest.mark.anyio
async def test_annotations_and_titles_arrive_on_the_wire_in_both_eras(env):
    server = build_server(env)
    for mode in ("auto", "legacy"):
        async with Client(server, mode=mode) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
        cancel, lookup = tools["uber_cancel_ride"], tools["aqicn_get_city_aqi"]
        assert cancel.annotations is not None and lookup.annotations is not None
        assert (cancel.annotations.destructive_hint, cancel.annotations.read_only_hint) == (True, False)
        assert (lookup.annotations.read_only_hint, lookup.annotations.open_world_hint) == (True, False)
        assert lookup.title == lookup.annotations.title == "AQICN: Get city AQI"
        assert tools["search_tools"].annotations.read_only_hint is True
        assert all(t.annotations is not None and t.annotations.title for t in tools.values())
