"""One real socket: uvicorn on a free port, the official MCP client over streamable HTTP."""

from __future__ import annotations

import anyio
import httpx
import pytest
from mcp import Client, MCPError

from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database
from tests.servers import running_server


def test_streamable_http_serves_free_play_and_sessions_and_keeps_the_log_across_restarts(builtin_catalog, tmp_path):
    db_path = tmp_path / "toolenv.duckdb"
    db = Database(db_path)
    env = ToolEnvironment(builtin_catalog, db, ServerSettings(db_path=db_path))
    with running_server(env) as base:
        created = httpx.post(f"{base}/v1/sessions", json={
            "tools": ["openmeteo_get_forecast", "openmeteo_get_air_quality"], "seed": 11, "session_id": "s_http"})
        assert created.status_code == 201, created.text
        assert created.json()["mcp_path"] == "/sessions/s_http/mcp"
        bad = httpx.post(f"{base}/v1/sessions", json={"tools": ["openmeteo_get_forcast"]})
        assert bad.status_code == 422 and "did you mean" in bad.text

        async def drive() -> None:
            for mode in ("auto", "legacy"):
                async with Client(f"{base}/mcp", mode=mode) as client:
                    listing = await client.list_tools()
                    assert len(listing.tools) == len(builtin_catalog) + 1
                    ok = await client.call_tool("openmeteo_get_air_quality", {"latitude": 1.0, "longitude": 2.0})
                    assert not ok.is_error and ok.structured_content["longitude"] == 2.0
                    bad_args = await client.call_tool("openmeteo_get_air_quality", {"latitude": 1.0})
                    assert bad_args.is_error and "longitude" in bad_args.content[0].text
                    with pytest.raises(MCPError, match="Did you mean"):
                        await client.call_tool("openmeteo_get_air_qualty", {"latitude": 1.0})
                async with Client(f"{base}/sessions/s_http/mcp", mode=mode) as client:
                    listing = await client.list_tools()
                    assert sorted(t.name for t in listing.tools) == ["openmeteo_get_air_quality", "openmeteo_get_forecast"]
                    res = await client.call_tool("openmeteo_get_forecast", {"latitude": 5.0, "longitude": 6.0})
                    assert not res.is_error
                # An unknown session's endpoint is a 404 whose JSON-RPC error the client raises on connect.
                unknown = pytest.RaisesGroup(pytest.RaisesExc(MCPError, match="unknown session 's_missing'"),
                                             flatten_subgroups=True)
                with unknown:
                    async with Client(f"{base}/sessions/s_missing/mcp", mode=mode):
                        pass

        anyio.run(drive)
        calls = httpx.get(f"{base}/v1/sessions/free/calls").json()
        assert [c["seq"] for c in calls] == list(range(6))
        assert [c["error_kind"] for c in calls[:3]] == [None, "invalid_arguments", "unknown_tool"]
        assert httpx.get(f"{base}/v1/sessions/s_missing/calls").status_code == 404
    db.close()

    env2 = ToolEnvironment(builtin_catalog, Database(db_path), ServerSettings(db_path=db_path))
    with running_server(env2) as base:
        assert len(httpx.get(f"{base}/v1/sessions/free/calls").json()) == 6
        assert len(httpx.get(f"{base}/v1/sessions/s_http/calls").json()) == 2

        async def again() -> None:
            async with Client(f"{base}/sessions/s_http/mcp") as client:
                await client.call_tool("openmeteo_get_air_quality", {"latitude": 3.0, "longitude": 3.0})

        anyio.run(again)
        assert [c["seq"] for c in httpx.get(f"{base}/v1/sessions/s_http/calls").json()] == [0, 1, 2]
