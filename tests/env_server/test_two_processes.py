"""Several ``toolenv serve`` processes on one machine, as real subprocesses.

A DuckDB file admits one process at a time. An HTTP server with default settings uses the
user data directory's file (``XDG_DATA_HOME`` points it at a temp dir here); stdio servers,
which desktop apps start on their own, each get a private in-memory database, so they run
beside it and beside each other. A server that asks for a file another process holds exits
with one line naming the file and ``--db``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client, StdioServerParameters
from typer.testing import CliRunner

from env_server.cli import app
from tests.servers import free_port

ROOT = Path(__file__).resolve().parents[2]
SERVE = [sys.executable, "-m", "env_server.cli", "serve"]  # this checkout's code, not an installed script


def _environ(data_home: Path) -> dict[str, str]:
    return {**os.environ, "XDG_DATA_HOME": str(data_home), "PYTHONPATH": str(ROOT)}


@contextmanager
def _http_server(args: list[str], environ: dict[str, str], log: Path) -> Iterator[str]:
    port = free_port()
    with log.open("w") as out:
        proc = subprocess.Popen([*SERVE, "--port", str(port), *args], cwd=ROOT, env=environ,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/v1/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not come up: " + log.read_text()
            time.sleep(0.2)
        yield log.read_text()
    finally:
        proc.terminate()
        proc.wait(15)


def _refused(args: list[str], environ: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([*SERVE, *args], cwd=ROOT, env=environ, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _assert_one_line_naming(proc: subprocess.Popen[str], path: Path) -> None:
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, (out, err)
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(path) in lines[0] and "--db" in lines[0] and "another process" in lines[0]


# Under the slow mark (CI runs it too): four server processes start here (~15-35 s).
@pytest.mark.slow
def test_default_stdio_servers_run_beside_an_http_server_and_a_second_server_on_its_file_exits_in_one_line(tmp_path):
    data_home = tmp_path / "data"
    environ = _environ(data_home)
    default_file = data_home / "toolenv" / "toolenv.duckdb"
    with _http_server([], environ, tmp_path / "http.log") as banner:
        assert f"Database (call log, sessions; --db to change): {default_file}" in banner
        second_http = _refused(["--port", str(free_port())], environ)  # the same defaults: the same file
        stdio_on_the_file = _refused(["--stdio", "--db", str(default_file)], environ)

        async def drive() -> None:
            params = StdioServerParameters(command=SERVE[0], args=[*SERVE[1:], "--stdio"], env=environ, cwd=ROOT)
            with anyio.fail_after(90):
                async with Client(params) as first, Client(params) as second:
                    for k, client in enumerate((first, second)):
                        result = await client.call_tool("openmeteo_get_air_quality",
                                                        {"latitude": float(k), "longitude": 2.0})
                        assert not result.is_error and result.structured_content["latitude"] == float(k)

        anyio.run(drive)
        _assert_one_line_naming(second_http, default_file)
        _assert_one_line_naming(stdio_on_the_file, default_file)


def test_stdio_with_an_unknown_session_is_a_one_line_error():
    result = CliRunner().invoke(app, ["serve", "--stdio", "--session", "s_nowhere"])
    assert result.exit_code == 1
    expected = ("error: unknown session 's_nowhere' in database :memory:; pass --db FILE holding it "
                "(sessions are created over HTTP with POST /v1/sessions)")
    assert result.output.strip().splitlines() == [expected]
