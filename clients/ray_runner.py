"""Scale rollouts past one process with Ray: actors that each host in-process ``ToolEnv``s.

Ray is an optional extra (``pip install toolenv[ray]``); it is imported only when a Ray run
needs it, and a missing install raises :class:`RayNotInstalledError`.

::

    from clients.ray_runner import run_rollouts

    results = run_rollouts(range(256), num_actors=8, policy="oracle")
    print(sum(r.success for r in results) / len(results))

* Each actor is a :class:`~clients.rollout_worker.RolloutWorker`: one ``ToolEnv`` over its
  process's default environment, playing whole episodes. Results come back in the order of
  ``seeds``, one :class:`~clients.rollout_worker.EpisodeResult` each, equal to
  :func:`~clients.rollout_worker.run_episodes` in this process for the same arguments, whatever
  the actor count (policies and options: see ``rollout_worker``).
* Dispatch: seeds go out in chunks of ``chunk_size`` episodes, at most two chunks per actor at
  a time (one playing, one waiting), each to whichever actor has room; actors are placed with
  Ray's ``SPREAD`` strategy, so they land on every node of a cluster.
* Actor failures: when an actor dies (killed with ``ray.kill``, its process crashed, its node
  went away) the episodes it held, running or waiting, are sent again to the other actors, and
  a replacement actor is started (at most ``max_replacements`` in a run; default: as many as
  ``num_actors``); it takes work once it is up, so nobody waits for it while others are free.
  An episode depends only on its seed, options and policy, so a retried
  episode gives the result the undisturbed run gives, and every seed is answered exactly once.
  When no actor is left and none may be started, :class:`RolloutFailedError` is raised. An
  exception inside an episode (a policy bug) is not retried: it is raised as Ray raises it.
* :class:`RolloutActorPool` keeps its actors between runs (a trainer plays many batches on the
  same actors) and reports what each run did: :class:`RolloutRunResult` (steps, wall time,
  actor failures, retried episodes, replacements). ``on_progress`` is called after every
  finished chunk with a :class:`RolloutProgressRecord`.

Where the actors run:

* ``address=None``: start a private local Ray for this call (``num_cpus=num_actors``) and shut
  it down afterwards. The project root goes on the workers' ``PYTHONPATH``.
* ``address="auto"``, ``"host:6379"`` (or ``"ray://host:10001"``): join a running cluster;
  nothing is shut down. ``bench/bench_ray.sh`` starts a head and a second node on this machine
  and runs 1, 2 and 4 actors on them.
* If Ray is already initialized in this process, that instance is used as it is.
* ``local_mode=True``: no Ray at all; the actor code runs serially in this process. Ray 2.x
  removed ``ray.init(local_mode=True)``, and this is what it was for: debugging the same code
  path with breakpoints and plain tracebacks.

Cluster recipe (every node needs the same Python and toolenv: ``pip install "toolenv[ray]"``
from a checkout or wheel, or ship the code with ``runtime_env={"working_dir": "."}``)::

    # on the head node
    ray start --head --port=6379 --num-cpus=8
    # on every other node
    ray start --address=<head-ip>:6379 --num-cpus=8
    # on the head node (or any node of the cluster)
    python -c "from clients.ray_runner import run_rollouts; \\
               print(len(run_rollouts(range(10_000), num_actors=16, address='auto')))"
    # when done, on every node
    ray stop

One actor plays its episodes one after another, so ``num_actors`` is the parallelism: about
one per CPU core of the cluster.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clients.rollout_worker import (
    BUILTIN_POLICIES,
    EpisodeJob,
    EpisodeResult,
    OptionsSpec,
    PolicySpec,
    RolloutWorker,
    plan_jobs,
    resolve_policy,
    run_episodes,
)
from env_server.rl import DEFAULT_MAX_EPISODE_STEPS

PROJECT_ROOT = Path(__file__).resolve().parents[1]
CHUNKS_PER_ACTOR = 2  # in flight per actor: one playing, one waiting, so no actor waits for the driver
DEFAULT_CHUNK_SIZE = 4


class RayNotInstalledError(ImportError):
    """Raised when a Ray run is requested but the ``ray`` extra is not installed."""


class RolloutFailedError(RuntimeError):
    """Raised when episodes are left, every actor has died and no replacement may be started."""


@dataclass(frozen=True, kw_only=True)
class RolloutRunResult:
    """What one :meth:`RolloutActorPool.play` did."""

    episodes: list[EpisodeResult]  # in the order of the seeds, each exactly once
    steps: int
    wall_s: float  # from the first chunk sent to the last result received
    actor_failures: int  # actors found dead during the run (killed, crashed, node lost)
    retried_episodes: int  # episodes sent again because their actor died
    replacements: int  # actors started in place of dead ones

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.wall_s if self.wall_s > 0 else 0.0


@dataclass(frozen=True, kw_only=True)
class RolloutProgressRecord:
    """A run's state after a finished chunk (given to ``on_progress``)."""

    done: int  # episodes with a result
    total: int
    actor_failures: int
    busy_actors: tuple[Any, ...]  # handles of the actors holding episodes now, the busiest first


ProgressHook = Callable[[RolloutProgressRecord], None]


@dataclass
class _RunState:
    """The bookkeeping of one run: job indices waiting, chunks in flight, results so far."""

    jobs: list[EpisodeJob]
    waiting: deque[list[int]]  # chunks of job indices, in seed order
    results: list[EpisodeResult | None]
    in_flight: dict[Any, tuple[Any, list[int]]] = field(default_factory=dict)  # ref -> (actor, chunk)
    done: int = 0
    actor_failures: int = 0
    retried: int = 0
    replacements: int = 0

    def load(self, actor: Any) -> int:
        return sum(1 for holder, _ in self.in_flight.values() if holder is actor)

    def progress(self) -> RolloutProgressRecord:
        holders = [holder for holder, _ in self.in_flight.values()]
        busy = sorted({id(a): a for a in holders}.values(), key=lambda a: -holders.count(a))
        return RolloutProgressRecord(done=self.done, total=len(self.jobs), actor_failures=self.actor_failures,
                                     busy_actors=tuple(busy))


def import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise RayNotInstalledError(
            "the Ray rollout runner needs Ray: pip install 'toolenv[ray]' (or pip install 'ray>=2.9')"
        ) from exc
    return ray


class RayRolloutWorker(RolloutWorker):
    """The actor class: a ``RolloutWorker`` that can also say which Ray node it runs on."""

    def node_id(self) -> str:
        return str(import_ray().get_runtime_context().get_node_id())


class RolloutActorPool:
    """``num_actors`` Ray actors playing episodes, with retry on actor death (module docstring).

    Ray must be initialized. ``actors`` lists the live actors; one that is still starting (a
    replacement importing toolenv) gets work only once it answers, so a run never waits for it
    while other actors are free. Use as a context manager, or call :meth:`close` (it kills the
    actors). ``max_replacements`` may be changed between runs.
    """

    def __init__(
        self, num_actors: int, *, policy: PolicySpec = "oracle", reward: str = "dense",
        max_steps: int = DEFAULT_MAX_EPISODE_STEPS, chunk_size: int = DEFAULT_CHUNK_SIZE,
        max_replacements: int | None = None,
    ) -> None:
        if num_actors < 1:
            raise ValueError("num_actors must be at least 1")
        if chunk_size < 1:
            raise ValueError("chunk_size must be at least 1")
        self._ray = import_ray()
        self._actor_cls = self._ray.remote(RayRolloutWorker)
        self._args = (policy,)
        self._kwargs = {"reward": reward, "max_steps": max_steps}
        self.chunk_size = chunk_size
        self.max_replacements = num_actors if max_replacements is None else max_replacements
        self.actors: list[Any] = []
        self._starting: dict[Any, Any] = {}  # the first answer of each actor still starting -> the actor
        for _ in range(num_actors):
            self._start()

    def __enter__(self) -> RolloutActorPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def nodes(self) -> list[str]:
        """The Ray node id of each actor (waits until every actor is up)."""
        self._ray.get(list(self._starting))
        self._starting.clear()
        return [str(n) for n in self._ray.get([a.node_id.remote() for a in self.actors])]

    def warm_up(self) -> None:
        """Every actor plays each scenario once (``RolloutWorker.warm_up``), untimed."""
        self._ray.get([a.warm_up.remote() for a in self.actors])

    def play(self, seeds: Iterable[int], options: OptionsSpec = None, *,
             on_progress: ProgressHook | None = None) -> RolloutRunResult:
        """Play every seed; the episodes come back in seed order, each exactly once."""
        jobs = plan_jobs(seeds, options)
        chunks = deque(list(range(k, min(k + self.chunk_size, len(jobs)))) for k in range(0, len(jobs), self.chunk_size))
        run = _RunState(jobs=jobs, waiting=chunks, results=[None] * len(jobs))
        started = time.perf_counter()
        while run.waiting or run.in_flight:
            self._send(run)
            (ref,), _ = self._ray.wait([*run.in_flight, *self._starting], num_returns=1)
            if ref in self._starting:
                self._started(run, ref)
                continue
            self._receive(run, ref)
            if on_progress is not None:
                on_progress(run.progress())
        episodes = [r for r in run.results if r is not None]
        return RolloutRunResult(episodes=episodes, steps=sum(r.steps for r in episodes),
                                wall_s=time.perf_counter() - started, actor_failures=run.actor_failures,
                                retried_episodes=run.retried, replacements=run.replacements)

    def close(self) -> None:
        for actor in self.actors:
            self._ray.kill(actor)
        self.actors.clear()
        self._starting.clear()

    # -- dispatch ---------------------------------------------------------------------------

    def _start(self) -> None:
        actor = self._actor_cls.options(scheduling_strategy="SPREAD").remote(*self._args, **self._kwargs)
        self.actors.append(actor)
        self._starting[actor.node_id.remote()] = actor

    def _send(self, run: _RunState) -> None:
        """Give waiting chunks to the started actors with room, a level at a time so they share the work."""
        starting = {id(a) for a in self._starting.values()}
        ready = [a for a in self.actors if id(a) not in starting]
        for level in range(CHUNKS_PER_ACTOR):
            for actor in ready:
                if run.waiting and run.load(actor) <= level:
                    chunk = run.waiting.popleft()
                    run.in_flight[actor.run.remote([run.jobs[i] for i in chunk])] = (actor, chunk)
        if not run.in_flight and not self._starting:
            left = sum(len(c) for c in run.waiting)
            raise RolloutFailedError(f"{left} episodes are left and no actor can play them: {run.actor_failures} "
                                     f"actors died and the {self.max_replacements} replacements are spent")

    def _started(self, run: _RunState, ref: Any) -> None:
        actor = self._starting.pop(ref)
        try:
            self._ray.get(ref)
        except self._ray.exceptions.RayActorError:  # died before it took any work
            self._replace(run, actor, [])

    def _receive(self, run: _RunState, ref: Any) -> None:
        actor, chunk = run.in_flight.pop(ref)
        exceptions = self._ray.exceptions
        try:
            episodes = self._ray.get(ref)
        except exceptions.RayActorError:
            self._replace(run, actor, [chunk])
            return
        except exceptions.ObjectLostError:  # the answer was lost with its node, the actor may live on
            run.waiting.appendleft(chunk)
            run.retried += len(chunk)
            return
        for i, episode in zip(chunk, episodes, strict=True):
            run.results[i] = episode
        run.done += len(chunk)

    def _replace(self, run: _RunState, dead: Any, lost: list[list[int]]) -> None:
        """Send the dead actor's chunks again, first in line, and start a replacement if allowed."""
        orphans = [ref for ref, (holder, _) in run.in_flight.items() if holder is dead]
        lost = sorted([*lost, *(run.in_flight.pop(ref)[1] for ref in orphans)])
        run.waiting.extendleft(reversed(lost))
        run.retried += sum(len(c) for c in lost)
        run.actor_failures += 1
        self.actors.remove(dead)
        self._ray.kill(dead)
        if run.replacements < self.max_replacements:
            self._start()
            run.replacements += 1


def run_rollouts(
    seeds: Iterable[int],
    *,
    num_actors: int = 2,
    address: str | None = None,
    local_mode: bool = False,
    policy: PolicySpec = "oracle",
    options: OptionsSpec = None,
    reward: str = "dense",
    max_steps: int = DEFAULT_MAX_EPISODE_STEPS,
    runtime_env: dict[str, Any] | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    max_replacements: int | None = None,
) -> list[EpisodeResult]:
    """Play every seed on ``num_actors`` Ray actors; results in the order of ``seeds``.

    See the module docstring for ``address``, ``local_mode``, retries and ``max_replacements``;
    ``rollout_worker`` for ``policy`` and ``options``.

    Raises:
        RayNotInstalledError: Ray is needed (not ``local_mode``) and not installed.
        RolloutFailedError: actors died and no replacement was left for their episodes.
        ValueError: ``num_actors`` < 1, an unknown policy name, or misaligned ``options``.
    """
    if num_actors < 1:
        raise ValueError("num_actors must be at least 1")
    jobs = plan_jobs(seeds, options)
    if local_mode:
        return run_episodes([s for s, _ in jobs], policy=policy, options=[o for _, o in jobs],
                            reward=reward, max_steps=max_steps)
    if not jobs:
        return []
    if isinstance(policy, str) and policy not in BUILTIN_POLICIES and ":" not in policy:
        resolve_policy(policy)  # fail here, not in every actor; "module:callable" resolves there
    ray = import_ray()
    started = not ray.is_initialized()
    if started:
        ray.init(**_init_kwargs(address, num_actors, runtime_env))
    # Ray's actor default: 1 CPU to place it, 0 while it runs, so more actors than CPUs
    # oversubscribe instead of waiting forever for a CPU that finished actors still hold.
    try:
        with RolloutActorPool(min(num_actors, len(jobs)), policy=policy, reward=reward, max_steps=max_steps,
                              chunk_size=chunk_size, max_replacements=max_replacements) as pool:
            return pool.play([s for s, _ in jobs], [o for _, o in jobs]).episodes
    finally:
        if started:
            ray.shutdown()


def _init_kwargs(address: str | None, num_actors: int, runtime_env: dict[str, Any] | None) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if address is not None:
        kwargs["address"] = address
        if runtime_env is not None:
            kwargs["runtime_env"] = runtime_env
        return kwargs
    # A private local Ray: workers import toolenv from this checkout.
    kwargs["num_cpus"] = num_actors
    kwargs["runtime_env"] = runtime_env if runtime_env is not None else local_runtime_env()
    return kwargs


def local_runtime_env() -> dict[str, Any]:
    """A runtime env that lets local workers import toolenv from this checkout."""
    path = [str(PROJECT_ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {"env_vars": {"PYTHONPATH": os.pathsep.join(path)}}
