"""Whole episodes on one in-process ``ToolEnv``: the work each Ray actor does, without Ray.

:class:`RolloutWorker` hosts one :class:`~env_server.rl.ToolEnv` (over its process's default
environment) and plays episodes on it: ``reset(seed=s, options=...)``, then the policy until
``terminated`` or ``truncated``, one :class:`EpisodeResult` each. :func:`run_episodes` plays a
list of seeds serially in this process; it is the reference the Ray runs are compared with.

An episode depends only on its seed, its reset options and the policy, so the same job gives
the same result on any worker, in any order, and after any number of earlier episodes.

Policies: ``"oracle"`` (:class:`~env_server.rl.OraclePolicy`, scores 100%), ``"scripted"``
(:class:`~env_server.rl.ScriptedPolicy` with no actions: a no-tool baseline that answers every
turn with its fallback text), ``"package.module:factory"``, or a picklable factory. A factory
is called after every reset as ``factory(env, seed)`` and returns a policy
``(observation, info) -> action``. Names are resolved where the worker runs, so on Ray the
module must be importable on the workers.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from env_server.rl import DEFAULT_MAX_EPISODE_STEPS, OraclePolicy, ScriptedPolicy, ToolEnv

Policy = Callable[[Any, Mapping[str, Any]], Any]
PolicyFactory = Callable[[ToolEnv, int], Policy]
PolicySpec = str | PolicyFactory
OptionsSpec = Mapping[str, Any] | Sequence[Mapping[str, Any] | None] | None
EpisodeJob = tuple[int, Mapping[str, Any] | None]  # (seed, reset options)


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


def plan_jobs(seeds: Iterable[int], options: OptionsSpec) -> list[EpisodeJob]:
    """One ``(seed, options)`` job per seed: ``options`` is one dict for all, or a list aligned with ``seeds``."""
    seed_list = [int(s) for s in seeds]
    if options is None or isinstance(options, Mapping):
        return [(s, options) for s in seed_list]
    per_seed = list(options)
    if len(per_seed) != len(seed_list):
        raise ValueError(f"options: {len(per_seed)} entries for {len(seed_list)} seeds; give one per seed or one dict")
    return list(zip(seed_list, per_seed, strict=True))


# -- the work of one actor --------------------------------------------------------------------


class RolloutWorker:
    """Hosts one ``ToolEnv`` and plays episodes on it; the body of each Ray actor."""

    def __init__(self, policy: PolicySpec = "oracle", *, reward: str = "dense",
                 max_steps: int = DEFAULT_MAX_EPISODE_STEPS) -> None:
        self.factory = resolve_policy(policy)
        self.env = ToolEnv(reward=reward, max_steps=max_steps)

    def run(self, jobs: Sequence[EpisodeJob]) -> list[EpisodeResult]:
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

    def warm_up(self) -> int:
        """Play one oracle episode of every scenario in the env's pool, so that timed runs do not pay
        for first-use caches (oracle plans, scenario sessions); returns the steps played."""
        steps = 0
        for scenario_id in self.env.pool.ids:
            obs, info = self.env.reset(options={"scenario_id": scenario_id})
            policy = OraclePolicy(self.env.scenario)
            done = False
            while not done:
                obs, _, terminated, truncated, info = self.env.step(policy(obs, info))
                steps, done = steps + 1, terminated or truncated
        return steps

    def close(self) -> None:
        self.env.close()


def run_episodes(
    seeds: Iterable[int], *, policy: PolicySpec = "oracle", options: OptionsSpec = None,
    reward: str = "dense", max_steps: int = DEFAULT_MAX_EPISODE_STEPS,
) -> list[EpisodeResult]:
    """Play every seed in this process, serially (the reference for the Ray runs)."""
    jobs = plan_jobs(seeds, options)
    worker = RolloutWorker(policy, reward=reward, max_steps=max_steps)
    try:
        return worker.run(jobs)
    finally:
        worker.close()
