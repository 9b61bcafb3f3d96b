"""Agents the eval runner can drive. Each plays one scenario session through an ``Episode``.

* :class:`OracleAgent` follows the first optimal gold path: gold calls (parallel steps sent
  concurrently under one step id), the gold question at ask nodes and the gold final text.
  Calls answered 429/503/504 (injected faults) are retried.
  It must score 100%: it is the pipeline's self-check. It reads gold from the local
  scenario files, never from the server.
* :class:`ScriptedAgent` replays a script ``{scenario_id: [[step, ...] per task]}`` where a
  step is ``{"calls": [{"name", "arguments"}]}`` or ``{"text": "..."}``. A task whose script
  runs out (or is missing) is answered with ``fallback`` text. No network.
* :class:`OpenAIAgent` drives any OpenAI-compatible ``/chat/completions`` endpoint with httpx.
  System message ``Current Date: <env_info>``; tools converted from the MCP listing; the
  tool calls of one model turn run concurrently as one step; text goes to ``reply``.
  429/5xx answers are retried with exponential backoff.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import anyio
import httpx

from env_server.orchestrator import ScenarioSpec, TurnKind, UserTurn, gold_task
from env_server.scoring import ASK, PREPARE, PathEngine

RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
TRANSIENT_STATUS = frozenset({429, 503, 504})  # tool replies the oracle retries (see env_server.faults)


@dataclass(frozen=True)
class ToolReply:
    """The answer to one tool call, as the agent sees it."""

    call_id: str
    name: str
    is_error: bool
    text: str

    def transient_status(self) -> tuple[int, int]:
        """(HTTP status, retry_after seconds) when the reply is an API failure worth retrying
        (429, 503, 504 in the ``{"error": {"status", ...}}`` body), else (0, 0). Read from the
        text, as any agent would."""
        if not self.is_error:
            return 0, 0
        try:
            error = json.loads(self.text).get("error")
            status = int(error.get("status") or 0)
            retry_after = int(error.get("retry_after") or 0)
        except (ValueError, TypeError, AttributeError):
            return 0, 0
        return (status, retry_after) if status in TRANSIENT_STATUS else (0, 0)


class Episode(Protocol):
    """What an agent may do in a session (implemented by the runner)."""

    scenario: ScenarioSpec
    env_info: str
    user_message: str | None
    task_index: int
    done: bool
    tools: list[dict[str, Any]]  # OpenAI-style function tools from the MCP listing

    async def call_tools(self, calls: Sequence[tuple[str, dict[str, Any]]]) -> list[ToolReply]: ...

    async def reply(self, content: str) -> UserTurn: ...


class Agent(Protocol):
    name: str

    async def play(self, episode: Episode) -> None: ...


@dataclass
class OracleAgent:
    """Follows the gold path; a tool call answered 429/503/504 is retried (in a step of its own)
    up to ``max_retries`` times, after ``min(retry_after, max_wait_s)`` seconds."""

    max_retries: int = 8
    max_wait_s: float = 0.0
    name: str = "oracle"

    async def play(self, episode: Episode) -> None:
        tasks = [gold_task(t, i, []) for i, t in enumerate(episode.scenario.tasks)]
        while not episode.done:
            gold = tasks[episode.task_index]
            for step in PathEngine.from_task(gold).first_optimal_path():
                first = gold.nodes[step[0]]
                if first.name in (ASK, PREPARE):
                    text = first.observation if isinstance(first.observation, str) else ""
                    await episode.reply(text or "Done.")
                    if first.name == PREPARE:
                        break
                else:
                    await self._call_with_retries(episode, [(gold.nodes[i].name, gold.nodes[i].arguments) for i in step])

    async def _call_with_retries(self, episode: Episode, calls: list[tuple[str, dict[str, Any]]]) -> None:
        for _ in range(self.max_retries + 1):
            replies = await episode.call_tools(calls)
            failed = [(call, reply.transient_status()) for call, reply in zip(calls, replies, strict=True)]
            calls = [call for call, (status, _) in failed if status]
            if not calls:
                return
            wait = max(retry_after for _, (status, retry_after) in failed if status)
            await anyio.sleep(min(wait, self.max_wait_s))


@dataclass
class ScriptedAgent:
    script: Mapping[str, Sequence[Sequence[Mapping[str, Any]]]] = field(default_factory=dict)
    fallback: str = "Sorry, I can't help with that."
    name: str = "scripted"

    async def play(self, episode: Episode) -> None:
        per_task = self.script.get(episode.scenario.id, [])
        while not episode.done:
            index = episode.task_index
            steps = per_task[index] if index < len(per_task) else []
            ended = False
            for step in steps:
                if "calls" in step:
                    await episode.call_tools([(c["name"], dict(c.get("arguments") or {})) for c in step["calls"]])
                    continue
                turn = await episode.reply(str(step.get("text", "")))
                if turn.kind is not TurnKind.CLARIFICATION:
                    ended = True
                    break
            if not ended:
                await episode.reply(self.fallback)


@dataclass
class OpenAIAgent:
    """A chat-completions model. ``transport`` lets tests replace the network."""

    base_url: str
    model: str
    api_key: str | None = None
    temperature: float = 0.0
    max_model_calls_per_task: int = 24
    max_retries: int = 4
    backoff_s: float = 1.0
    timeout_s: float = 120.0
    transport: httpx.AsyncBaseTransport | None = None
    name: str = "openai"

    async def play(self, episode: Episode) -> None:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        async with httpx.AsyncClient(
            base_url=self.base_url.rstrip("/"), headers=headers, timeout=self.timeout_s, transport=self.transport
        ) as http:
            messages: list[dict[str, Any]] = [
                {"role": "system", "content": f"Current Date: {episode.env_info}"},
                {"role": "user", "content": episode.user_message or ""},
            ]
            model_calls = 0
            while not episode.done:
                if model_calls >= self.max_model_calls_per_task:
                    turn = await episode.reply("")  # give up on the task; the user moves on
                    model_calls = 0
                    if turn.content is not None:
                        messages.append({"role": "user", "content": turn.content})
                    continue
                message = await self._complete(http, messages, episode.tools)
                model_calls += 1
                calls = message.get("tool_calls") or []
                if calls:
                    messages.append({"role": "assistant", "content": message.get("content") or "", "tool_calls": calls})
                    parsed = [(c["function"]["name"], _arguments(c["function"].get("arguments"))) for c in calls]
                    replies = await episode.call_tools(parsed)
                    for call, reply in zip(calls, replies, strict=True):
                        messages.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": reply.text})
                    continue
                text = message.get("content") or ""
                messages.append({"role": "assistant", "content": text})
                before = episode.task_index
                turn = await episode.reply(text)
                if turn.kind is not TurnKind.CLARIFICATION or episode.task_index != before:
                    model_calls = 0
                if turn.content is not None:
                    messages.append({"role": "user", "content": turn.content})

    async def _complete(
        self, http: httpx.AsyncClient, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> dict[str, Any]:
        data = await post_chat_completion(http, self, messages, tools)
        return dict(data["choices"][0]["message"])


def _arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw or "{}")
    except (TypeError, ValueError):
        return {"__unparsed__": str(raw)}
    return value if isinstance(value, dict) else {"__unparsed__": value}


async def post_chat_completion(
    http: httpx.AsyncClient, agent: OpenAIAgent, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
) -> dict[str, Any]:
    """One chat-completions request (no tool_choice), retried with backoff on 429/5xx; the JSON body."""
    body: dict[str, Any] = {"model": agent.model, "messages": messages, "temperature": agent.temperature}
    if tools:
        body["tools"] = tools
    delay = agent.backoff_s
    for attempt in range(agent.max_retries + 1):
        response = await http.post("/chat/completions", json=body)
        if response.status_code in RETRY_STATUS and attempt < agent.max_retries:
            await anyio.sleep(delay)
            delay *= 2
            continue
        response.raise_for_status()
        return dict(response.json())
    raise AssertionError("unreachable")
