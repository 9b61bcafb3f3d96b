"""Per-call cost of the call path in process, with journal durability on a real file.

A loop of ``--calls`` ``ToolEnvironment.call_tool`` calls of one read tool (the AQI of a
city, cycling over 50 cities) on a fresh environment whose DuckDB file and journal live in
a temporary directory; no background flusher, so the queue is written to DuckDB on the
caller's thread each time it fills, as part of the measured cost. Each round warms up
with 200 calls first. Prints, per round and as the median over rounds, wall and process
CPU time per call in microseconds (CPU includes DuckDB's threads).

Used to price changes to the journal, encoders, random generator and timestamps: run it
on the code before and after a change, alternating, and compare medians; this 2-core VM
drifts by several percent between runs.

Run: ``python bench/bench_call_cost.py [--calls 5000] [--rounds 5] [--fsync]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from env_server.catalog import load_catalog  # noqa: E402  # after the path insert
from env_server.config import ServerSettings  # noqa: E402
from env_server.environment import ToolEnvironment  # noqa: E402
from state import Database  # noqa: E402
from state.store import Durability  # noqa: E402

WEATHER = ROOT / "tool_specs" / "catalog" / "weather"
TOOL = "aqicn_get_city_aqi"
CITIES = [f"City {i}" for i in range(50)]
WARMUP = 200


def one_round(calls: int, fsync: bool) -> tuple[float, float]:
    """Wall and CPU microseconds per call over ``calls`` calls on a fresh environment."""
    catalog = load_catalog([WEATHER])
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "bench.duckdb"
        db = Database(db_path)
        env = ToolEnvironment(catalog, db, ServerSettings(db_path=db_path, durability=Durability.JOURNAL, fsync=fsync))
        env.create_session(tools=[TOOL], session_id="bench", seed=1)
        for i in range(WARMUP):
            env.call_tool("bench", TOOL, {"city": CITIES[i % len(CITIES)]})
        wall, cpu = time.perf_counter_ns(), time.process_time_ns()
        for i in range(calls):
            env.call_tool("bench", TOOL, {"city": CITIES[i % len(CITIES)]})
        wall, cpu = time.perf_counter_ns() - wall, time.process_time_ns() - cpu
        env.close()
        db.close()
    return wall / calls / 1000, cpu / calls / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=5000, help="timed calls per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each on a fresh environment")
    parser.add_argument("--fsync", action="store_true", help="sync each journal line to disk (ServerSettings.fsync)")
    args = parser.parse_args()
    walls, cpus = [], []
    for r in range(args.rounds):
        wall, cpu = one_round(args.calls, args.fsync)
        walls.append(wall)
        cpus.append(cpu)
        print(f"round {r + 1}: {wall:7.1f} us/call wall  {cpu:7.1f} us/call CPU")
    print(f"median: {statistics.median(walls):7.1f} us/call wall  {statistics.median(cpus):7.1f} us/call CPU")


if __name__ == "__main__":
    main()
