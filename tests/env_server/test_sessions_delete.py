"""``DELETE /v1/sessions/{id}``: a plain session, its world and its call log are gone for good."""

from __future__ import annotations

from typing import Any

import anyio
import httpx
import pytest
from mcp import Client, MCPError

from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database
from tests.servers import running_server

SHOWS = ["ticketmaster_search_shows", "ticketmaster_book_tickets", "ticketmaster_list_bookings"]


def _book_a_show(url: str) -> None:
    async def drive() -> None:
        async with Client(url) as client:
            shows = await client.call_tool("ticketmaster_search_shows", {"city": "Las Vegas", "size": 2})
            show_id = shows.structured_content["shows"][0]["show_id"]
            booked = await client.call_tool("ticketmaster_book_tickets", {
                "show_id": show_id, "quantity": 2, "customer_name": "Ana Diaz", "customer_email": "ana@example.com"})
            assert not booked.is_error, booked.content

    anyio.run(drive)


def _rows_of(db: Database, session_id: str) -> dict[str, int]:
    tables = [r[0] for r in db.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'ent\\_%' ESCAPE '\\'").fetchall()]
    counts = {}
    for table in [*tables, "world_queries", "world_meta", "world_pinned", "call_log", "sessions"]:
        count = db.execute(f"SELECT count(*) FROM {table} WHERE session_id = ?", [session_id]).fetchone()
        counts[table] = int(count[0]) if count else 0
    return {t: n for t, n in counts.items() if n}


def test_deleting_a_session_frees_its_memory_and_rows_and_its_id_answers_404(builtin_catalog, tmp_path):
    db_path = tmp_path / "toolenv.duckdb"
    db = Database(db_path)
    env = ToolEnvironment(builtin_catalog, db, ServerSettings(db_path=db_path))
    with running_server(env) as base, httpx.Client(base_url=base) as http:
        assert http.post("/v1/sessions", json={"tools": SHOWS, "seed": 7, "session_id": "vegas"}).status_code == 201
        _book_a_show(f"{base}/sessions/vegas/mcp")
        fork = http.post("/v1/sessions/vegas/fork", json={"session_id": "vegas_fork"})
        assert fork.status_code == 201
        held = env.held_counts()

        deleted = http.delete("/v1/sessions/vegas")

        assert deleted.status_code == 204, deleted.text
        for path in ("/v1/sessions/vegas", "/v1/sessions/vegas/calls", "/v1/sessions/vegas/state"):
            assert http.get(path).status_code == 404, path
        assert http.post("/v1/sessions/vegas/fork", json={}).status_code == 404
        assert http.post("/v1/sessions/vegas/reset").status_code == 404
        assert http.delete("/v1/sessions/vegas").status_code == 404
        after = env.held_counts()
        assert all(after[k] == held[k] - 1 for k in ("views", "worlds", "records", "log_counters")), (held, after)

        async def call_deleted() -> None:
            # The deleted session's endpoint is a 404 whose JSON-RPC error the client raises on connect.
            with pytest.RaisesGroup(pytest.RaisesExc(MCPError, match="unknown session 'vegas'"), flatten_subgroups=True):
                async with Client(f"{base}/sessions/vegas/mcp") as client:
                    await client.call_tool("ticketmaster_list_bookings", {})

        anyio.run(call_deleted)
        # Naming it in the X-Toolenv-Session header on /mcp is the same 404 (it was a 200 with
        # a JSON-RPC error before the front door checked headers too).
        named = http.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                          headers={"X-Toolenv-Session": "vegas", "Accept": "application/json, text/event-stream"})
        assert named.status_code == 404 and "unknown session 'vegas'" in named.json()["error"]["message"]
        assert len(http.get("/v1/sessions/vegas_fork/calls").json()) == 2  # a fork keeps its own copy
    assert _rows_of(db, "vegas") == {}
    fork_rows = _rows_of(db, "vegas_fork")
    assert fork_rows["call_log"] == 2 and fork_rows["sessions"] == 1 and any(t.startswith("ent_") for t in fork_rows)
    db.close()

    # The deletion went through the journal after the session's own writes: a restart does not revive it.
    env2 = ToolEnvironment(builtin_catalog, Database(db_path), ServerSettings(db_path=db_path))
    with running_server(env2) as base:
        assert httpx.get(f"{base}/v1/sessions/vegas").status_code == 404
        assert httpx.get(f"{base}/v1/sessions/vegas_fork").status_code == 200


def test_a_deleted_id_can_be_created_again_with_other_tools_and_lists_them(env):
    with running_server(env) as base, httpx.Client(base_url=base) as http:
        assert http.post("/v1/sessions", json={"tools": SHOWS, "session_id": "again"}).status_code == 201

        async def names() -> list[str]:
            async with Client(f"{base}/sessions/again/mcp") as client:
                return sorted(t.name for t in (await client.list_tools()).tools)

        assert anyio.run(names) == sorted(SHOWS)
        assert http.delete("/v1/sessions/again").status_code == 204
        weather = ["openmeteo_get_forecast"]
        assert http.post("/v1/sessions", json={"tools": weather, "session_id": "again"}).status_code == 201
        assert anyio.run(names) == weather
        assert http.get("/v1/sessions/again/calls").json() == []


def _detail(response: httpx.Response) -> Any:
    return response.json()["detail"]


def test_sessions_owned_by_others_are_not_deleted_here(env):
    with running_server(env) as base, httpx.Client(base_url=base) as http:
        free = http.delete("/v1/sessions/free")
        assert free.status_code == 409 and "free-play" in _detail(free)
        scenario = http.post("/v1/scenario-sessions", json={"scenario_id": "flight_to_tokyo"}).json()["session_id"]
        refused = http.delete(f"/v1/sessions/{scenario}")
        assert refused.status_code == 409
        assert f"DELETE /v1/scenario-sessions/{scenario}" in _detail(refused)
        assert http.get(f"/v1/scenario-sessions/{scenario}").status_code == 200  # untouched
        rl = http.post("/v1/envs", json={"seed": 3, "options": {"generator": {}}}).json()
        owned = http.delete(f"/v1/sessions/{rl['info']['session_id']}")
        assert owned.status_code == 409 and "RL env" in _detail(owned)
        assert http.post(f"/v1/envs/{rl['env_id']}/step",
                         json={"action": {"role": "assistant", "content": "hm"}}).status_code == 200
        assert http.delete("/v1/sessions/s_never_made").status_code == 404
