"""Time from ``toolenv serve`` launch to a healthy HTTP endpoint, on the built-in catalog.

Run: ``python bench/bench_startup.py [--runs 3]``. Also prints the catalog load time alone.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from env_server.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def startup_seconds(db: str) -> float:
    port = free_port()
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "env_server.cli", "serve", "--port", str(port), "--db", db],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/v1/health", timeout=0.5).status_code == 200:
                    return time.perf_counter() - t0
            except httpx.TransportError:
                time.sleep(0.02)
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=3)
    opts = ap.parse_args()
    t = time.perf_counter()
    catalog = load_catalog()
    print(f"catalog load: {len(catalog)} tools in {time.perf_counter() - t:.2f} s (in-process)")
    with tempfile.TemporaryDirectory() as tmp:
        runs = [startup_seconds(f"{tmp}/s{i}.duckdb") for i in range(opts.runs)]
    print(f"toolenv serve to healthy: median {statistics.median(runs):.2f} s over {opts.runs} runs {[round(r, 2) for r in runs]}")


if __name__ == "__main__":
    main()
