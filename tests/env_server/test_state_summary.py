"""The REST plane, the orchestrator and the RL plane ask the environment, never its store."""

from __future__ import annotations

import re
from pathlib import Path

import anyio
import httpx
from mcp import Client

from env_server.environment import ToolEnvironment
from tests.servers import running_server

ROOT = Path(__file__).resolve().parents[2] / "env_server"
SHOWS = ["ticketmaster_search_shows", "ticketmaster_book_tickets"]


def test_get_state_answers_the_environment_s_digest_and_row_count(env: ToolEnvironment):
    with running_server(env) as base, httpx.Client(base_url=base) as http:
        assert http.post("/v1/sessions", json={"tools": SHOWS, "seed": 4, "session_id": "summed"}).status_code == 201
        empty = http.get("/v1/sessions/summed/state").json()

        async def book() -> None:
            async with Client(f"{base}/sessions/summed/mcp") as client:
                shows = await client.call_tool("ticketmaster_search_shows", {"city": "Denver", "size": 2})
                booked = await client.call_tool("ticketmaster_book_tickets", {
                    "show_id": shows.structured_content["shows"][0]["show_id"], "quantity": 1,
                    "customer_name": "Sam Roe", "customer_email": "sam@example.com"})
                assert not booked.is_error, booked.content

        anyio.run(book)
        state = http.get("/v1/sessions/summed/state").json()
        missing = http.get("/v1/sessions/nobody/state")

    digest, rows = env.state_summary("summed")
    assert state == {"session_id": "summed", "digest": digest, "rows": rows}
    assert digest == env.state_digest("summed") != empty["digest"] and rows > empty["rows"] == 0
    assert missing.status_code == 404


def test_no_module_outside_the_environment_reaches_into_its_store():
    outside = [ROOT / "app.py", ROOT / "runner.py", *(ROOT / "orchestrator").glob("*.py"), *(ROOT / "rl").glob("*.py")]
    reach_ins = [f"{path.relative_to(ROOT)}:{n}" for path in outside
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if re.search(r"\b(env|environment)\.store\b", line)]
    assert reach_ins == []
