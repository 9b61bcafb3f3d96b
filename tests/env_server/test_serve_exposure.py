"""What `toolenv serve` exposes: the admin token from a file or the environment (not argv), no paths in health, --no-rl.

``TOOLENV_ADMIN_TOKEN`` is read by typer (``envvar=``); the "not both" check below shows it arrives.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from env_server.catalog import default_catalog_path
from env_server.cli import app
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database
from tests.servers import free_port, running_server

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def test_health_gives_counts_and_versions_but_no_filesystem_path(builtin_catalog, tmp_path):
    db_path = tmp_path / "health.duckdb"
    env = ToolEnvironment(builtin_catalog, Database(db_path), ServerSettings(db_path=db_path))
    with running_server(env) as base:
        health = httpx.get(f"{base}/v1/health")
    body = health.json()
    assert health.status_code == 200
    assert set(body) == {"status", "version", "mcp_version", "tools", "catalogs", "groups"}
    assert body["tools"] == len(builtin_catalog) and body["catalogs"] == 1
    for leak in (str(default_catalog_path()), str(tmp_path), os.sep + "work"):
        assert leak not in health.text


def test_admin_token_file_errors_are_one_clear_line(tmp_path):
    missing = runner.invoke(app, ["serve", "--admin-token-file", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "cannot read --admin-token-file" in missing.output
    assert "No such file" in missing.output
    empty = tmp_path / "empty"
    empty.write_text("  \n")
    blank = runner.invoke(app, ["serve", "--admin-token-file", str(empty)])
    assert blank.exit_code == 2 and "is empty" in blank.output
    both = runner.invoke(app, ["serve", "--admin-token", "x", "--admin-token-file", str(empty)])
    assert both.exit_code == 2 and "not both" in both.output
    via_env = runner.invoke(app, ["serve", "--admin-token-file", str(empty)], env={"TOOLENV_ADMIN_TOKEN": "y"})
    assert via_env.exit_code == 2 and "not both" in via_env.output
    help_text = runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output
    assert "TOOLENV_ADMIN_TOKEN" in help_text and "--admin-token-file" in help_text and "--no-rl" in help_text


def _serve(args: list[str], port: int, tmp_path: Path) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "env_server.cli", "serve", "--port", str(port),
           "--db", str(tmp_path / "serve.duckdb"), *args]
    environ = {k: v for k, v in os.environ.items() if k != "TOOLENV_ADMIN_TOKEN"}
    return subprocess.Popen(cmd, cwd=ROOT, env=environ, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def _wait(base: str, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(f"{base}/v1/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError("server did not start")


def _token_works(base: str, token: str) -> bool:
    sid = httpx.post(f"{base}/v1/scenario-sessions", json={"scenario_id": "airport_ride_home"}).json()["session_id"]
    wrong = httpx.get(f"{base}/v1/scenario-sessions/{sid}/result", headers={"Authorization": "Bearer other"})
    right = httpx.get(f"{base}/v1/scenario-sessions/{sid}/result", headers={"Authorization": f"Bearer {token}"})
    return wrong.status_code == 403 and right.status_code == 200


# Under the slow mark (CI runs it too): a server process or 300 environments, 4-7 s of the default run.
@pytest.mark.slow
def test_serve_takes_the_token_from_a_file_and_can_drop_the_rl_plane(tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text("  from-a-file\n")
    port = free_port()
    proc = _serve(["--admin-token-file", str(token_file), "--no-rl"], port, tmp_path)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait(base, proc)
        assert _token_works(base, "from-a-file")
        assert httpx.post(f"{base}/v1/envs", json={"options": {"generator": {}}}).status_code == 404
    finally:
        proc.terminate()
    banner = proc.communicate(timeout=10)[0]
    assert "MCP endpoint" in banner and "from-a-file" not in banner
    assert "Admin token" not in banner  # only a generated token is printed
