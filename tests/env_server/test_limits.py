"""Size limits and numbers JSON cannot carry (issue 15, items 6 and 7), through the
official in-memory MCP client, plus one real socket for the HTTP paths (413, NaN parsed
from a raw JSON body, the call log over REST)."""

from __future__ import annotations

import hashlib
import json
import math
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.server import build_server
from env_server.specs.samples import sample_arguments
from state import Database
from tests.servers import running_server

AIR = "openmeteo_get_air_quality"


def _env(catalog: Catalog, **settings: Any) -> ToolEnvironment:
    return ToolEnvironment(catalog, Database(), ServerSettings(**settings))


async def _call(env: ToolEnvironment, tool: str, args: dict[str, Any]) -> Any:
    async with Client(build_server(env)) as client:
        return await client.call_tool(tool, args)


# -- the per-argument string cap --------------------------------------------------------


@pytest.mark.anyio
async def test_a_string_over_the_cap_is_an_error_naming_the_parameter(env):
    cap = env.settings.max_arg_chars
    assert cap == 64 * 1024
    over = await _call(env, "search_tools", {"query": "q" * (cap + 1)})
    assert over.is_error
    text = over.content[0].text
    assert "parameter 'query': a string of 65,537 characters is longer than the limit of 65,536" in text
    assert len(text) < 300  # the error does not echo the value
    at_cap = await _call(env, "search_tools", {"query": "q" * cap})
    assert not at_cap.is_error


@pytest.mark.anyio
async def test_strings_nested_in_arrays_and_objects_are_capped_too(builtin_catalog):
    env = _env(builtin_catalog, max_arg_chars=40)
    args = sample_arguments(builtin_catalog.tools["smartsheet_add_row"], 0)
    within = await _call(env, "smartsheet_add_row", args)  # a 404 for the unknown sheet, not a limit
    assert "limit" not in within.content[0].text
    args["cells"][1]["value"] = "v" * 41
    nested = await _call(env, "smartsheet_add_row", args)
    assert nested.is_error
    assert "parameter 'cells[1].value': a string of 41 characters is longer than the limit of 40" in nested.content[0].text
    long_key = await _call(env, "search_tools", {"query": "maps", "k" * 41: 1})
    assert long_key.is_error and "parameter name of 41 characters" in long_key.content[0].text


@pytest.mark.anyio
async def test_the_cap_is_a_server_setting(builtin_catalog):
    env = _env(builtin_catalog, max_arg_chars=8)
    assert (await _call(env, "search_tools", {"query": "weather!"})).is_error is False
    assert (await _call(env, "search_tools", {"query": "weather!!"})).is_error


# -- NaN and Infinity -------------------------------------------------------------------


# The MCP client turns NaN into null before sending, so these call the environment (the
# path every transport takes); the real-socket test below sends a raw ``NaN`` over HTTP.


@pytest.mark.parametrize(("bad", "shown"), [(math.nan, "NaN"), (math.inf, "Infinity"), (-math.inf, "-Infinity")])
def test_non_finite_numbers_are_errors_naming_the_parameter(env, bad, shown):
    outcome = env.call_tool("free", AIR, {"latitude": bad, "longitude": 13.4})
    assert outcome.is_error and outcome.error_kind == "invalid_arguments"
    assert f"parameter 'latitude': expected a finite number, got {shown}" in (outcome.message or "")
    (record,) = env.calls("free")
    assert record.error_kind == "invalid_arguments"
    assert record.arguments == {"latitude": shown, "longitude": 13.4}  # the log holds JSON, not bare NaN


def test_nan_nested_in_an_array_is_found(env):
    outcome = env.call_tool("free", "smartsheet_add_row", {
        "sheetId": 1, "cells": [{"columnId": 2, "value": "x"}, {"columnId": math.nan, "value": "y"}]})
    assert outcome.is_error
    assert "parameter 'cells[1].columnId': expected a finite number, got NaN" in (outcome.message or "")


def test_a_result_json_cannot_carry_is_an_infra_error_not_bare_nan(env, monkeypatch):
    monkeypatch.setattr("env_server.environment.simulate", lambda spec, args, ctx: {"aqi": math.nan})
    outcome = env.call_tool("free", AIR, {"latitude": 1.0, "longitude": 2.0})
    assert outcome.is_error and outcome.error_kind == "infra_error" and outcome.result is None
    assert "NaN" not in (outcome.message or "")
    assert env.calls("free")[0].error_kind == "infra_error"


# -- no amplification -------------------------------------------------------------------

# Before the fix these echoed a long argument into every listed item or nested record
# (5 to 7 copies in the text, and as many again in structuredContent).
AMPLIFIERS = [
    ("google_keep_get_note", "name"), ("currents_search_news", "language"),
    ("usaspending_search_awards", "awarding_agency"), ("iceandfire_list_houses", "region"),
    ("google_sheets_create_spreadsheet", "title"), ("short_io_create_link", "title"),
    ("netlify_create_site", "name"), ("bitbucket_list_pull_requests", "repo_slug"),
]
LONG = 60_000
# A response may grow by at most this many bytes per byte the request grew: the argument
# at most twice in the text content and twice in structuredContent (a note's name and title),
# plus slack.
FACTOR = 5


def _string_params(catalog: Catalog) -> list[tuple[str, str]]:
    out = []
    for name, spec in catalog.tools.items():
        for param, sub in (spec.input_schema.get("properties") or {}).items():
            if isinstance(sub, dict) and sub.get("type") == "string" and not sub.get("enum") and not sub.get("format"):
                out.append((name, param))
    return out


def test_a_long_argument_is_not_multiplied_into_the_response(builtin_catalog):
    env = _env(builtin_catalog)
    pairs = AMPLIFIERS + random.Random(15).sample(_string_params(builtin_catalog), 40)

    def sizes(n: int, tool: str, param: str, value: str) -> tuple[int, int] | None:
        """Request and response bytes of one call in a fresh session (the answer as the
        MCP handler sends it: text content plus structuredContent)."""
        sid = env.create_session(tools=[tool], session_id=f"amp{n}").session_id
        args = {**sample_arguments(builtin_catalog.tools[tool], 0), param: value}
        outcome = env.call_tool(sid, tool, args)
        if outcome.is_error:
            return None
        wire = json.dumps({"content": [{"type": "text", "text": outcome.result_text()}],
                           "structuredContent": outcome.result})
        return len(json.dumps(args)), len(wire)

    checked = 0
    for n, (tool, param) in enumerate(pairs):
        short, long = sizes(2 * n, tool, param, "Qz"), sizes(2 * n + 1, tool, param, "Q" * LONG)
        if short is None or long is None:
            continue
        grew = (long[1] - short[1]) / (long[0] - short[0])
        assert grew <= FACTOR, f"{tool}.{param}: the response grew {grew:.1f}x as much as the request"
        checked += 1
    assert checked >= 30


@pytest.mark.anyio
async def test_the_wire_response_to_a_long_filter_stays_small(builtin_catalog):
    env = _env(builtin_catalog)
    args = {"keywords": "kids activities", "language": "Q" * LONG}
    result = await _call(env, "currents_search_news", args)
    assert not result.is_error
    wire = len(result.model_dump_json(by_alias=True, exclude_none=True))
    assert wire <= FACTOR * len(json.dumps(args)) + 20_000


# -- bounded call-log rows --------------------------------------------------------------


def test_call_log_rows_keep_a_digest_beyond_the_cap(builtin_catalog):
    env = _env(builtin_catalog, max_logged_json_chars=2_000)
    normal = {"query": "weather in Paris", "limit": 2}
    env.call_tool("free", "search_tools", normal)
    big = {"query": "weather " * 300, "limit": 50}  # 2,400 characters: a valid call, logged as a marker
    outcome = env.call_tool("free", "search_tools", big)
    assert not outcome.is_error
    first, second = env.calls("free")
    assert first.arguments == normal and first.result["query"] == normal["query"]
    args_json = json.dumps(big, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert second.arguments == {"_truncated": True, "chars": len(args_json),
                                "sha256": hashlib.sha256(args_json.encode()).hexdigest()}
    result_json = outcome.result_text()
    assert len(result_json) > 2_000
    assert second.result == {"_truncated": True, "chars": len(result_json),
                             "sha256": hashlib.sha256(result_json.encode()).hexdigest()}


def test_an_over_cap_argument_is_logged_as_a_marker(env):
    value = "z" * (env.settings.max_arg_chars + 5)
    env.call_tool("free", "search_tools", {"query": value})
    (record,) = env.calls("free")
    assert record.arguments["query"] == {"_truncated": True, "chars": len(value),
                                         "sha256": hashlib.sha256(value.encode()).hexdigest()}


# -- HTTP: one real socket ----------------------------------------------------------------

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
               "MCP-Protocol-Version": "2025-06-18"}


def test_http_bodies_over_the_caps_get_413_and_nan_from_raw_json_is_rejected(builtin_catalog):
    env = _env(builtin_catalog, max_rest_body_bytes=4_096, max_mcp_body_bytes=64 * 1024)
    with running_server(env) as base:
        label = {"tools": ["openmeteo_get_forecast"], "label": "L" * 5_000}
        assert httpx.post(f"{base}/v1/sessions", json=label).status_code == 413  # declared length
        chunks = (part for part in [json.dumps(label).encode()[:3_000], json.dumps(label).encode()[3_000:]])
        streamed = httpx.post(f"{base}/v1/sessions", content=chunks, headers={"Content-Type": "application/json"})
        assert streamed.status_code == 413 and "4,096 bytes" in streamed.json()["detail"]  # chunked, no length
        small = httpx.post(f"{base}/v1/sessions", json={"tools": ["openmeteo_get_forecast"], "label": "ok"})
        assert small.status_code == 201 and small.json()["session"]["label"] == "ok"
        assert httpx.get(f"{base}/v1/health").status_code == 200

        big_call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                    "params": {"name": "search_tools", "arguments": {"query": "q" * 70_000}}}
        assert httpx.post(f"{base}/mcp", json=big_call, headers=MCP_HEADERS).status_code == 413

        raw = ('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"' + AIR + '",'
               '"arguments":{"latitude":NaN,"longitude":Infinity}}}')
        answer = httpx.post(f"{base}/mcp", content=raw, headers=MCP_HEADERS)
        assert answer.status_code == 200
        result = answer.json()["result"]
        assert result["isError"] and "parameter 'latitude': expected a finite number, got NaN" in result["content"][0]["text"]
        assert "parameter 'longitude': expected a finite number, got Infinity" in result["content"][0]["text"]
        calls = httpx.get(f"{base}/v1/sessions/free/calls")
        assert calls.status_code == 200
        assert calls.json()[-1]["arguments"] == {"latitude": "NaN", "longitude": "Infinity"}


# -- stdio: raw lines into a real subprocess ---------------------------------------------


def test_stdio_rejects_raw_nan_and_honours_max_arg_chars(tmp_path):
    """The SDK's stdio reader parses ``NaN`` too; the server answers it (and a string over
    ``--max-arg-chars``) as isError results naming the parameter."""
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-m", "env_server.cli", "serve", "--stdio", "--db", str(tmp_path / "s.duckdb"),
         "--max-arg-chars", "8"],
        cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    lines = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    raw = [json.dumps(line) for line in lines] + [
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"' + AIR + '",'
        '"arguments":{"latitude":NaN,"longitude":2.0}}}',
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": {"name": "search_tools", "arguments": {"query": "weather!!"}}}),
    ]
    watchdog = threading.Timer(120, proc.kill)  # a hung server fails the test instead of hanging it
    watchdog.start()
    answers: dict[int, Any] = {}
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(("\n".join(raw) + "\n").encode())
        proc.stdin.flush()
        while len(answers) < 3 and (line := proc.stdout.readline()):
            msg = json.loads(line)
            answers[msg["id"]] = msg
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait(10)
    nan, long = answers[1]["result"], answers[2]["result"]
    assert nan["isError"] and "parameter 'latitude': expected a finite number, got NaN" in nan["content"][0]["text"]
    assert long["isError"] and "a string of 9 characters is longer than the limit of 8" in long["content"][0]["text"]
