"""The HTTP transport over real sockets: DNS-rebinding protection on every route, 405 for GET
on the MCP endpoints, a keep-alive that outlives a slow client, and quiet logs."""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client

from env_server.config import LogLevel, ServerSettings
from env_server.environment import ToolEnvironment
from env_server.runner import configure_logging, http_options
from state import Database
from tests.servers import free_port, running_server

ROOT = Path(__file__).resolve().parents[2]
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}
AIR_QUALITY = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
    "name": "openmeteo_get_air_quality", "arguments": {"latitude": 52.5, "longitude": 13.4}}}


def _env(builtin_catalog, **settings) -> ToolEnvironment:
    return ToolEnvironment(builtin_catalog, Database(), ServerSettings(**settings))


def test_foreign_host_or_origin_is_refused_on_mcp_and_rest_and_changes_nothing(builtin_catalog):
    with running_server(_env(builtin_catalog)) as base:
        evil = {"Host": "evil.example.com", "Origin": "http://evil.example.com"}
        for path in ("/mcp", "/sessions/free/mcp"):
            refused = httpx.post(f"{base}{path}", json=INITIALIZE, headers={**MCP_HEADERS, **evil})
            assert refused.status_code == 421 and "--allowed-host" in refused.json()["detail"]
            from_page = httpx.post(f"{base}{path}", json=INITIALIZE,
                                   headers={**MCP_HEADERS, "Origin": "http://evil.example.com"})
            assert from_page.status_code == 403 and "--allowed-origin" in from_page.json()["detail"]
        create = {"tools": ["openmeteo_get_forecast"], "session_id": "s_rebound"}
        assert httpx.post(f"{base}/v1/sessions", json=create, headers=evil).status_code == 421
        assert httpx.post(f"{base}/v1/sessions", json=create,
                          headers={"Origin": "http://evil.example.com"}).status_code == 403
        assert httpx.get(f"{base}/v1/health", headers={"Host": "evil.example.com"}).status_code == 421
        assert httpx.get(f"{base}/v1/sessions/s_rebound").status_code == 404
        assert httpx.get(f"{base}/v1/sessions/free/calls").json() == []
        for host in ("localhost.evil.com", "127.0.0.1.nip.io:80", "[::1].evil.com"):
            assert httpx.get(f"{base}/v1/health", headers={"Host": host}).status_code == 421, host
        for origin in ("null", "http://localhost.evil.com", "http://127.0.0.1.nip.io"):
            assert httpx.get(f"{base}/v1/health", headers={"Origin": origin}).status_code == 403, origin


def test_loopback_names_on_any_port_and_requests_without_origin_are_served(builtin_catalog):
    with running_server(_env(builtin_catalog)) as base:
        for host in ("localhost", "localhost:3000", "127.0.0.1:1", "[::1]", "[::1]:8765"):
            for origin in (None, f"http://{host}", f"https://{host}"):
                headers = {**MCP_HEADERS, "Host": host, **({"Origin": origin} if origin else {})}
                answer = httpx.post(f"{base}/mcp", json=INITIALIZE, headers=headers)
                assert answer.status_code == 200 and answer.json()["result"]["serverInfo"], (host, origin)
        created = httpx.post(f"{base}/v1/sessions", json={"tools": ["openmeteo_get_forecast"]},
                             headers={"Origin": "http://localhost:5173"})
        assert created.status_code == 201, created.text


def test_allowed_hosts_and_origins_widen_the_rule_and_nothing_else(builtin_catalog):
    env = _env(builtin_catalog, allowed_hosts=["evals.internal", "10.0.0.5:8765"],
               allowed_origins=["https://app.example.com", "http://dash.example.com:*"])
    with running_server(env) as base:
        def status(host: str | None = None, origin: str | None = None) -> int:
            headers = {**({"Host": host} if host else {}), **({"Origin": origin} if origin else {})}
            return httpx.get(f"{base}/v1/health", headers=headers).status_code

        assert status("evals.internal") == status("evals.internal:8765") == 200
        assert status("10.0.0.5:8765") == 200 and status("10.0.0.5:80") == 421
        assert status("evals.internal.evil.com") == 421
        assert status(origin="https://app.example.com") == 200
        assert status(origin="https://app.example.com:8443") == 403
        assert status(origin="http://dash.example.com:3000") == 200
        assert status(origin="http://dash.example.com.evil.com") == 403


def test_get_and_delete_on_the_mcp_endpoints_answer_405_and_clients_still_work(builtin_catalog):
    with running_server(_env(builtin_catalog)) as base:
        for path in ("/mcp", "/sessions/free/mcp"):
            # Before: the GET opened an SSE stream that never closed (the timeout fired).
            stream = httpx.get(f"{base}{path}", headers={"Accept": "text/event-stream"}, timeout=5)
            assert stream.status_code == 405 and stream.headers["allow"] == "POST"
            assert httpx.delete(f"{base}{path}", timeout=5).status_code == 405

        async def drive() -> None:  # both client modes: test_http_socket.py
            with anyio.fail_after(30):
                async with Client(f"{base}/sessions/free/mcp", mode="legacy") as client:
                    result = await client.call_tool("openmeteo_get_air_quality", {"latitude": 52.5, "longitude": 13.4})
                    assert not result.is_error

        anyio.run(drive)


# Under the slow mark (CI runs it too): a server process or 300 environments, 4-7 s of the default run.
@pytest.mark.slow
def test_an_idle_connection_outlives_a_slow_client_between_listing_and_calling(builtin_catalog):
    """A Node client compiles validators for ~7 s after listing the full catalog; uvicorn's
    default 5 s keep-alive closed the socket under it and its first call failed."""
    # One pooled connection, kept by the client for a minute (httpx's own default is 5 s).
    one_connection = httpx.Limits(max_connections=1, max_keepalive_connections=1, keepalive_expiry=60)
    # A read timeout of a minute: the first call loads the reference cities, slow on a loaded machine.
    with running_server(_env(builtin_catalog)) as base, httpx.Client(headers=MCP_HEADERS, limits=one_connection,
                                                                      timeout=60) as client:
        listing = client.post(f"{base}/mcp", json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        assert len(listing.json()["result"]["tools"]) == len(builtin_catalog) + 1
        first = listing.extensions["network_stream"].get_extra_info("client_addr")
        time.sleep(6)  # past uvicorn's default keep-alive
        called = client.post(f"{base}/mcp", json=AIR_QUALITY)
        assert called.json()["result"]["isError"] is False
        # httpx reconnects silently, so the proof is that no new TCP connection was made.
        assert called.extensions["network_stream"].get_extra_info("client_addr") == first
    assert http_options(ServerSettings())["timeout_keep_alive"] == ServerSettings().keep_alive_s >= 60


# The TypeScript SDK from the conformance suite's install (bench/conformance.sh puts it there).
NODE_SDK = Path(os.environ.get("TOOLENV_NODE_CACHE", Path.home() / ".cache" / "toolenv" / "node")) \
    / "node_modules" / "@modelcontextprotocol" / "sdk"
NODE_CLIENT = """
const sdk = process.argv[3];
const { Client } = await import(`${sdk}/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${sdk}/dist/esm/client/streamableHttp.js`);
const client = new Client({ name: "keep-alive-test", version: "1" });
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2])));
const { tools } = await client.listTools();
const start = Date.now();
while (Date.now() - start < 6000) {}  // the event loop blocked, as while compiling 2,048 validators
const result = await client.callTool({ name: "openmeteo_get_air_quality", arguments: { latitude: 52.5, longitude: 13.4 } });
console.log(JSON.stringify({ tools: tools.length, isError: result.isError ?? false }));
await client.close();
"""


@pytest.mark.slow
def test_a_node_client_calls_after_listing_the_full_catalog_and_blocking_for_six_seconds(builtin_catalog, tmp_path):
    node = shutil.which("node")
    if node is None or not NODE_SDK.is_dir():
        pytest.skip(f"needs node and the TypeScript MCP SDK at {NODE_SDK} (bench/conformance.sh installs it)")
    script = tmp_path / "client.mjs"
    script.write_text(NODE_CLIENT)
    with running_server(_env(builtin_catalog)) as base:
        run = subprocess.run([node, str(script), f"{base}/mcp", NODE_SDK.as_uri()],
                             capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout) == {"tools": len(builtin_catalog) + 1, "isError": False}


def test_sdk_request_lines_show_only_at_debug():
    mcp_logger, root = logging.getLogger("mcp"), logging.getLogger()
    saved = mcp_logger.level, root.level
    try:
        for level, sdk_info in ((LogLevel.INFO, False), (LogLevel.WARNING, False), (LogLevel.DEBUG, True)):
            configure_logging(level)
            assert logging.getLogger("mcp.server.streamable_http").isEnabledFor(logging.INFO) is sdk_info, level
            assert logging.getLogger("mcp.server.transport_security").isEnabledFor(logging.WARNING)
            assert http_options(ServerSettings(log_level=level))["access_log"] is sdk_info
    finally:
        mcp_logger.setLevel(saved[0])
        root.setLevel(saved[1])


# Under the slow mark (CI runs it too): a server process or 300 environments, 4-7 s of the default run.
@pytest.mark.slow
def test_serve_on_all_interfaces_warns_and_logs_no_line_per_request(tmp_path):
    port = free_port()
    cmd = [sys.executable, "-m", "env_server.cli", "serve", "--catalog", "tool_specs/catalog/weather",
           "--host", "0.0.0.0", "--port", str(port), "--db", str(tmp_path / "t.duckdb"),
           "--allowed-origin", "http://tool.test"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "200"})
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_healthy(base, proc)
        for _ in range(3):
            answer = httpx.post(f"{base}/mcp", json=AIR_QUALITY, headers={**MCP_HEADERS, "Origin": "http://tool.test"})
            assert answer.status_code == 200 and answer.json()["result"]["isError"] is False
        assert httpx.get(f"{base}/v1/health", headers={"Host": "evil.example.com"}).status_code == 421
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert f"http://127.0.0.1:{port}/mcp" in out
    assert "--host 0.0.0.0 is reachable from other machines" in err and "--allowed-host" in err
    assert "Invalid Host header: evil.example.com" in err
    assert "Terminating session" not in err and "session manager" not in err


def _wait_healthy(base: str, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"toolenv serve exited: {proc.communicate()[1][-2000:]}")
        try:
            if httpx.get(f"{base}/v1/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    pytest.fail("toolenv serve did not become healthy")
