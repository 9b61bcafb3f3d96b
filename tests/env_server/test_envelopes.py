"""JSON-RPC envelopes: raw POSTs against a real uvicorn, and raw lines into ``serve --stdio``."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client

from env_server.config import ServerSettings
from env_server.envelopes import SUPPORTED_VERSIONS
from env_server.environment import ToolEnvironment
from state import Database
from tests.servers import running_server

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
LEGACY = {**HEADERS, "MCP-Protocol-Version": "2025-11-25"}
MODERN = {**HEADERS, "MCP-Protocol-Version": "2026-07-28"}
PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def base(builtin_catalog) -> Iterator[str]:
    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings())
    with running_server(env) as url:
        yield url


def post(base: str, body: bytes | dict | list, headers: dict[str, str] = HEADERS, path: str = "/mcp") -> httpx.Response:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    return httpx.post(f"{base}{path}", headers=headers, content=content)


def error_of(response: httpx.Response) -> tuple[int, str, object]:
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["jsonrpc"] == "2.0" and "id" in body
    message = body["error"]["message"]
    assert "\n" not in message and "validation error" not in message.lower()
    return body["error"]["code"], message, body["id"]


@pytest.mark.parametrize("headers", [HEADERS, LEGACY, MODERN], ids=["no-version", "2025-11-25", "2026-07-28"])
@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ([PING], "batch requests are not supported"),
        ([], "batch requests are not supported"),
        ({**PING, "jsonrpc": "1.0"}, "'jsonrpc' must be \"2.0\""),
        ({"jsonrpc": "2.0", "id": 1}, "missing 'method'"),
        ({**PING, "method": 5}, "'method' must be a string, not an integer"),
        ("ping", "a message must be a JSON-RPC object, not a string"),
    ],
)
def test_a_bad_envelope_is_an_invalid_request_with_a_one_line_reason(base, headers, body, reason):
    code, message, _ = error_of(post(base, body, headers))
    assert code == -32600 and reason in message


@pytest.mark.parametrize("headers", [HEADERS, MODERN], ids=["legacy", "2026-07-28"])
@pytest.mark.parametrize(("rid", "kind"), [(1.5, "a float"), ({}, "an object"), (True, "a boolean"), (None, "null")])
def test_an_id_that_is_not_a_string_or_integer_is_rejected_with_a_null_id(base, headers, rid, kind):
    code, message, echoed = error_of(post(base, {**PING, "id": rid}, headers))
    assert (code, echoed) == (-32600, None)
    assert message == f"'id' must be a string or an integer, not {kind}"


def test_a_valid_id_is_echoed_in_an_envelope_error(base):
    assert error_of(post(base, {"jsonrpc": "2.0", "id": "req-7"}))[2] == "req-7"


def test_params_that_are_not_an_object_are_invalid_params(base):
    code, message, echoed = error_of(post(base, {**PING, "params": [1, 2]}))
    assert (code, message, echoed) == (-32602, "'params' must be an object, not an array", 1)


@pytest.mark.parametrize("headers", [HEADERS, MODERN], ids=["legacy", "2026-07-28"])
def test_malformed_json_is_a_parse_error_saying_where(base, headers):
    code, message, echoed = error_of(post(base, b'{"jsonrpc": "2.0", "id": 1,', headers))
    assert (code, echoed) == (-32700, None)
    assert message.startswith("Parse error: ") and "line 1 column 28" in message


def test_an_unknown_protocol_version_names_the_supported_ones(base):
    response = post(base, PING, {**HEADERS, "MCP-Protocol-Version": "1999-01-01"})
    code, message, echoed = error_of(response)
    assert (code, echoed) == (-32022, 1)
    assert "'1999-01-01'" in message and all(v in message for v in SUPPORTED_VERSIONS)
    assert response.json()["error"]["data"] == {"supported": list(SUPPORTED_VERSIONS), "requested": "1999-01-01"}


def test_session_endpoints_are_guarded_too(base):
    created = httpx.post(f"{base}/v1/sessions", json={"tools": ["openmeteo_get_air_quality"]})
    assert created.status_code == 201, created.text
    path = created.json()["mcp_path"]
    assert error_of(post(base, [PING], path=path))[0] == -32600


@pytest.mark.parametrize("headers", [HEADERS, MODERN], ids=["legacy", "2026-07-28"])
def test_valid_traffic_passes_untouched(base, headers):
    assert post(base, {"jsonrpc": "2.0", "method": "notifications/initialized"}, headers).status_code == 202
    assert post(base, {"jsonrpc": "2.0", "id": 9, "result": {}}, LEGACY).status_code == 202  # a client's response
    unreadable = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
    assert post(base, unreadable, LEGACY).status_code == 202  # JSON-RPC's null id, allowed on an error
    ok = post(base, {**PING, "id": "a"}, LEGACY)
    assert ok.status_code == 200 and ok.json() == {"jsonrpc": "2.0", "id": "a", "result": {}}
    too_big = httpx.post(f"{base}/mcp", headers=HEADERS, content=b" " * (4 * 1024 * 1024 + 1))
    assert too_big.status_code == 413  # the SDK's body cap still holds in front of the check


def test_the_official_client_still_lists_and_calls_in_both_eras(base):
    created = httpx.post(f"{base}/v1/sessions", json={"tools": ["openmeteo_get_air_quality", "uber_cancel_ride"]})
    path = created.json()["mcp_path"]

    async def drive() -> None:
        for mode in ("auto", "legacy"):
            async with Client(f"{base}{path}", mode=mode) as client:
                assert len((await client.list_tools()).tools) == 2
                ok = await client.call_tool("openmeteo_get_air_quality", {"latitude": 1.0, "longitude": 2.0})
                assert not ok.is_error

    anyio.run(drive)


# -- stdio -------------------------------------------------------------------------------


class StdioPeer:
    """``serve --stdio`` in a subprocess, spoken to one raw line at a time."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "env_server.cli", "serve", "--stdio", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def send(self, raw: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()

    def reply(self, timeout: float = 60) -> dict:
        try:
            return json.loads(self.lines.get(timeout=timeout))
        except queue.Empty:
            raise AssertionError("no reply from the stdio server") from None

    def close(self) -> tuple[int, str]:
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        code = self.proc.wait(30)
        return code, self.proc.stderr.read().decode()


# Under the slow mark (CI runs it too): a server process or 300 environments, 4-7 s of the default run.
@pytest.mark.slow
def test_stdio_answers_bad_lines_and_oversized_ones_and_keeps_serving(tmp_path):
    peer = StdioPeer("--db", str(tmp_path / "s.duckdb"), "--stdio-max-line-bytes", "4096")
    try:
        hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        peer.send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}).encode())
        assert "result" in peer.reply()
        peer.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        cases = [
            (b"{not json", -32700, "Parse error: Expecting property name enclosed in double quotes"),
            (json.dumps([PING]).encode(), -32600, "batch requests are not supported"),
            (json.dumps({**PING, "id": 2.5}).encode(), -32600, "'id' must be a string or an integer, not a float"),
            (json.dumps({**PING, "id": None}).encode(), -32600, "'id' must be a string or an integer, not null"),
            (b"\xff\xfe{}", -32700, "Parse error: the message is not UTF-8 text"),
            (json.dumps({**PING, "params": {"pad": "x" * 10_000}}).encode(), -32600,
             "exceeds the stdio limit of 4096 bytes"),
        ]
        for raw, code, reason in cases:
            peer.send(raw)
            answer = peer.reply()
            assert answer["id"] is None and answer["error"]["code"] == code, answer
            assert reason in answer["error"]["message"]
        peer.send(b"   ")  # a blank line is skipped, not answered
        peer.send(json.dumps({**PING, "id": 3}).encode())
        assert peer.reply() == {"jsonrpc": "2.0", "id": 3, "result": {}}
    finally:
        code, stderr = peer.close()
    assert code == 0 and "Traceback" not in stderr, stderr
