"""The HTTP part of ``bench_rollouts.py``: rollouts over a real server, single routes and batches,
and where a batched step's server time goes.

* ``bench_http``: starts ``toolenv serve --durability D`` in a subprocess (on a temporary DuckDB
  file; the server gets the CPUs this process is not pinned to) and plays
  oracle episodes over built-in scenarios with ``RolloutClient``: once with the single routes
  (``concurrency`` envs in flight), then with the batch routes for each batch size B (B envs in
  flight, one ``/v1/envs/batch/step`` request of B steps per round). Per run it prints steps/s
  (steps only, i.e. the time inside ``step_many``; and with resets) and the CPU each process
  spent per step, which stays meaningful when other work shares the machine; the server's CPU
  inside ``step_many`` is split into its env thread (the steps, in the registry's worker) and
  its event loop (HTTP, routing, body validation: the main thread).
* ``bench_batch_breakdown``: the batch route's stages in process, on an environment built like
  the server's (durability D, one DuckDB file): request decoding and validation, the env
  steps, and the JSON encoding of the answer, per step.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
from pydantic import TypeAdapter
from pydantic_core import to_json

from clients.rollout_client import RolloutClient
from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.rl import OraclePolicy, default_environment
from env_server.rl.api import EnvRegistry
from env_server.rl.batch import BatchStepItem, attempt
from env_server.rl.http_ops import EnvCreateRequest, EnvOps
from env_server.rl.scenarios import ScenarioPool
from env_server.runner import build_environment, freeze_startup_heap
from state.store import Durability

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Tally:
    """What happened inside ``step_many`` calls: steps, seconds, and CPU seconds per process."""

    steps: int = 0
    step_s: float = 0.0  # time inside step_many
    step_cpu_s: float = 0.0  # this process's CPU inside step_many (encoding actions, decoding answers)
    server_step_cpu_s: float = 0.0  # the server's CPU meanwhile (/proc ticks: 10 ms grain, averaged out)
    server_loop_cpu_s: float = 0.0  # of which its main thread's: the event loop (HTTP, routing, validation)

    def add(self, other: Tally) -> None:
        self.steps += other.steps
        self.step_s += other.step_s
        self.step_cpu_s += other.step_cpu_s
        self.server_step_cpu_s += other.server_step_cpu_s
        self.server_loop_cpu_s += other.server_loop_cpu_s


@dataclass
class Run:
    label: str
    episodes: int
    tally: Tally
    wall_s: float
    client_cpu_s: float
    server_cpu_s: float

    @property
    def steps(self) -> int:
        return self.tally.steps

    @property
    def steps_per_s(self) -> float:
        return self.tally.steps / self.tally.step_s

    def line(self) -> str:
        per, t = 1e6 / self.steps, self.tally
        loop = t.server_loop_cpu_s * per
        return (f"  {self.label:<28} {self.steps_per_s:7.0f} steps/s  (with resets {self.steps / self.wall_s:6.0f}; "
                f"{self.steps} steps; CPU per step: client {self.client_cpu_s * per:4.0f} us, of which in step_many "
                f"{t.step_cpu_s * per:3.0f} us; server {self.server_cpu_s * per:4.0f} us, of which in step_many "
                f"{t.server_step_cpu_s * per:3.0f} us: env thread {t.server_step_cpu_s * per - loop:3.0f}, "
                f"event loop {loop:3.0f})")


@contextmanager
def toolenv_server(token: str, durability: Durability) -> Iterator[tuple[str, int]]:
    """``toolenv serve`` on a free port with a temporary database; yields (url, pid)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "env_server.cli", "serve", "--port", str(port), "--db", str(Path(tmp) / "b.duckdb"),
               "--durability", durability.value]
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env={**os.environ, "TOOLENV_ADMIN_TOKEN": token})
        others = set(range(os.cpu_count() or 1)) - os.sched_getaffinity(0)
        if others:  # the server gets its own CPU(s); the client keeps the pinned one
            os.sched_setaffinity(proc.pid, others)
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_up(url, proc)
            yield url, proc.pid
        finally:
            proc.terminate()
            proc.wait(10)


def _wait_up(url: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(url + "/", timeout=1)  # any answer means it is up
            return
        except httpx.TransportError:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("server did not start") from None
            time.sleep(0.1)


def cpu_seconds(pid: int, tid: int | None = None) -> float:
    """CPU seconds of process ``pid``, or of its thread ``tid`` (the main thread's tid is the pid)."""
    stat = Path(f"/proc/{pid}/stat" if tid is None else f"/proc/{pid}/task/{tid}/stat")
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench_http(episodes: int, concurrency: int, batch_sizes: list[int], durability: Durability) -> list[Run]:
    token = secrets.token_urlsafe(24)  # built-in scenarios are evaluation split: their envs need it
    runs: list[Run] = []
    with toolenv_server(token, durability) as (url, pid):
        plans: list[tuple[str, dict[str, Any], int, int]] = []
        if episodes:
            plans.append((f"single routes, {concurrency} in flight", {"batch": False, "concurrency": concurrency},
                          episodes, concurrency))
        for size in batch_sizes:
            plans.append((f"batch {size}", {"batch": True, "batch_size": size, "concurrency": 1},
                          max(2 * size, 128), size))
        anyio.run(_warm_up, url, token)
        for label, options, n, in_flight in plans:
            cpu0, server0 = time.process_time(), cpu_seconds(pid)
            tally, wall_s = anyio.run(_rollouts, url, token, pid, options, n, in_flight)
            runs.append(Run(label, n, tally, wall_s, time.process_time() - cpu0, cpu_seconds(pid) - server0))
            print(runs[-1].line(), flush=True)
    return runs


async def _warm_up(url: str, token: str) -> None:
    """One episode of every built-in scenario, so no run pays for the server's first-use caches."""
    specs = ScenarioPool(default_environment()).specs
    async with RolloutClient(url, admin_token=token, batch=True) as client:
        resets = await client.reset_many([{"options": {"scenario_id": s}} for s in specs])
        await _play(client, resets, specs)


async def _rollouts(url: str, token: str, pid: int, options: dict[str, Any], episodes: int, in_flight: int
                    ) -> tuple[Tally, float]:
    specs = ScenarioPool(default_environment()).specs
    tally = Tally()
    async with RolloutClient(url, admin_token=token, **options) as client:
        started = time.perf_counter()
        for first in range(0, episodes, in_flight):
            resets = await client.reset_many([{"seed": s} for s in range(first, min(episodes, first + in_flight))])
            tally.add(await _play(client, resets, specs, pid))
        wall = time.perf_counter() - started
    return tally, wall


async def _play(client: RolloutClient, resets: list[Any], specs: dict[str, Any], pid: int | None = None) -> Tally:
    """Oracle episodes for ``resets`` to the end, tallied inside step_many (the server's CPU when
    ``pid`` is given); closes the envs."""
    policies = {r.env_id: OraclePolicy(specs[r.info["scenario_id"]]) for r in resets}
    latest = {r.env_id: (r.observation, r.info) for r in resets}
    tally = Tally()
    while latest:
        batch = [(env_id, policies[env_id](*latest[env_id])) for env_id in latest]
        s0, l0 = (cpu_seconds(pid), cpu_seconds(pid, pid)) if pid else (0.0, 0.0)
        t0, c0 = time.perf_counter(), time.process_time()
        results = await client.step_many(batch)
        tally.step_s += time.perf_counter() - t0
        tally.step_cpu_s += time.process_time() - c0
        if pid:
            tally.server_step_cpu_s += cpu_seconds(pid) - s0
            tally.server_loop_cpu_s += cpu_seconds(pid, pid) - l0
        tally.steps += len(results)
        for result in results:
            latest[result.env_id] = (result.observation, result.info)
            if result.done:
                del latest[result.env_id]
    await client.close_many(list(policies))
    return tally


STAGES = ("request decode + validation", "env steps", "JSON encode")


def bench_batch_breakdown(size: int, rounds: int, durability: Durability) -> dict[str, float]:
    """CPU microseconds per step of each stage of ``/v1/envs/batch/step`` for batches of ``size``, in process."""
    with tempfile.TemporaryDirectory() as tmp:
        environment = build_environment(load_catalog(), ServerSettings(
            db_path=Path(tmp) / "b.duckdb", admin_token="t", durability=durability))
        freeze_startup_heap()  # as the server does once its environment is built
        ops = EnvOps(environment, EnvRegistry(environment))
        specs = ScenarioPool(environment).specs
        for first in range(0, len(specs), size):  # warm-up, untimed: every scenario's first-use caches
            _batched_episodes(ops, specs, [{"options": {"scenario_id": s}} for s in list(specs)[first:first + size]])
        totals = dict.fromkeys(STAGES, 0.0)
        steps, answer_bytes = 0, 0
        for k in range(rounds):
            n, size_bytes = _batched_episodes(ops, specs, [{"seed": k * size + j} for j in range(size)], totals)
            steps, answer_bytes = steps + n, answer_bytes + size_bytes
        environment.close()
    per_step = {key: value * 1e6 / steps for key, value in totals.items()}
    total = sum(per_step.values())
    print(f"batch/step server stages in process (batch {size}, {steps} steps, {durability.value} durability, "
          f"answer {answer_bytes / steps:.0f} bytes per step):")
    for key, value in per_step.items():
        print(f"  {key:<28} {value:6.1f} us CPU per step ({value / total:4.0%})")
    print(f"  {'sum':<28} {total:6.1f} us CPU per step (= {1e6 / total:.0f} steps/s on one free core, before HTTP)")
    return per_step


def _batched_episodes(ops: EnvOps, specs: dict[str, Any], resets: list[dict[str, Any]],
                      totals: dict[str, float] | None = None) -> tuple[int, int]:
    """Oracle episodes stepped as the batch route steps them; adds each stage's CPU seconds to
    ``totals``; returns (steps, answer bytes)."""
    created = [ops.create(EnvCreateRequest.model_validate(r), "Bearer t") for r in resets]
    policies = {c.env_id: OraclePolicy(specs[c.info["scenario_id"]]) for c in created}
    latest: dict[str, tuple[Any, Any]] = {c.env_id: (c.observation, c.info) for c in created}
    items_adapter = TypeAdapter(list[BatchStepItem])
    steps, answer_bytes = 0, 0
    while latest:
        body = json.dumps({"items": [{"env_id": e, "action": policies[e](*latest[e])} for e in latest]})
        # What step_all does, stage by stage, in this thread's CPU time: other work on the
        # machine stretches wall times, not CPU times.
        t0 = time.thread_time()
        items = items_adapter.validate_python(json.loads(body)["items"])
        t1 = time.thread_time()
        outcomes = [attempt(lambda i=i: ops.step_timed(i.env_id, i.action, "Bearer t")[0], 200) for i in items]
        t2 = time.thread_time()
        encoded = to_json({"results": outcomes})
        t3 = time.thread_time()
        if totals is not None:
            for key, dt in zip(STAGES, (t1 - t0, t2 - t1, t3 - t2), strict=True):
                totals[key] += dt
        steps, answer_bytes = steps + len(items), answer_bytes + len(encoded)
        for item, outcome in zip(items, outcomes, strict=True):
            result = outcome["result"]
            latest[item.env_id] = (result["observation"], result["info"])
            if result["terminated"] or result["truncated"]:
                del latest[item.env_id]
    for c in created:
        ops.envs.remove(c.env_id)
    return steps, answer_bytes
