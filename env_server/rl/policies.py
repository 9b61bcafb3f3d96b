"""Stand-in policies for tests and benchmarks: no model inside.

* :class:`OraclePolicy` plays the first optimal gold path, exactly as ``clients.agents.OracleAgent``
  does (gold calls of a step as one parallel action, the gold question at an ask node, the gold
  final text at the answer node). It scores 100%. Calls answered 429/503/504 (injected faults,
  ``info["faults"]``) are sent again as the next action.
* :class:`ScriptedPolicy` replays a fixed list of actions, then answers with ``fallback`` text.

A policy is a callable ``(observation, info) -> action``; ``act`` is the same method.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from env_server.orchestrator.gold import gold_task
from env_server.orchestrator.models import ScenarioSpec
from env_server.scoring import ASK, PREPARE, PathEngine

ActionDict = dict[str, Any]

def oracle_plan(spec: ScenarioSpec) -> list[list[ActionDict]]:
    """Per task, the oracle's actions: the first optimal path, ending with the gold answer text.

    About 1 ms a scenario; an ``OraclePolicy`` computes it once and keeps it (no module cache).
    """
    plans: list[list[ActionDict]] = []
    for i, task in enumerate(spec.tasks):
        gold = gold_task(task, i, [])
        actions: list[ActionDict] = []
        for k, step in enumerate(PathEngine.from_task(gold).first_optimal_path()):
            first = gold.nodes[step[0]]
            if first.name in (ASK, PREPARE):
                text = first.observation if isinstance(first.observation, str) else ""
                actions.append({"role": "assistant", "content": text or "Done."})
                if first.name == PREPARE:
                    break
                continue
            calls = [
                {"id": f"call_{i}_{k}_{j}", "type": "function",
                 "function": {"name": gold.nodes[n].name, "arguments": gold.nodes[n].arguments_json()}}
                for j, n in enumerate(step)
            ]
            actions.append({"role": "assistant", "content": None, "tool_calls": calls})
        plans.append(actions)
    return plans


@dataclass
class OraclePolicy:
    """Follows the gold path of ``spec``; tracks its place per task from ``info["task_index"]``."""

    spec: ScenarioSpec
    _task: int = -1
    _next: int = 0
    _plan: list[list[ActionDict]] = field(default_factory=list, repr=False)
    _last: ActionDict | None = field(default=None, repr=False)  # the last tool action, to retry faulted calls

    def __post_init__(self) -> None:
        self._plan = oracle_plan(self.spec)

    def act(self, observation: Any, info: Mapping[str, Any]) -> ActionDict:
        index = int(info["task_index"])
        if index != self._task:
            self._task, self._next = index, 0
        elif info.get("faults") and self._last is not None:
            retry = _faulted_calls(self._last, observation)
            if retry:  # 429/503/504: send the failed calls again
                self._last = {"role": "assistant", "content": None, "tool_calls": retry}
                return self._last
        plan = self._plan[index]
        if self._next >= len(plan):
            return {"role": "assistant", "content": "Done."}
        action = plan[self._next]
        self._next += 1
        self._last = action
        return action

    __call__ = act


def _faulted_calls(action: ActionDict, observation: Any) -> list[dict[str, Any]]:
    """The calls of ``action`` whose tool message is a transient API failure (an injected fault)."""
    failed = set()
    for message in (observation or {}).get("messages") or []:
        try:
            status = json.loads(message.get("content") or "").get("error", {}).get("status")
        except (ValueError, AttributeError):
            continue
        if message.get("role") == "tool" and status in (429, 503, 504):
            failed.add(message.get("tool_call_id"))
    return [c for c in action.get("tool_calls") or [] if c.get("id") in failed]


@dataclass
class ScriptedPolicy:
    actions: Sequence[ActionDict]
    fallback: str = "Sorry, I can't help with that."
    _next: int = 0

    def act(self, observation: Any, info: Mapping[str, Any]) -> ActionDict:
        if self._next < len(self.actions):
            self._next += 1
            return self.actions[self._next - 1]
        return {"role": "assistant", "content": self.fallback}

    __call__ = act
