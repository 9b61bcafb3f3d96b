"""Benchmark: RL rollouts in process and over HTTP, reset/fork/generator time, memory, soak.

Figures are printed; nothing is asserted. Parts (all run by default):

* **in-process**: steps/s on one core (the process is pinned to one CPU) with the oracle
  policy cycling over every built-in scenario, on ``default_environment()`` (ephemeral
  durability). "steps only" times ``env.step`` alone; "with resets" is the wall time of the
  whole loop (reset, policy and step) divided into the steps.
* **reset / fork / generator**: per call, median and p90; fork is ``fork(1)`` three steps into
  an episode; generator is a reset with ``options={"generator": {}}`` for fresh seeds
  (``generate_scenario`` plus the reset).
* **memory**: RSS (``/proc/self/status``) before and after opening ``--open-envs`` envs, each
  reset and two steps into its episode, per env; then after closing them all.
* **soak**: ``--soak-episodes`` oracle episodes on one env (every 10th forks twice, every
  200th plays a freshly generated scenario), RSS after each window and growth per 10k episodes,
  plus the environment's held counts at the end (all zero means nothing leaked).
* **http**: a real server (``toolenv serve`` in a subprocess, server defaults: journal
  durability on a temporary DuckDB file) driven by ``clients.rollout_client.RolloutClient``
  with ``--http-concurrency`` envs in flight; steps/s seen by the client.

Run: ``python bench/bench_rollouts.py`` (about a minute and a half), or e.g.
``python bench/bench_rollouts.py --soak-episodes 100000`` for the long soak.
"""

from __future__ import annotations

import argparse
import gc
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clients.rollout_client import RolloutClient  # noqa: E402
from env_server.rl import OraclePolicy, ToolEnv, default_environment  # noqa: E402
from env_server.rl.scenarios import ScenarioPool  # noqa: E402


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1e3:.3f} ms, p90 {pct(values, 0.9) * 1e3:.3f} ms (n={len(values)})"


def play_episode(env: ToolEnv, obs: Any, info: dict[str, Any], step_times: list[float] | None = None) -> int:
    policy = OraclePolicy(env.scenario)
    steps = 0
    while True:
        action = policy(obs, info)
        started = time.perf_counter()
        obs, _, terminated, truncated, info = env.step(action)
        if step_times is not None:
            step_times.append(time.perf_counter() - started)
        steps += 1
        if terminated or truncated:
            return steps


def bench_in_process(episodes: int) -> None:
    env = ToolEnv()
    ids = env.pool.ids
    for scenario_id in ids:  # warm the per-scenario caches and the oracle plans
        play_episode(env, *env.reset(options={"scenario_id": scenario_id}))
    step_times: list[float] = []
    reset_times: list[float] = []
    steps = 0
    started = time.perf_counter()
    for k in range(episodes):
        t0 = time.perf_counter()
        obs, info = env.reset(options={"scenario_id": ids[k % len(ids)]})
        reset_times.append(time.perf_counter() - t0)
        steps += play_episode(env, obs, info, step_times)
    wall = time.perf_counter() - started
    env.close()
    print(f"in-process, oracle over {len(ids)} built-in scenarios, {episodes} episodes, {steps} steps:")
    print(f"  steps only:   {steps / sum(step_times):8.0f} steps/s  (step {ms(step_times)})")
    print(f"  with resets:  {steps / wall:8.0f} steps/s  ({episodes / wall:.0f} episodes/s)")
    print(f"  reset:        {ms(reset_times)}")


def bench_fork(samples: int) -> None:
    env = ToolEnv()
    ids = env.pool.ids
    times: list[float] = []
    times8: list[float] = []
    for k in range(samples):
        obs, info = env.reset(options={"scenario_id": ids[k % len(ids)]})
        policy = OraclePolicy(env.scenario)
        for _ in range(3):
            obs, _, terminated, truncated, info = env.step(policy(obs, info))
            if terminated or truncated:
                break
        t0 = time.perf_counter()
        forks = env.fork(1)
        times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        forks += env.fork(8)
        times8.append((time.perf_counter() - t0) / 8)
        for fork in forks:
            fork.close()
    env.close()
    print(f"fork(1) three steps in:  {ms(times)}")
    print(f"fork(8), per fork:       {ms(times8)}")


def bench_generator(seeds: int) -> None:
    env = ToolEnv()
    env.reset(seed=10_000, options={"generator": {}})  # warm the catalog-level caches
    times: list[float] = []
    replay: list[float] = []
    for seed in range(seeds):
        t0 = time.perf_counter()
        obs, info = env.reset(seed=seed, options={"generator": {}})
        times.append(time.perf_counter() - t0)
        play_episode(env, obs, info)
        t0 = time.perf_counter()
        env.reset(seed=seed, options={"generator": {}})  # the same seed again: served from the pool's LRU
        replay.append(time.perf_counter() - t0)
    env.close()
    print(f"generator, reset with a fresh seed:   {ms(times)}")
    print(f"generator, reset with a cached seed:  {ms(replay)}")


def bench_memory(open_envs: int) -> None:
    environment = default_environment()
    gc.collect()
    before = rss_mb()
    envs = []
    for k in range(open_envs):
        env = ToolEnv(environment)
        obs, info = env.reset(seed=k)
        policy = OraclePolicy(env.scenario)
        for _ in range(2):
            obs, _, terminated, truncated, info = env.step(policy(obs, info))
            if terminated or truncated:
                break
        envs.append(env)
    gc.collect()
    held = rss_mb()
    counts = environment.held_counts()
    for env in envs:
        env.close()
    envs.clear()
    gc.collect()
    after = rss_mb()
    print(f"memory: {open_envs} open envs (each reset + 2 steps): RSS {before:.1f} -> {held:.1f} MB, "
          f"{(held - before) * 1024 / open_envs:.1f} KB per env; held {counts}")
    print(f"        after closing them all: RSS {after:.1f} MB; held {environment.held_counts()}")


def bench_soak(episodes: int) -> None:
    environment = default_environment()
    env = ToolEnv(environment)
    pool: ScenarioPool = env.pool
    window = max(1, min(10_000, episodes // 5))
    gc.collect()
    start_rss = rss_mb()
    marks: list[tuple[int, float]] = [(0, start_rss)]
    started = time.perf_counter()
    steps = 0
    for k in range(episodes):
        options = {"generator": {}} if k % 200 == 199 else None
        obs, info = env.reset(seed=k, options=options)
        if k % 10 == 5:
            policy = OraclePolicy(env.scenario)
            obs, _, terminated, truncated, info = env.step(policy(obs, info))
            if not (terminated or truncated):
                for fork in env.fork(2):
                    steps += play_episode(fork, obs, info)
                    fork.close()
        steps += play_episode(env, obs, info)
        if (k + 1) % window == 0:
            gc.collect()
            marks.append((k + 1, rss_mb()))
    env.close()
    wall = time.perf_counter() - started
    print(f"soak: {episodes} episodes ({steps} steps) in {wall:.1f} s; RSS by episode: "
          + ", ".join(f"{n}: {r:.1f} MB" for n, r in marks))
    if len(marks) >= 3:
        # Growth after the first window (which fills the per-scenario and generator caches).
        (n0, r0), (n1, r1) = marks[1], marks[-1]
        print(f"      RSS growth after warm-up: {(r1 - r0) / (n1 - n0) * 10_000:+.2f} MB per 10k episodes "
              f"(first window: {marks[1][1] - marks[0][1]:+.1f} MB)")
    print(f"      held at the end: {environment.held_counts()}, generated scenarios cached: "
          f"{pool.generated_count()} (max {pool.max_generated})")


def bench_http(episodes: int, concurrency: int) -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    token = secrets.token_urlsafe(24)  # built-in scenarios are evaluation split: their envs need it
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "env_server.cli", "serve", "--port", str(port), "--db", str(Path(tmp) / "b.duckdb")]
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env={**os.environ, "TOOLENV_ADMIN_TOKEN": token})
        others = set(range(os.cpu_count() or 1)) - os.sched_getaffinity(0)
        if others:  # the server gets its own CPU(s); the client keeps the pinned one
            os.sched_setaffinity(proc.pid, others)
        try:
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx.get(url + "/", timeout=1)  # any answer means it is up
                    break
                except httpx.TransportError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise RuntimeError("server did not start") from None
                    time.sleep(0.1)
            cpu0, server0 = time.process_time(), _cpu_seconds(proc.pid)
            anyio.run(_http_rollouts, url, episodes, concurrency, token)
            print(f"  CPU used: client {time.process_time() - cpu0:.1f} s, server {_cpu_seconds(proc.pid) - server0:.1f} s")
        finally:
            proc.terminate()
            proc.wait(10)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _http_rollouts(url: str, episodes: int, concurrency: int, token: str) -> None:
    specs = ScenarioPool(default_environment()).specs
    async with RolloutClient(url, concurrency=concurrency, admin_token=token) as client:
        warm = await client.reset(seed=0)
        await client.close_env(warm.env_id)
        steps = 0
        step_time = 0.0
        started = time.perf_counter()
        for first in range(0, episodes, concurrency):
            resets = await client.reset_many([{"seed": s} for s in range(first, min(episodes, first + concurrency))])
            policies = {r.env_id: OraclePolicy(specs[r.info["scenario_id"]]) for r in resets}
            latest = {r.env_id: (r.observation, r.info) for r in resets}
            while latest:
                batch = [(env_id, policies[env_id](*latest[env_id])) for env_id in latest]
                t0 = time.perf_counter()
                results = await client.step_many(batch)
                step_time += time.perf_counter() - t0
                steps += len(results)
                for result in results:
                    latest[result.env_id] = (result.observation, result.info)
                    if result.done:
                        del latest[result.env_id]
            await client.close_many(list(policies))
        wall = time.perf_counter() - started
    print(f"http ({concurrency} envs in flight, server defaults), {episodes} episodes, {steps} steps:")
    print(f"  steps only:   {steps / step_time:8.0f} steps/s")
    print(f"  with resets:  {steps / wall:8.0f} steps/s  ({episodes / wall:.0f} episodes/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=600, help="in-process timed episodes")
    parser.add_argument("--fork-samples", type=int, default=100)
    parser.add_argument("--generator-seeds", type=int, default=20)
    parser.add_argument("--open-envs", type=int, default=2000)
    parser.add_argument("--soak-episodes", type=int, default=20_000, help="0 skips the soak")
    parser.add_argument("--http-episodes", type=int, default=256, help="0 skips the HTTP part")
    parser.add_argument("--http-concurrency", type=int, default=32)
    parser.add_argument("--cpu", type=int, default=0, help="CPU to pin this process to (the server gets the others)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    print(f"python {sys.version.split()[0]}, pinned to CPU {args.cpu}, RSS at start {rss_mb():.1f} MB")
    t0 = time.perf_counter()
    default_environment()
    print(f"default_environment() (catalog load): {(time.perf_counter() - t0) * 1e3:.0f} ms")
    bench_in_process(args.episodes)
    bench_fork(args.fork_samples)
    bench_generator(args.generator_seeds)
    bench_memory(args.open_envs)
    if args.soak_episodes:
        bench_soak(args.soak_episodes)
    if args.http_episodes:
        bench_http(args.http_episodes, args.http_concurrency)


if __name__ == "__main__":
    main()
