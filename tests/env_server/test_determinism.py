"""A fixed call script gives identical logs in this process and in a fresh one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database

SCRIPT = [
    ("ticketmaster_search_shows", {"city": "Lisbon", "size": 3}),
    ("ticketmaster_book_tickets", {"show_id": "show_unknown", "quantity": 1, "customer_name": "A",
                                   "customer_email": "a@example.com"}),
    ("openmeteo_get_forecast", {"latitude": 48.85, "longitude": 2.35, "forecast_days": 3}),
    ("openmeteo_search_locations", {"name": "Lisbon", "count": 3}),
    ("openmeteo_get_air_quality", {"latitude": 48.85}),
    ("search_tools", {"query": "weather forecast"}),
]


def run_script() -> dict:
    env = ToolEnvironment(load_catalog(), Database(), ServerSettings(seed=9))
    for name, args in SCRIPT:
        env.call_tool("free", name, args)
    shows = env.calls("free")[0].result["shows"]
    booked = env.call_tool("free", "ticketmaster_book_tickets", {
        "show_id": shows[0]["show_id"], "quantity": 2, "customer_name": "A", "customer_email": "a@example.com"})
    assert not booked.is_error
    return {"log": [r.replay_view() for r in env.calls("free")], "digest": env.state_digest("free")}


def test_two_runs_in_one_process_give_identical_logs():
    first = run_script()
    assert first == run_script()
    assert first["log"][1]["error_kind"] == "not_found"


# Under the slow mark (CI runs it too): a second interpreter loads both catalogs (~10-25 s); the in-process twin below stays in the default run.
@pytest.mark.slow
def test_a_separate_process_gives_identical_logs():
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]);"
        "from tests.env_server.test_determinism import run_script;"
        "print(json.dumps(run_script(), sort_keys=True))"
    )
    root = str(Path(__file__).resolve().parents[2])
    env = {"PYTHONHASHSEED": "123", "PATH": ""}
    proc = subprocess.run([sys.executable, "-c", code, root], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == json.loads(json.dumps(run_script(), sort_keys=True))
