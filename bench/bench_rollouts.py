"""Benchmark: RL rollouts in process and over HTTP, reset/fork/generator time, memory, soak.

Figures are printed; nothing is asserted. Parts (all run by default):

* **in-process**: steps/s on one core (the process is pinned to one CPU) with the oracle
  policy cycling over every built-in scenario, on ``default_environment()`` (ephemeral
  durability), under the collector policy of ``toolenv serve`` (``freeze_startup_heap``).
  "steps only" times ``env.step`` alone; "with resets" is the wall time of the whole loop
  (reset, policy and step) divided into the steps.
* **reset / fork / generator**: per call, median and p90; fork is ``fork(1)`` three steps into
  an episode; generator is a reset with ``options={"generator": {}}`` for fresh seeds
  (``generate_scenario`` plus the reset).
* **memory**: RSS (``/proc/self/status``) before and after opening ``--open-envs`` envs, each
  reset and two steps into its episode, per env; then after closing them all.
* **soak**: ``--soak-episodes`` oracle episodes on one env (every 10th forks twice, every
  200th plays a freshly generated scenario), RSS after each window and growth per 10k episodes,
  plus the environment's held counts at the end (all zero means nothing leaked).
* **http** (``rollouts_http.py``): a real server (``toolenv serve`` in a subprocess on a
  temporary DuckDB file, ``--server-durability``: ephemeral, as for training, or journal, the
  server's default) driven by
  ``clients.rollout_client.RolloutClient``: the single routes with ``--http-concurrency`` envs in
  flight, then ``/v1/envs/batch/step`` for each of ``--http-batches`` (B envs in flight, one
  request of B steps a round); steps/s seen by the client and CPU per step of each process,
  the server's split into its env thread and its event loop. Then the batch route's server
  stages in process (decode and validation, env steps, JSON encoding), per step, and a summary
  beside the in-process figure.

Run: ``python bench/bench_rollouts.py`` (about a minute and a half), or e.g.
``python bench/bench_rollouts.py --soak-episodes 100000`` for the long soak.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.rollouts_http import bench_batch_breakdown, bench_http  # noqa: E402
from env_server.rl import OraclePolicy, ToolEnv, default_environment  # noqa: E402
from env_server.rl.scenarios import ScenarioPool  # noqa: E402
from env_server.runner import freeze_startup_heap  # noqa: E402
from state.store import Durability  # noqa: E402


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


def bench_in_process(episodes: int) -> float:
    """Prints the figures; returns steps/s counting env.step alone."""
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
    return steps / sum(step_times)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=600, help="in-process timed episodes")
    parser.add_argument("--fork-samples", type=int, default=100)
    parser.add_argument("--generator-seeds", type=int, default=20)
    parser.add_argument("--open-envs", type=int, default=2000)
    parser.add_argument("--soak-episodes", type=int, default=20_000, help="0 skips the soak")
    parser.add_argument("--http-episodes", type=int, default=256, help="single-route episodes (0 skips them)")
    parser.add_argument("--http-concurrency", type=int, default=32, help="envs in flight on the single routes")
    parser.add_argument("--http-batches", default="1,16,64,256",
                        help="batch sizes for /v1/envs/batch/step, comma-separated ('' skips the batch runs)")
    parser.add_argument("--server-durability", type=Durability, default=Durability.EPHEMERAL,
                        choices=list(Durability), help="the HTTP server's --durability (journal: its default)")
    parser.add_argument("--breakdown-rounds", type=int, default=4,
                        help="batches of 64 episodes timed stage by stage in process (0 skips it)")
    parser.add_argument("--cpu", type=int, default=0, help="CPU to pin this process to (the server gets the others)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    print(f"python {sys.version.split()[0]}, pinned to CPU {args.cpu}, RSS at start {rss_mb():.1f} MB")
    t0 = time.perf_counter()
    default_environment()
    print(f"default_environment() (catalog load): {(time.perf_counter() - t0) * 1e3:.0f} ms")
    # The collector policy `toolenv serve` runs with (the catalog out of the collector's view,
    # fewer young collections), so that every process of the comparison runs under it. The HTTP
    # client holds the catalog for the oracle policies; without the freeze its collections walked
    # those ~200k objects: 12% of its CPU per batched step (alternating rounds in one process).
    # In-process stepping measured the same either way.
    freeze_startup_heap()
    in_process = bench_in_process(args.episodes)
    bench_fork(args.fork_samples)
    bench_generator(args.generator_seeds)
    bench_memory(args.open_envs)
    if args.soak_episodes:
        bench_soak(args.soak_episodes)
    sizes = [int(b) for b in args.http_batches.split(",") if b.strip()]
    if args.http_episodes or sizes:
        print("http, oracle over the built-in scenarios (server and client share this machine's cores):")
        runs = bench_http(args.http_episodes, args.http_concurrency, sizes, args.server_durability)
        print("steps/s: in process " + f"{in_process:.0f}; " + "; ".join(
            f"{r.label} {r.steps_per_s:.0f}" for r in runs))
    if args.breakdown_rounds:
        bench_batch_breakdown(64, args.breakdown_rounds, args.server_durability)


if __name__ == "__main__":
    main()
