"""``toolenv serve --stdio`` spawned as a real subprocess, driven by the official client."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters


def _toolenv_command() -> list[str]:
    script = Path(sys.executable).with_name("toolenv")
    if script.exists():
        return [str(script)]
    found = shutil.which("toolenv")
    return [found] if found else [sys.executable, "-m", "env_server.cli"]


def test_stdio_server_lists_and_calls_tools(tmp_path):
    cmd = _toolenv_command()
    params = StdioServerParameters(
        command=cmd[0], args=[*cmd[1:], "serve", "--stdio", "--db", str(tmp_path / "s.duckdb")]
    )

    async def drive() -> None:
        with anyio.fail_after(60):
            async with Client(params) as client:
                listing = await client.list_tools()
                assert any(t.name == "openmeteo_get_forecast" for t in listing.tools)
                result = await client.call_tool("openmeteo_get_air_quality", {"latitude": 1.0, "longitude": 2.0})
                assert not result.is_error and result.structured_content["latitude"] == 1.0
                bad = await client.call_tool("openmeteo_get_air_quality", {"latitude": 1.0})
                assert bad.is_error

    anyio.run(drive)
