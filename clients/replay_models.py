"""Models for the replay protocol: what answers one chat-completions request in replay.

``clients.replay_runner`` asks a ``ReplayModel`` for each assistant turn; ``replay_model_for``
gives the replay counterpart of a live agent (oracle, scripted or an OpenAI endpoint).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx

from clients.agents import OpenAIAgent, OracleAgent, ScriptedAgent, post_chat_completion
from env_server.orchestrator import ScenarioSpec, gold_task
from env_server.scoring import ASK, PREPARE, GoldTask, PathEngine


@dataclass(frozen=True)
class ReplayTurn:
    """Where a model call happens: scenario, task and the step index inside the task."""

    scenario: ScenarioSpec
    task_index: int
    step: int


@dataclass
class ModelReply:
    """One assistant message (OpenAI shape) plus token counts when the endpoint reports them."""

    message: dict[str, Any]
    input_tokens: int = 0
    output_tokens: int = 0


class ReplayModel(Protocol):
    name: str

    async def complete(self, turn: ReplayTurn, messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]]) -> ModelReply: ...


def _tool_calls(calls: Sequence[tuple[str, Any]], prefix: str) -> list[dict[str, Any]]:
    return [
        {"id": f"{prefix}{k}", "type": "function",
         "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)}}
        for k, (name, args) in enumerate(calls)
    ]


class OracleReplayModel:
    """Follows the first optimal gold path of each task (must score 100%)."""

    name = "oracle"

    def __init__(self) -> None:
        self._paths: dict[tuple[str, int], tuple[GoldTask, list[tuple[int, ...]]]] = {}

    async def complete(self, turn: ReplayTurn, messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]]) -> ModelReply:
        key = (turn.scenario.id, turn.task_index)
        if key not in self._paths:
            gold = gold_task(turn.scenario.tasks[turn.task_index], turn.task_index, [])
            self._paths[key] = (gold, PathEngine.from_task(gold).first_optimal_path())
        gold, path = self._paths[key]
        if turn.step >= len(path):
            return ModelReply({"role": "assistant", "content": "Done."})
        step = path[turn.step]
        first = gold.nodes[step[0]]
        if first.name in (ASK, PREPARE):
            text = first.observation if isinstance(first.observation, str) else ""
            return ModelReply({"role": "assistant", "content": text or "Done."})
        calls = [(gold.nodes[i].name, gold.nodes[i].arguments) for i in step]
        return ModelReply({"role": "assistant", "content": None,
                           "tool_calls": _tool_calls(calls, f"call_t{turn.task_index}s{turn.step}_")})


@dataclass
class ScriptedReplayModel:
    """``{scenario_id: [[step, ...] per task]}`` (the ``ScriptedAgent`` format), one step per model call."""

    script: Mapping[str, Sequence[Sequence[Mapping[str, Any]]]] = field(default_factory=dict)
    fallback: str = "Sorry, I can't help with that."
    name: str = "scripted"

    async def complete(self, turn: ReplayTurn, messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]]) -> ModelReply:
        per_task = self.script.get(turn.scenario.id, [])
        steps = per_task[turn.task_index] if turn.task_index < len(per_task) else []
        if turn.step >= len(steps):
            return ModelReply({"role": "assistant", "content": self.fallback})
        step = steps[turn.step]
        if "calls" in step:
            calls = [(c["name"], dict(c.get("arguments") or {})) for c in step["calls"]]
            return ModelReply({"role": "assistant", "content": None,
                               "tool_calls": _tool_calls(calls, f"call_t{turn.task_index}s{turn.step}_")})
        return ModelReply({"role": "assistant", "content": str(step.get("text", ""))})


@dataclass
class OpenAIReplayModel:
    """A chat-completions endpoint, called as the official runner does (no tool_choice, no max tokens)."""

    agent: OpenAIAgent
    transport: httpx.AsyncBaseTransport | None = None
    name: str = "openai"

    async def complete(self, turn: ReplayTurn, messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]]) -> ModelReply:
        a = self.agent
        headers = {"Authorization": f"Bearer {a.api_key}"} if a.api_key else {}
        async with httpx.AsyncClient(base_url=a.base_url.rstrip("/"), headers=headers, timeout=a.timeout_s,
                                     transport=self.transport or a.transport) as http:
            data = await post_chat_completion(http, a, messages, tools)
        usage = data.get("usage") or {}
        return ModelReply(dict(data["choices"][0]["message"]), int(usage.get("prompt_tokens") or 0),
                          int(usage.get("completion_tokens") or 0))
        raise AssertionError("unreachable")


def replay_model_for(agent: Any) -> ReplayModel:
    """The replay counterpart of a live agent (oracle, scripted or openai)."""
    if isinstance(agent, OracleAgent):
        return OracleReplayModel()
    if isinstance(agent, ScriptedAgent):
        return ScriptedReplayModel(script=agent.script, fallback=agent.fallback)
    if isinstance(agent, OpenAIAgent):
        return OpenAIReplayModel(agent)
    if hasattr(agent, "complete"):
        return agent  # already a replay model
    raise TypeError(f"agent {type(agent).__name__} has no replay counterpart")
