"""Benchmark: toolenv vs a bare MCP echo server, same SDK and transport, measured in one run.

Reports, for each server: median and p99 ``call_tool`` latency over sequential calls,
throughput and p99 with 16 concurrent clients, and server CPU per call (the on-CPU time of
every thread of the server process, so it includes the journal flusher and DuckDB's
threads; each round's window runs until that server's next round, so the batch a round
leaves behind is billed to it); then the ratios
ours/echo and the ``tools/list`` time of our full built-in listing.

Method. A shared two-core VM drifts by tens of percent within a minute, so the two servers
are measured in alternating rounds (echo then ours, ours then echo, ...) and every ratio
is the median of the per-round ratios, printed with its range. With ``--pin`` (the default
when the machine has two or more CPUs) both servers run on CPU 1 and the client on CPU 0,
so the client's own work is not billed to, or scheduled against, the server being measured.

Run: ``python bench/bench_server.py [--calls 6000] [--rounds 40] [--catalog PATH] [--no-pin]
[--variant full|fixed-result|no-log]``. A variant (``bench/serve_variant.py``) serves ours with
parts of the call path taken out, to price them: ``fixed-result`` skips the value engine after
a tool's first call, ``no-log`` also skips the call log and journal.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx
from mcp import Client

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from state.store import FLUSH_IDLE_S, FLUSH_POLL_S  # noqa: E402

WTB = ROOT.parent / "shared" / "data" / "wildtoolbench" / "tools_en.jsonl"
TICKS = os.sysconf("SC_CLK_TCK")
SERVER_CPU, CLIENT_CPU = 1, 0
# A round's CPU window runs from its first call until the same server's next round is set
# up, so background work the calls left behind (our journal flusher writes a batch to
# DuckDB once calls pause FLUSH_IDLE_S) is billed to them even though it runs while the
# other server is being measured. After the last round both servers get SETTLE_S.
SETTLE_S = FLUSH_IDLE_S + FLUSH_POLL_S + 0.75


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """CPU time of all the process's threads, in ns resolution from each thread's
    schedstat; /proc/<pid>/stat counts in 10 ms ticks, a few percent of a round."""
    try:
        return sum(int((task / "schedstat").read_text().split()[0])
                   for task in Path(f"/proc/{pid}/task").iterdir()) / 1e9
    except (OSError, ValueError):  # a thread that exits mid-read, or no schedstat
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS


def start(cmd: list[str], port: int, pin: bool) -> subprocess.Popen[bytes]:
    # taskset pins the process before its first instruction, so every thread it starts
    # (uvicorn's loop, the flusher, DuckDB's workers) inherits the CPU.
    prefix = ["taskset", "-c", str(SERVER_CPU)] if pin else []
    proc = subprocess.Popen(prefix + cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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


@dataclass
class Target:
    """One server under test and everything measured on it."""

    name: str
    url: str
    pid: int
    tool: str
    make_args: Callable[[int], dict[str, Any]]
    seq_latency: list[float] = field(default_factory=list)
    seq_cpu: list[float] = field(default_factory=list)  # ms of server CPU per call, per round
    conc_latency: list[float] = field(default_factory=list)
    conc_cpu: list[float] = field(default_factory=list)
    conc_rate: list[float] = field(default_factory=list)  # calls/s, per round
    conc_p99: list[float] = field(default_factory=list)  # per round
    window: tuple[float, int, list[float]] | None = None  # open CPU window: start, calls, sink

    def open_window(self, calls: int, sink: list[float]) -> None:
        self.close_window()
        self.window = (cpu_seconds(self.pid), calls, sink)

    def close_window(self) -> None:
        """Bill the CPU since the window opened (calls and their background work)."""
        if self.window is not None:
            start, calls, sink = self.window
            sink.append((cpu_seconds(self.pid) - start) / calls * 1000)
            self.window = None


async def sequential_round(target: Target, client: Client, calls: int, offset: int) -> None:
    target.open_window(calls, target.seq_cpu)
    for i in range(calls):
        t = time.perf_counter()
        await client.call_tool(target.tool, target.make_args(offset + i))
        target.seq_latency.append((time.perf_counter() - t) * 1000)


async def concurrent_round(target: Target, clients: list[Client], per_client: int, offset: int) -> None:
    latencies: list[float] = []

    async def worker(k: int, client: Client) -> None:
        for i in range(per_client):
            t = time.perf_counter()
            await client.call_tool(target.tool, target.make_args(offset + 10_000 * (k + 1) + i))
            latencies.append((time.perf_counter() - t) * 1000)

    total = len(clients) * per_client
    target.open_window(total, target.conc_cpu)
    t0 = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for k, client in enumerate(clients):
            tg.start_soon(worker, k, client)
    wall = time.perf_counter() - t0
    target.conc_rate.append(total / wall)
    target.conc_p99.append(pct(latencies, 0.99))
    target.conc_latency += latencies


async def measure(targets: list[Target], opts: argparse.Namespace) -> None:
    per_round = max(1, opts.calls // opts.rounds)
    async with Client(targets[0].url) as c0, Client(targets[1].url) as c1:
        clients = {targets[0].name: c0, targets[1].name: c1}
        for target in targets:  # warm up: the listing the client needs, then a few calls
            await clients[target.name].list_tools()
            for i in range(50):
                await clients[target.name].call_tool(target.tool, target.make_args(-1 - i))
        await anyio.sleep(SETTLE_S)  # the warm-up's background work is not billed
        for r in range(opts.rounds):
            for target in targets if r % 2 == 0 else targets[::-1]:
                await sequential_round(target, clients[target.name], per_round, r * per_round)
    await anyio.sleep(SETTLE_S)
    for target in targets:
        target.close_window()
    for r in range(opts.conc_rounds):
        for target in targets if r % 2 == 0 else targets[::-1]:
            target.close_window()  # before this round's clients connect and list
            async with contextlib.AsyncExitStack() as stack:
                conc_clients = [await stack.enter_async_context(Client(target.url)) for _ in range(opts.concurrency)]
                # Each lists once, as a real client does, and makes one untimed call: the
                # SDK client compiles the tool's output-schema validator (check_schema, a
                # few ms of client CPU) on its first call, and 16 of those at once were
                # the slowest 2% of a round -- client cost, not the server's.
                for k, client in enumerate(conc_clients):
                    await client.list_tools()
                    await client.call_tool(target.tool, target.make_args(-1 - k))
                await concurrent_round(target, conc_clients, opts.per_client, 1_000_000 * (r + 1))
    await anyio.sleep(SETTLE_S)
    for target in targets:
        target.close_window()


async def list_time(url: str, repeats: int = 10) -> tuple[int, float]:
    times: list[float] = []
    async with Client(url) as client:
        for _ in range(repeats):
            t = time.perf_counter()
            listing = await client.list_tools(cache_mode="bypass")
            times.append((time.perf_counter() - t) * 1000)
    return len(listing.tools), statistics.median(times)


def ratio_line(label: str, pooled: tuple[float, float], ours: list[float] | None = None,
               echo: list[float] | None = None) -> str:
    """One metric: pooled values, then the median per-round ratio and its range (or, for
    rows measured only over all calls together, the pooled ratio)."""
    head = f"{label:<26}{pooled[0]:>9.2f}{pooled[1]:>9.2f}"
    if ours is None or echo is None:
        return f"{head}{pooled[0] / pooled[1]:>10.2f}   (pooled)"
    per_round = [o / e for o, e in zip(ours, echo, strict=True) if e > 0]
    return f"{head}{statistics.median(per_round):>10.2f}   {min(per_round):.2f}-{max(per_round):.2f}"


def built_in_listing(tmp: str, pin: bool) -> tuple[int, float]:
    """tools/list over the built-in catalog (the full default listing): tools and median ms."""
    port = free_port()
    full = start([sys.executable, "-m", "env_server.cli", "serve", "--port", str(port), "--db", f"{tmp}/list.duckdb"],
                 port, pin)
    try:
        return anyio.run(list_time, f"http://127.0.0.1:{port}/mcp")
    finally:
        full.terminate()


def report(ours: Target, echo: Target, catalog: Path | None, pinned: bool, listing: tuple[int, float] | None,
           variant: str) -> None:
    placement = f"client on CPU {CLIENT_CPU}, servers on CPU {SERVER_CPU}" if pinned else "not pinned"
    shown = "" if variant == "full" else f"; ours served as variant {variant} (bench/serve_variant.py)"
    print(f"catalog for call bench: {catalog or 'built-in'}; tool: {ours.tool}; {placement}{shown}")
    print(f"{'metric':<26}{'ours':>9}{'echo':>9}{'ratio':>10}   per-round range")
    print(ratio_line("median_ms (sequential)",
                     (statistics.median(ours.seq_latency), statistics.median(echo.seq_latency))))
    print(ratio_line("p99_ms (sequential)", (pct(ours.seq_latency, 0.99), pct(echo.seq_latency, 0.99))))
    print(ratio_line("cpu_ms_per_call (seq)", (statistics.mean(ours.seq_cpu), statistics.mean(echo.seq_cpu)),
                     ours.seq_cpu, echo.seq_cpu))
    print(ratio_line("conc_calls_per_s (16)",
                     (statistics.median(ours.conc_rate), statistics.median(echo.conc_rate)),
                     ours.conc_rate, echo.conc_rate))
    print(ratio_line("conc_p99_ms (16)", (pct(ours.conc_latency, 0.99), pct(echo.conc_latency, 0.99)),
                     ours.conc_p99, echo.conc_p99))
    print(ratio_line("cpu_ms_per_call (16)", (statistics.mean(ours.conc_cpu), statistics.mean(echo.conc_cpu)),
                     ours.conc_cpu, echo.conc_cpu))
    print("ratio = median over rounds of ours/echo, or (pooled) over all calls")
    if listing is not None:
        print(f"tools/list ({listing[0]} tools, built-in catalog, SDK client, median of 10): {listing[1]:.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=6000, help="sequential calls per server, over all rounds")
    ap.add_argument("--rounds", type=int, default=40, help="alternating sequential rounds")
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--per-client", type=int, default=60, help="calls per concurrent client per round")
    ap.add_argument("--conc-rounds", type=int, default=24,
                    help="alternating concurrent rounds (a round's CPU ratio varies by +-20%% on a shared VM)")
    ap.add_argument("--catalog", type=Path, default=None, help="catalog for our server (default: tools_en.jsonl if present)")
    ap.add_argument("--pin", action=argparse.BooleanOptionalAction, default=(os.cpu_count() or 1) >= 2,
                    help="servers on CPU 1, this client on CPU 0 (default: on with 2+ CPUs)")
    ap.add_argument("--variant", choices=("full", "fixed-result", "no-log"), default="full",
                    help="serve ours with parts of the call path taken out (bench/serve_variant.py)")
    ap.add_argument("--no-listing", action="store_true", help="skip the tools/list measurement")
    opts = ap.parse_args()
    catalog = opts.catalog or (WTB if WTB.exists() else None)
    if opts.pin:
        os.sched_setaffinity(0, {CLIENT_CPU})
    ours_port, echo_port = free_port(), free_port()
    with tempfile.TemporaryDirectory() as tmp:
        launcher = ["-m", "env_server.cli"] if opts.variant == "full" else ["bench/serve_variant.py", opts.variant]
        cmd = [sys.executable, *launcher, "serve", "--port", str(ours_port), "--db", f"{tmp}/bench.duckdb"]
        if catalog:
            cmd += ["--catalog", str(catalog)]
        ours_proc = start(cmd, ours_port, opts.pin)
        echo_proc = start([sys.executable, "bench/echo_server.py", str(echo_port)], echo_port, opts.pin)
        try:
            if catalog == WTB:
                tool, make_args = "getRealtimeCityAQI", lambda i: {"city": f"City{i}"}
            else:
                tool, make_args = "openmeteo_get_air_quality", lambda i: {"latitude": (i % 180) - 89.5, "longitude": 1.0}
            ours = Target("ours", f"http://127.0.0.1:{ours_port}/mcp", ours_proc.pid, tool, make_args)
            echo = Target("echo", f"http://127.0.0.1:{echo_port}/mcp", echo_proc.pid, "echo",
                          lambda i: {"msg": f"hello {i}"})
            anyio.run(measure, [echo, ours], opts)
        finally:
            ours_proc.terminate()
            echo_proc.terminate()
        listing = None if opts.no_listing else built_in_listing(tmp, opts.pin)
    report(ours, echo, catalog, opts.pin, listing, opts.variant)


if __name__ == "__main__":
    main()
