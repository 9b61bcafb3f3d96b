"""Scale rollouts past one process with Ray: actors that each host in-process ``ToolEnv``s.

Ray is an optional extra (``pip install toolenv[ray]``); it is imported only when
:func:`run_rollouts` needs it, and a missing install raises :class:`RayNotInstalledError`.

::

    from clients.ray_runner import run_rollouts

    results = run_rollouts(range(256), num_actors=8, policy="oracle")
    print(sum(r.success for r in results) / len(results))

* Each actor builds its own :class:`~env_server.rl.ToolEnv` (over its process's default
  environment) and plays whole episodes: ``reset(seed=s, options=...)``, then the policy until
  ``terminated`` or ``truncated``. Seeds are dealt to actors round-robin; results come back in
  the order of ``seeds``, one :class:`EpisodeResult` each.
* An episode depends only on its seed, its reset options and the policy, so the results equal
  :func:`run_episodes` in this process for the same arguments, whatever the actor count.
* ``policy``: ``"oracle"`` (:class:`~env_server.rl.OraclePolicy`, scores 100%), ``"scripted"``
  (:class:`~env_server.rl.ScriptedPolicy` with no actions: a no-tool baseline that answers every
  turn with its fallback text), ``"package.module:factory"``, or a picklable factory. A factory
  is called after every reset as ``factory(env, seed)`` and returns a policy
  ``(observation, info) -> action``. Names are resolved inside the actor, so the module must be
  importable on the workers.
* ``options``: one reset-options dict for every seed, or a list aligned with ``seeds``.

Where the actors run:

* ``address=None``: start a private local Ray for this call (``num_cpus=num_actors``) and shut
  it down afterwards. The project root goes on the workers' ``PYTHONPATH``.
* ``address="auto"`` (or ``"ray://host:10001"``): join a running cluster; nothing is shut down.
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

One actor holds one env and plays its episodes one after another, so ``num_actors`` is the
parallelism: about one per CPU core of the cluster.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from env_server.rl import DEFAULT_MAX_EPISODE_STEPS, OraclePolicy, ScriptedPolicy, ToolEnv

Policy = Callable[[Any, Mapping[str, Any]], Any]
PolicyFactory = Callable[[ToolEnv, int], Policy]
PolicySpec = str | PolicyFactory
OptionsSpec = Mapping[str, Any] | Sequence[Mapping[str, Any] | None] | None

PROJECT_ROOT = Path(__file__).resolve().parents[1]


class RayNotInstalledError(ImportError):
    """Raised when a Ray run is requested but the ``ray`` extra is not installed."""


@dataclass(frozen=True, kw_only=True)
class EpisodeResult:
    """One finished episode."""

    seed: int
    scenario_id: str
    total_reward: float
    rewards: tuple[float, ...]  # one per step, in order
    success: bool  # every task of the scenario correct
    steps: int
    terminated: bool
    truncated: bool
    state_digest: str  # the world-state digest after the last step


# -- policies ---------------------------------------------------------------------------------


def _oracle(env: ToolEnv, seed: int) -> Policy:
    return OraclePolicy(env.scenario)


def _scripted(env: ToolEnv, seed: int) -> Policy:
    return ScriptedPolicy([])


BUILTIN_POLICIES: dict[str, PolicyFactory] = {"oracle": _oracle, "scripted": _scripted}


def resolve_policy(policy: PolicySpec) -> PolicyFactory:
    """A policy factory from a built-in name, ``"module:callable"``, or a factory itself."""
    if callable(policy):
        return policy
    if policy in BUILTIN_POLICIES:
        return BUILTIN_POLICIES[policy]
    module_name, sep, attr = policy.partition(":")
    if not sep or not module_name or not attr:
        known = ", ".join(sorted(BUILTIN_POLICIES))
        raise ValueError(f"unknown policy {policy!r}: use one of {known} or 'package.module:factory'")
    target: Any = importlib.import_module(module_name)
    for part in attr.split("."):
        target = getattr(target, part)
    if not callable(target):
        raise ValueError(f"policy {policy!r} is not callable")
    return target


# -- the work of one actor --------------------------------------------------------------------


class RolloutWorker:
    """Hosts one ``ToolEnv`` and plays episodes on it; the body of each Ray actor."""

    def __init__(self, policy: PolicySpec = "oracle", *, reward: str = "dense",
                 max_steps: int = DEFAULT_MAX_EPISODE_STEPS) -> None:
        self.factory = resolve_policy(policy)
        self.env = ToolEnv(reward=reward, max_steps=max_steps)

    def run(self, jobs: Sequence[tuple[int, Mapping[str, Any] | None]]) -> list[EpisodeResult]:
        return [self.play(seed, options) for seed, options in jobs]

    def play(self, seed: int, options: Mapping[str, Any] | None = None) -> EpisodeResult:
        env = self.env
        obs, info = env.reset(seed=seed, options=dict(options) if options else None)
        policy = self.factory(env, seed)
        rewards: list[float] = []
        terminated = truncated = False
        while not (terminated or truncated):
            obs, reward, terminated, truncated, info = env.step(policy(obs, info))
            rewards.append(reward)
        return EpisodeResult(
            seed=seed, scenario_id=info["scenario_id"], total_reward=sum(rewards), rewards=tuple(rewards),
            success=bool(info["success"]), steps=len(rewards), terminated=terminated, truncated=truncated,
            state_digest=info["state_digest"],
        )

    def close(self) -> None:
        self.env.close()


def run_episodes(
    seeds: Iterable[int], *, policy: PolicySpec = "oracle", options: OptionsSpec = None,
    reward: str = "dense", max_steps: int = DEFAULT_MAX_EPISODE_STEPS,
) -> list[EpisodeResult]:
    """Play every seed in this process, serially (the reference for the Ray runs)."""
    jobs = _jobs(seeds, options)
    worker = RolloutWorker(policy, reward=reward, max_steps=max_steps)
    try:
        return worker.run(jobs)
    finally:
        worker.close()


# -- Ray --------------------------------------------------------------------------------------


def import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise RayNotInstalledError(
            "the Ray rollout runner needs Ray: pip install 'toolenv[ray]' (or pip install 'ray>=2.9')"
        ) from exc
    return ray


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
) -> list[EpisodeResult]:
    """Play every seed on ``num_actors`` Ray actors; results in the order of ``seeds``.

    See the module docstring for ``address``, ``local_mode``, ``policy`` and ``options``.

    Raises:
        RayNotInstalledError: Ray is needed (not ``local_mode``) and not installed.
        ValueError: ``num_actors`` < 1, an unknown policy name, or misaligned ``options``.
    """
    if num_actors < 1:
        raise ValueError("num_actors must be at least 1")
    jobs = _jobs(seeds, options)
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
    actor_cls = ray.remote(RolloutWorker)
    actors = [actor_cls.remote(policy, reward=reward, max_steps=max_steps)
              for _ in range(min(num_actors, len(jobs)))]
    try:
        shards = [list(range(k, len(jobs), len(actors))) for k in range(len(actors))]
        pending = [a.run.remote([jobs[i] for i in shard]) for a, shard in zip(actors, shards, strict=True)]
        results: list[EpisodeResult | None] = [None] * len(jobs)
        for shard, shard_results in zip(shards, ray.get(pending), strict=True):
            for i, result in zip(shard, shard_results, strict=True):
                results[i] = result
        return [r for r in results if r is not None]
    finally:
        for actor in actors:
            ray.kill(actor)
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


def _jobs(seeds: Iterable[int], options: OptionsSpec) -> list[tuple[int, Mapping[str, Any] | None]]:
    seed_list = [int(s) for s in seeds]
    if options is None or isinstance(options, Mapping):
        return [(s, options) for s in seed_list]
    per_seed = list(options)
    if len(per_seed) != len(seed_list):
        raise ValueError(f"options: {len(per_seed)} entries for {len(seed_list)} seeds; give one per seed or one dict")
    return list(zip(seed_list, per_seed, strict=True))
