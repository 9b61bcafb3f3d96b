"""Benchmark: toolenv vs a bare MCP echo server, same SDK and transport, measured in one run.

Reports, for each server: median and p99 ``call_tool`` latency over N sequential calls,
throughput and p99 with 16 concurrent clients, and server CPU per call (from
/proc/<pid>/stat); then the ratios ours/echo and the ``tools/list`` time of our full
listing. Run: ``python bench/bench_server.py [--calls 500] [--catalog PATH]``.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
from mcp import Client

ROOT = Path(__file__).resolve().parents[1]
WTB = ROOT.parent / "shared" / "data" / "wildtoolbench" / "tools_en.jsonl"
TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def start(cmd: list[str], port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.post(f"http://127.0.0.1:{port}/mcp", json={}, timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"server did not start: {cmd}")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(url: str, pid: int, tool: str, make_args: Any, calls: int, conc: int, per_client: int) -> dict[str, float]:
    async with Client(url) as client:
        await client.list_tools()
        for i in range(20):
            await client.call_tool(tool, make_args(i))
        lat: list[float] = []
        cpu0 = cpu_seconds(pid)
        for i in range(calls):
            t = time.perf_counter()
            await client.call_tool(tool, make_args(i))
            lat.append((time.perf_counter() - t) * 1000)
        cpu_seq = (cpu_seconds(pid) - cpu0) / calls * 1000
    conc_lat: list[float] = []
    listed = 0
    go = anyio.Event()
    started: list[float] = []

    async def worker(k: int) -> None:
        nonlocal listed
        async with Client(url) as c:
            # The client lists tools before its first call; every client lists first, then all
            # start calling together, so the call percentiles measure calls, not listings.
            await c.list_tools()
            listed += 1
            if listed == conc:
                started.extend([time.perf_counter(), cpu_seconds(pid)])
                go.set()
            await go.wait()
            for i in range(per_client):
                t = time.perf_counter()
                await c.call_tool(tool, make_args(10_000 * (k + 1) + i))
                conc_lat.append((time.perf_counter() - t) * 1000)

    async with anyio.create_task_group() as tg:
        for k in range(conc):
            tg.start_soon(worker, k)
    wall = time.perf_counter() - started[0]
    total = conc * per_client
    return {
        "median_ms": statistics.median(lat),
        "p99_ms": pct(lat, 0.99),
        "cpu_ms_per_call_seq": cpu_seq,
        "conc_calls_per_s": total / wall,
        "conc_p99_ms": pct(conc_lat, 0.99),
        "cpu_ms_per_call_conc": (cpu_seconds(pid) - started[1]) / total * 1000,
    }


async def list_time(url: str, repeats: int = 10) -> tuple[int, float]:
    times: list[float] = []
    async with Client(url) as client:
        for _ in range(repeats):
            t = time.perf_counter()
            listing = await client.list_tools(cache_mode="bypass")
            times.append((time.perf_counter() - t) * 1000)
    return len(listing.tools), statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=500, help="sequential calls per server")
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--per-client", type=int, default=60, help="calls per concurrent client")
    ap.add_argument("--catalog", type=Path, default=None, help="catalog for our server (default: tools_en.jsonl if present)")
    opts = ap.parse_args()
    catalog = opts.catalog or (WTB if WTB.exists() else None)
    ours_port, echo_port = free_port(), free_port()
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "env_server.cli", "serve", "--port", str(ours_port), "--db", f"{tmp}/bench.duckdb"]
        if catalog:
            cmd += ["--catalog", str(catalog)]
        ours = start(cmd, ours_port)
        echo = start([sys.executable, "bench/echo_server.py", str(echo_port)], echo_port)
        try:
            if catalog == WTB:
                tool, make_args = "getRealtimeCityAQI", lambda i: {"city": f"City{i}"}
            else:
                tool, make_args = "openmeteo_get_air_quality", lambda i: {"latitude": (i % 180) - 89.5, "longitude": 1.0}
            full_cmd = [sys.executable, "-m", "env_server.cli", "serve", "--port", str(free_port())]
            res_echo = anyio.run(measure, f"http://127.0.0.1:{echo_port}/mcp", echo.pid, "echo",
                                 lambda i: {"msg": f"hello {i}"}, opts.calls, opts.concurrency, opts.per_client)
            res_ours = anyio.run(measure, f"http://127.0.0.1:{ours_port}/mcp", ours.pid, tool, make_args,
                                 opts.calls, opts.concurrency, opts.per_client)
        finally:
            ours.terminate()
            echo.terminate()
        # tools/list over the built-in catalog (the full default listing).
        port = int(full_cmd[-1])
        full = start(full_cmd + ["--db", f"{tmp}/list.duckdb"], port)
        try:
            n_tools, list_ms = anyio.run(list_time, f"http://127.0.0.1:{port}/mcp")
        finally:
            full.terminate()
    print(f"catalog for call bench: {catalog or 'built-in'}; tool: {tool}")
    print(f"{'metric':<24}{'ours':>10}{'echo':>10}{'ours/echo':>11}")
    for key in res_ours:
        o, e = res_ours[key], res_echo[key]
        print(f"{key:<24}{o:>10.2f}{e:>10.2f}{o / e:>11.2f}")
    print(f"tools/list ({n_tools} tools, built-in catalog, SDK client, median of 10): {list_ms:.1f} ms")


if __name__ == "__main__":
    main()
