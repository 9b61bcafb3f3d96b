"""kill -9 the server mid-session; on restart the session's state and log are intact."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
import httpx
from mcp import Client

from tests.servers import free_port

TICKETS = ["ticketmaster_search_shows", "ticketmaster_book_tickets", "ticketmaster_get_booking",
           "ticketmaster_list_bookings"]


def _serve(db: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "env_server.cli", "serve", "--port", str(port), "--db", str(db)],
        cwd=Path(__file__).resolve().parents[2], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/v1/health", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


def test_state_and_log_survive_kill_9_and_the_session_can_continue(tmp_path):
    db, port = tmp_path / "crash.duckdb", free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _serve(db, port)
    try:
        assert httpx.post(f"{base}/v1/sessions", json={"tools": TICKETS, "session_id": "crash", "seed": 3}).status_code == 201

        async def before() -> str:
            async with Client(f"{base}/sessions/crash/mcp") as client:
                shows = (await client.call_tool("ticketmaster_search_shows", {"city": "Chicago"})).structured_content["shows"]
                booking = await client.call_tool("ticketmaster_book_tickets", {
                    "show_id": shows[0]["show_id"], "quantity": 2,
                    "customer_name": "Li Wei", "customer_email": "li@example.com"})
                return booking.structured_content["booking_id"]

        booking_id = anyio.run(before)
        digest = httpx.get(f"{base}/v1/sessions/crash/state").json()["digest"]
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)

    proc = _serve(db, port)
    try:
        calls = httpx.get(f"{base}/v1/sessions/crash/calls").json()
        assert [c["tool"] for c in calls] == ["ticketmaster_search_shows", "ticketmaster_book_tickets"]
        assert httpx.get(f"{base}/v1/sessions/crash/state").json()["digest"] == digest

        async def after() -> None:
            async with Client(f"{base}/sessions/crash/mcp") as client:
                got = await client.call_tool("ticketmaster_get_booking", {"booking_id": booking_id})
                assert not got.is_error and got.structured_content["status"] == "confirmed"

        anyio.run(after)
        assert [c["seq"] for c in httpx.get(f"{base}/v1/sessions/crash/calls").json()] == [0, 1, 2]
    finally:
        proc.kill()
        proc.wait(10)
