"""The MCP surface through the official in-memory client (no transport)."""

from __future__ import annotations

import json

import pytest
from mcp import Client, MCPError

from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.server import build_server
from state import Database

pytestmark = pytest.mark.anyio


async def test_free_play_lists_every_tool_plus_search(env):
    async with Client(build_server(env)) as client:
        listing = await client.list_tools()
    names = [t.name for t in listing.tools]
    assert len(names) == len(env.catalog) + 1
    assert "search_tools" in names
    assert listing.next_cursor is None


async def test_cursor_pagination_walks_the_whole_listing(builtin_catalog):
    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings(page_size=100))
    seen: list[str] = []
    async with Client(build_server(env)) as client:
        cursor: str | None = "0"
        while cursor is not None:
            page = await client.list_tools(cursor=cursor)
            assert len(page.tools) <= 100
            seen += [t.name for t in page.tools]
            cursor = page.next_cursor
    assert len(seen) == len(set(seen)) == len(builtin_catalog) + 1


async def test_bad_cursor_is_a_protocol_error(env):
    async with Client(build_server(env)) as client:
        with pytest.raises(MCPError, match="cursor"):
            await client.list_tools(cursor="not-a-number")


async def test_call_returns_structured_content_and_is_logged(env):
    async with Client(build_server(env)) as client:
        result = await client.call_tool("openmeteo_get_air_quality", {"latitude": 52.5, "longitude": 13.4})
    assert not result.is_error
    assert result.structured_content["latitude"] == 52.5
    (record,) = env.calls("free")
    assert record.tool == "openmeteo_get_air_quality" and record.seq == 0 and not record.is_error


async def test_bad_argument_is_an_error_result_naming_the_parameter(env):
    async with Client(build_server(env)) as client:
        result = await client.call_tool("openmeteo_get_air_quality", {"latitude": "north", "longitude": 13.4})
    assert result.is_error
    assert "parameter 'latitude': expected number, got \"north\"" in result.content[0].text
    (record,) = env.calls("free")
    assert record.is_error and record.error_kind.value == "invalid_arguments"


async def test_unknown_tool_is_a_jsonrpc_error_with_suggestions_and_still_logged(env):
    async with Client(build_server(env)) as client:
        with pytest.raises(MCPError) as info:
            await client.call_tool("openmeteo_get_air_qualty", {})
    assert info.value.error.code == -32602
    assert "Did you mean: openmeteo_get_air_quality" in info.value.error.message
    (record,) = env.calls("free")
    assert record.error_kind.value == "unknown_tool"


async def test_search_tools_finds_the_right_tool(env):
    async with Client(build_server(env)) as client:
        result = await client.call_tool("search_tools", {"query": "air quality index pm2.5 for coordinates", "limit": 5})
    names = [r["name"] for r in result.structured_content["results"]]
    assert "openmeteo_get_air_quality" in names


async def test_session_subset_serves_only_its_tools(builtin_catalog):
    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings(stdio_session="s_weather"))
    env.create_session(tools=["openmeteo_get_forecast", "openmeteo_get_air_quality"], session_id="s_weather", seed=5)
    async with Client(build_server(env)) as client:
        listing = await client.list_tools()
        assert sorted(t.name for t in listing.tools) == ["openmeteo_get_air_quality", "openmeteo_get_forecast"]
        with pytest.raises(MCPError, match="Unknown tool"):
            await client.call_tool("openmeteo_search_locations", {"name": "Oslo"})
        ok = await client.call_tool("openmeteo_get_air_quality", {"latitude": 1.0, "longitude": 1.0})
    assert not ok.is_error
    assert [r.tool for r in env.calls("s_weather")] == ["openmeteo_search_locations", "openmeteo_get_air_quality"]
    assert env.calls("free") == []


async def test_unknown_session_is_a_protocol_error(builtin_catalog):
    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings(stdio_session="nope"))
    async with Client(build_server(env)) as client:
        with pytest.raises(MCPError, match="unknown session"):
            await client.list_tools()


async def test_simulator_crash_becomes_infra_error_not_a_server_crash(env, monkeypatch):
    import env_server.environment as environment

    def boom(*_a, **_k):
        raise RuntimeError("kaboom internal detail")

    monkeypatch.setattr(environment, "simulate", boom)
    async with Client(build_server(env)) as client:
        result = await client.call_tool("openmeteo_get_air_quality", {"latitude": 1.0, "longitude": 1.0})
        assert result.is_error and "kaboom" not in result.content[0].text
        again = await client.list_tools()
    assert again.tools
    (record,) = env.calls("free")
    assert record.error_kind.value == "infra_error"


def test_only_schemas_with_mcp_header_annotations_reach_the_sdk_header_check(tmp_path):
    # The SDK walks the schema and folds every request header for x-mcp-header checks on
    # each 2026-era call; a schema without annotations is not handed over at all.
    def tool(name: str, props: dict) -> dict:
        return {"type": "function", "function": {"name": name, "description": f"{name} lookup",
                                                 "parameters": {"type": "object", "properties": props}}}

    path = tmp_path / "tools.json"
    path.write_text(json.dumps([
        tool("plain_lookup", {"city": {"type": "string"}}),
        tool("routed_lookup", {"filter": {"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"}}}}),
    ]))
    server = build_server(ToolEnvironment(load_catalog([path]), Database()))
    assert server.get_tool_input_schema("plain_lookup") is None
    routed = server.get_tool_input_schema("routed_lookup")
    assert routed["properties"]["filter"]["properties"]["region"]["x-mcp-header"] == "Region"
    assert server.get_tool_input_schema("no_such_tool") is None
