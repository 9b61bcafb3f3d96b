"""A minimal GRPO-style loop over ``ToolEnv``: a shared prefix, ``fork(n)``, group-relative advantages.

Run it from the project root (no model, no GPU; a few seconds)::

    python -m examples.grpo_loop --prompts 3 --group-size 4 --prefix-steps 2

For each prompt (a seed):

1. ``reset(seed=...)`` draws a scenario, and the oracle plays ``prefix_steps`` actions: the
   shared prefix, standing in for turns already generated.
2. ``env.fork(group_size)`` branches the group. Each branch continues from the same state,
   transcript and matcher state with its own :class:`NoisyOracle`: the oracle with seeded
   mistakes (a corrupted argument, or a skipped call). This stands in for sampling the policy.
3. The return of a branch is the sum of its dense rewards after the fork. The advantage of
   each branch is its return minus the group mean, over the group's standard deviation
   (GRPO). A real trainer would weight the log-probabilities of the branch's tokens by it.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from env_server.rl import OraclePolicy, ToolEnv


@dataclass
class NoisyOracle:
    """The oracle, except that with probability ``epsilon`` a tool step goes wrong (seeded).

    A wrong step either corrupts one argument of its first call or skips a call: the last call
    of a parallel step, or the whole step when it has only one.
    """

    oracle: OraclePolicy
    seed: int
    epsilon: float = 0.3
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def __call__(self, observation: Any, info: dict[str, Any]) -> dict[str, Any]:
        action = self.oracle(observation, info)
        calls = action.get("tool_calls")
        if not calls or self._rng.random() >= self.epsilon:
            return action
        if self._rng.random() < 0.5:
            first = calls[0]
            arguments = json.loads(first["function"]["arguments"] or "{}")
            key = self._rng.choice(sorted(arguments)) if arguments else "unexpected"
            arguments[key] = "corrupted"
            fixed = {**first, "function": {**first["function"], "arguments": json.dumps(arguments)}}
            return {**action, "tool_calls": [fixed, *calls[1:]]}
        if len(calls) > 1:
            return {**action, "tool_calls": calls[:-1]}
        return self.oracle(observation, info)  # skip the step: play the oracle's next action now


@dataclass(frozen=True)
class Group:
    seed: int
    scenario_id: str
    returns: list[float]
    advantages: list[float]
    successes: list[bool]


def group_advantages(returns: Sequence[float], eps: float = 1e-6) -> list[float]:
    """GRPO advantages: ``(r - mean) / (std + eps)``; all zero when every return is the same."""
    mean = statistics.fmean(returns)
    std = statistics.pstdev(returns)
    return [(r - mean) / (std + eps) for r in returns]


def play_out(env: ToolEnv, policy: Any, observation: Any, info: dict[str, Any]) -> tuple[float, bool]:
    """Step ``policy`` to the end of the episode; the return after this point and the success flag."""
    total = 0.0
    while True:
        observation, reward, terminated, truncated, info = env.step(policy(observation, info))
        total += reward
        if terminated or truncated:
            return total, bool(info["success"])


def rollout_group(env: ToolEnv, seed: int, *, group_size: int, prefix_steps: int, epsilon: float) -> Group:
    observation, info = env.reset(seed=seed)
    oracle = OraclePolicy(env.scenario)
    for _ in range(prefix_steps):
        observation, _, terminated, truncated, info = env.step(oracle(observation, info))
        if terminated or truncated:
            raise ValueError(f"scenario {info['scenario_id']} ended within the {prefix_steps}-step prefix")
    returns: list[float] = []
    successes: list[bool] = []
    for k, branch in enumerate(env.fork(group_size)):
        # Each branch gets its own copy of the oracle's place in the plan, and its own noise.
        policy = NoisyOracle(copy.copy(oracle), seed=seed * 1000 + k, epsilon=epsilon)
        ret, ok = play_out(branch, policy, observation, info)
        branch.close()
        returns.append(round(ret, 6))
        successes.append(ok)
    return Group(seed, info["scenario_id"], returns, group_advantages(returns), successes)


def main(argv: Sequence[str] | None = None) -> list[Group]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompts", type=int, default=3, help="groups to roll out (seeds 0..n-1 plus --seed)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--group-size", type=int, default=4)
    parser.add_argument("--prefix-steps", type=int, default=2)
    parser.add_argument("--epsilon", type=float, default=0.3, help="chance that a tool step goes wrong")
    args = parser.parse_args(argv)

    env = ToolEnv(reward="dense")
    groups = []
    for p in range(args.prompts):
        group = rollout_group(env, args.seed + p, group_size=args.group_size,
                              prefix_steps=args.prefix_steps, epsilon=args.epsilon)
        groups.append(group)
        print(f"seed {group.seed} {group.scenario_id}")
        for k, (ret, adv, ok) in enumerate(zip(group.returns, group.advantages, group.successes, strict=True)):
            print(f"  branch {k}: return {ret:+.2f}  advantage {adv:+.3f}  {'success' if ok else 'failed'}")
    env.close()
    return groups


if __name__ == "__main__":
    main()
