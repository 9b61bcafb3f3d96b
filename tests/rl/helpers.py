"""Rollout helpers for RL tests: play a policy to the end, and a seeded flawed oracle."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from env_server.rl import OraclePolicy, ToolEnv


@dataclass
class Rollout:
    observations: list[Any] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    infos: list[dict[str, Any]] = field(default_factory=list)
    terminated: bool = False
    truncated: bool = False

    @property
    def digests(self) -> list[str]:
        return [i["state_digest"] for i in self.infos]


def play(env: ToolEnv, policy: Any, obs: Any, info: dict[str, Any]) -> Rollout:
    """Step ``policy`` until the episode ends; the first observation/info are the caller's."""
    out = Rollout(observations=[obs], infos=[info])
    while True:
        obs, reward, terminated, truncated, info = env.step(policy(obs, info))
        out.observations.append(obs)
        out.rewards.append(reward)
        out.infos.append(info)
        if terminated or truncated:
            out.terminated, out.truncated = terminated, truncated
            return out


@dataclass
class FlawedPolicy:
    """The oracle with seeded mistakes: wrong arguments, wrong tools, repeated steps, early answers."""

    oracle: OraclePolicy
    tools: list[str]
    seed: int
    rate: float = 0.35
    _rng: random.Random = field(init=False)
    _last: dict[str, Any] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def __call__(self, observation: Any, info: dict[str, Any]) -> dict[str, Any]:
        if self._last is not None and self._rng.random() < self.rate / 2:
            return self._last  # repeat the previous tool step
        action = self.oracle(observation, info)
        if self._rng.random() >= self.rate:
            return self._remember(action)
        kind = self._rng.choice(["arguments", "tool", "answer"])
        if kind == "answer":
            return {"role": "assistant", "content": "I think that's all."}
        if not action.get("tool_calls"):
            return action
        calls = [dict(c, function=dict(c["function"])) for c in action["tool_calls"]]
        if kind == "arguments":
            args = json.loads(calls[0]["function"]["arguments"])
            key = next(iter(args), "bogus")
            args[key] = "definitely wrong"
            calls[0]["function"]["arguments"] = json.dumps(args)
        else:
            others = [t for t in self.tools if t != calls[0]["function"]["name"]]
            calls[0]["function"] = {"name": self._rng.choice(others), "arguments": "{}"}
        return self._remember({"role": "assistant", "content": None, "tool_calls": calls})

    def _remember(self, action: dict[str, Any]) -> dict[str, Any]:
        if action.get("tool_calls"):
            self._last = action
        return action


def tool_names(observation: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] for t in observation["tools"]]
