"""Benchmark: rollouts on a running Ray cluster with 1, 2 and 4 actors (``bench_ray.sh`` starts one).

For each actor count a :class:`~clients.ray_runner.RolloutActorPool` is started on the cluster
(``SPREAD``: the actors land on every node), each actor warms up (one oracle episode of every
built-in scenario, untimed), and then the pool plays ``--episodes`` oracle episodes (seeds
0..N-1), ``--repeats`` times. One row per actor count: where the actors ran, the median run's
steps/s and episodes/s over its wall time (every run's steps/s in the last column), and the
failure count over all its runs: actors that died, episodes retried, episodes lost (requested
but not returned; 0 unless a run raised). Then, unless ``--no-kill``, the largest pool plays the
same seeds again while one actor is killed (``ray.kill``) a quarter of the way in: the row shows
that run's failures and whether its episodes equal the undisturbed runs'. Before the table, the
same seeds in this process (one core, no Ray) give the reference figure.

Run: ``bench/bench_ray.sh`` (a minute to a minute and a half here), or ``python bench/bench_ray.py --address
HOST:PORT`` against a cluster of your own (its workers must import this checkout).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clients.ray_runner import RolloutActorPool, RolloutProgressRecord, RolloutRunResult, import_ray  # noqa: E402
from clients.rollout_worker import RolloutWorker  # noqa: E402

HEAD_RESOURCE = "node:__internal_head__"


def wait_for_nodes(ray: Any, count: int, timeout_s: float = 60.0) -> dict[str, str]:
    """Node id -> "head" or "worker" ("workerN" when there are several) once ``count`` nodes are alive."""
    deadline = time.monotonic() + timeout_s
    while True:
        alive = [n for n in ray.nodes() if n["Alive"]]
        if len(alive) >= count:
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"bench_ray: {len(alive)} of {count} Ray nodes are alive after {timeout_s:.0f} s")
        time.sleep(0.5)
    alive.sort(key=lambda n: (HEAD_RESOURCE not in n["Resources"], n["NodeID"]))
    names = {}
    for k, node in enumerate(alive):
        names[node["NodeID"]] = "head" if HEAD_RESOURCE in node["Resources"] else f"worker{k if len(alive) > 2 else ''}"
        print(f"  {names[node['NodeID']]:<7} {node['NodeID'][:12]}  CPUs {node['Resources'].get('CPU', 0):g}  "
              f"at {node['NodeManagerAddress']}:{node['NodeManagerPort']}")
    return names


def in_process(episodes: int) -> float:
    """Steps/s of the same seeds played in this process, after the same warm-up."""
    worker = RolloutWorker()
    worker.warm_up()
    started = time.perf_counter()
    steps = sum(r.steps for r in worker.run([(s, None) for s in range(episodes)]))
    wall = time.perf_counter() - started
    worker.close()
    return steps / wall


class KillOneActor:
    """Kills the busiest actor once a quarter of the episodes are done."""

    def __init__(self, ray: Any, after: int) -> None:
        self.ray, self.after, self.done = ray, after, False

    def __call__(self, progress: RolloutProgressRecord) -> None:
        if not self.done and progress.done >= self.after and progress.busy_actors:
            self.ray.kill(progress.busy_actors[0])
            self.done = True


def play(pool: RolloutActorPool, episodes: int, kill: KillOneActor | None = None) -> RolloutRunResult:
    return pool.play(range(episodes), on_progress=kill)


def row(label: str, placement: str, requested: int, runs: list[RolloutRunResult], extra: str = "") -> str:
    """The median run's figures (by steps/s), with every run's failures and steps/s."""
    median = sorted(runs, key=lambda r: r.steps_per_s)[len(runs) // 2]
    lost = requested * len(runs) - sum(len(r.episodes) for r in runs)
    failures = sum(r.actor_failures for r in runs)
    retried = sum(r.retried_episodes for r in runs)
    every = " / ".join(f"{r.steps_per_s:.0f}" for r in runs)
    return (f"{label:<10} {placement:<17} {median.steps:>6} {median.wall_s:>6.2f} {median.steps_per_s:>8.0f} "
            f"{len(median.episodes) / median.wall_s:>6.0f}  {failures:>8} {retried:>7} {lost:>4}   {every}{extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--address", required=True, help="the cluster's GCS address, HOST:PORT")
    parser.add_argument("--nodes", type=int, default=1, help="wait until this many nodes are alive")
    parser.add_argument("--actors", default="1,2,4", help="actor counts, comma-separated")
    parser.add_argument("--episodes", type=int, default=600, help="timed oracle episodes per actor count")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per actor count (the median is shown)")
    parser.add_argument("--chunk-size", type=int, default=4, help="episodes per actor call")
    parser.add_argument("--no-kill", action="store_true", help="skip the run that kills an actor")
    args = parser.parse_args()
    ray = import_ray()
    ray.init(address=args.address, log_to_driver=False, configure_logging=False)
    print(f"Ray {ray.__version__}, cluster at {args.address}:")
    names = wait_for_nodes(ray, args.nodes)
    print(f"in process (this driver, no Ray): {in_process(args.episodes):.0f} steps/s over {args.episodes} episodes")
    print(f"\n{'actors':<10} {'placement':<17} {'steps':>6} {'wall s':>6} {'steps/s':>8} {'ep/s':>6}  "
          f"{'failures':>8} {'retried':>7} {'lost':>4}   steps/s of each run")
    counts = [int(a) for a in args.actors.split(",") if a.strip()]
    for n in counts:
        with RolloutActorPool(n, chunk_size=args.chunk_size) as pool:
            spread = collections.Counter(names.get(node, "?") for node in pool.nodes())
            placement = " + ".join(f"{k} {name}" for name, k in sorted(spread.items()))
            pool.warm_up()
            runs = [play(pool, args.episodes) for _ in range(args.repeats)]
            print(row(str(n), placement, args.episodes, runs), flush=True)
            if n == max(counts) and not args.no_kill:
                killed = play(pool, args.episodes, KillOneActor(ray, after=args.episodes // 4))
                same = all(killed.episodes == r.episodes for r in runs)
                print(row(f"{n}, kill 1", placement, args.episodes, [killed],
                          f"  ({killed.replacements} replacement started; episodes "
                          f"{'equal the undisturbed runs' if same else 'DIFFER from the undisturbed runs'})"),
                      flush=True)
    ray.shutdown()


if __name__ == "__main__":
    main()
