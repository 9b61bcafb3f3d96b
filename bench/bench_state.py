"""World-state timings, in process: session create, reset, fork (200 rows), digest, calls.

Targets from the world-state issue (2-core machine): create <= 5 ms, reset <= 5 ms,
fork <= 10 ms for a 200-row session, median read call <= 0.3 ms, median write <= 1 ms.
Calls are measured in both durability modes: ``per_call`` (the server default: state and
log committed to DuckDB before each response) and ``deferred`` (in-process rollouts).
Run: ``python bench/bench_state.py [--db FILE]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database
from state.store import Durability

TICKETS = ["ticketmaster_search_shows", "ticketmaster_get_show", "ticketmaster_book_tickets",
           "ticketmaster_get_booking", "ticketmaster_list_bookings", "ticketmaster_cancel_booking"]
CUSTOMER = {"customer_name": "Ana Diaz", "customer_email": "ana@example.com"}


def ms(samples: list[float]) -> str:
    return f"median {statistics.median(samples) * 1000:.3f} ms  p90 {sorted(samples)[int(len(samples) * 0.9)] * 1000:.3f} ms"


def timed(fn, *args, **kwargs) -> float:  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    fn(*args, **kwargs)
    return time.perf_counter() - t


def fill_session(env: ToolEnvironment, sid: str, rows: int) -> list[str]:
    shows: list[str] = []
    city = 0
    while len(env.store.world(sid, 1).rows) < rows:
        out = env.call_tool(sid, "ticketmaster_search_shows", {"city": f"City {city}", "size": 5})
        shows += [s["show_id"] for s in out.result["shows"]]
        city += 1
    return shows


def bench(durability: Durability, db_path: Path) -> None:
    catalog = load_catalog()
    env = ToolEnvironment(catalog, Database(db_path), ServerSettings(durability=durability))
    print(f"\n== durability={durability.value}  db={db_path}")
    creates = [timed(env.create_session, tools=TICKETS, session_id=f"c{i}", seed=1) for i in range(200)]
    print(f"session create        {ms(creates)}")
    shows = fill_session(env, "c0", 200)
    world = env.store.world("c0", 1)
    print(f"rows in forked session: {len(world.rows)}")
    forks = [timed(env.fork_session, "c0", f"f{i}") for i in range(50)]
    print(f"fork (200 rows)       {ms(forks)}")
    digests = [timed(env.state_digest, "c0") for _ in range(50)]
    print(f"digest (200 rows)     {ms(digests)}")
    reads = [timed(env.call_tool, "c0", "ticketmaster_get_show", {"show_id": shows[i % len(shows)]}) for i in range(500)]
    print(f"read call             {ms(reads)}")
    writes = [timed(env.call_tool, "c0", "ticketmaster_book_tickets",
                    {"show_id": shows[i % len(shows)], "quantity": 1 + i % 4, **CUSTOMER}) for i in range(300)]
    print(f"write call            {ms(writes)}")
    resets = []
    for i in range(50):
        sid = f"f{i}"
        env.call_tool(sid, "ticketmaster_book_tickets", {"show_id": shows[0], "quantity": 1, **CUSTOMER})
        resets.append(timed(env.reset_session, sid))
    print(f"reset                 {ms(resets)}")
    env.flush()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", type=Path, default=None, help="DuckDB file (default: a temporary file)")
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for durability in (Durability.PER_CALL, Durability.DEFERRED):
            bench(durability, opts.db or Path(tmp) / f"state-{durability.value}.duckdb")


if __name__ == "__main__":
    main()
