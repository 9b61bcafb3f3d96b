"""The model's side of a toolenv episode in verifiers: a chat loop in process.

verifiers' harnesses are programs a runtime launches (a chat loop script, Claude Code, ...),
which reach the model through the rollout's interception endpoint and their tools as MCP
servers. A harness may instead run its loop in process, as long as every model call goes
through that endpoint (verifiers' ``Harness.launch`` contract); :class:`ToolenvHarness` does,
so the scenario's tools run against the in-process episode the env bound to the trace
(``clients.verifiers_env.bound_episode``), with no MCP server and no subprocess.

One segment (verifiers' unit between two user turns) is: call the model with the
conversation and the episode's tools (OpenAI tool schemas); when it answers with tool calls,
step the episode with that message (one parallel step), append the tool messages and call it
again; when it answers with text, step the episode with the reply (the orchestrator answers
it with the user's next message, which the env sends as the next turn) and end the segment.
The segment also ends when the episode is over (every task ended, or the step budget spent).

A model call the interception refuses (a turn or token limit, a ``@stop``) or cannot deliver
ends the segment with a failed program result; verifiers records which it was on the trace.
"""

from __future__ import annotations

from typing import Any

import verifiers.v1 as vf
from openai import APIConnectionError, APIStatusError, AsyncOpenAI
from verifiers.v1.errors import MODEL_TRANSPORT_ERROR_EXIT_CODE

from clients.chat_episode import ChatEpisode, assistant_action
from clients.verifiers_env import bound_episode

HARNESS_ID = "toolenv"
FAILED_EXIT_CODE = 1


class ToolenvHarnessConfig(vf.HarnessConfig):
    """``--env.agent.harness.*``."""

    id: str = HARNESS_ID


class ToolenvHarness(vf.Harness[ToolenvHarnessConfig]):
    """The model plays the assistant; the episode answers its tool calls (see the module docstring)."""

    APPENDS_SYSTEM_PROMPT = True  # the scenario date stays a system message
    SUPPORTS_RESUME = True  # a user turn continues the conversation this harness holds
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def session(
        self, ctx: vf.ModelContext, trace: vf.Trace, runtime: vf.Runtime, endpoint: str, secret: str,
        mcp_urls: dict[str, str], data: vf.TaskData, tool_interception_url: str | None = None,
    ) -> ToolenvHarnessSession:
        return ToolenvHarnessSession(self, ctx, trace, runtime, endpoint, secret, mcp_urls, data,
                                     tool_interception_url)

    async def launch(
        self, ctx: vf.ModelContext, trace: vf.Trace, runtime: vf.Runtime, endpoint: str, secret: str,
        mcp_urls: dict[str, str], data: vf.TaskData,
    ) -> vf.ProgramResult:
        """Runs a single segment in a fresh session (verifiers calls ``session`` instead)."""
        session = await self.session(ctx, trace, runtime, endpoint, secret, mcp_urls, data)
        try:
            return await session.segment(None)
        finally:
            await session.close()


class ToolenvHarnessSession(vf.HarnessSession):
    """One rollout's conversation and model client; each ``turn`` runs one segment."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conversation: list[dict[str, Any]] = []
        self.client = AsyncOpenAI(base_url=self.endpoint, api_key=self.secret)

    async def _run(self, messages: vf.Messages | None) -> vf.ProgramResult:
        return await self.segment(messages)

    async def segment(self, messages: vf.Messages | None) -> vf.ProgramResult:
        episode = bound_episode(self.trace)
        if not self.conversation:
            self.conversation = opening(self.harness.resolve_prompt(self.data), episode)
        self.conversation += [wire_message(m) for m in messages or ()]
        while not episode.over:
            try:
                completion = await self.client.chat.completions.create(
                    model=self.ctx.model, messages=self.conversation, tools=episode.tools or None)
            except APIConnectionError as exc:
                return vf.ProgramResult(MODEL_TRANSPORT_ERROR_EXIT_CODE, "", str(exc))
            except APIStatusError as exc:
                return vf.ProgramResult(FAILED_EXIT_CODE, "", f"model call refused ({exc.status_code}): {exc.message}")
            message = completion.choices[0].message.model_dump(exclude_none=True)
            if not await self._answer(episode, message):
                break
        return vf.ProgramResult(0, "", "")

    async def _answer(self, episode: ChatEpisode, message: dict[str, Any]) -> bool:
        """Step the episode with one assistant message; whether the segment goes on (tool calls).

        The conversation keeps the message as the episode took it (a nameless call renamed, an
        empty reply as ``""``), so the next request is one any chat completions server accepts.
        """
        action = assistant_action(message)
        if not action.get("tool_calls") and action["content"] is None:
            action["content"] = ""
        self.conversation.append(action)
        self.conversation += await episode.act(action)
        return bool(action.get("tool_calls"))

    async def close(self) -> None:
        await self.client.close()
        await super().close()


def opening(prompt: tuple[str | None, Any], episode: ChatEpisode) -> list[dict[str, Any]]:
    """The conversation before the first user turn: one system message, the task's own system
    prompt (a ``--env.taskset.system-prompt`` file) ahead of the scenario's date line, then the
    task's prompt, if it has one (toolenv rows have none: the env sends the first request)."""
    system, first = prompt
    texts = [system, *(m["content"] for m in episode.messages if m["role"] == "system")]
    conversation = [{"role": "system", "content": "\n\n".join(t for t in texts if t)}]
    if isinstance(first, str):
        conversation.append({"role": "user", "content": first})
    elif first:
        conversation += [wire_message(m) for m in first]
    return conversation


def wire_message(message: Any) -> dict[str, Any]:
    """A verifiers message (or an OpenAI message dict) as the chat completions API takes it."""
    if isinstance(message, dict):
        return message
    return message.model_dump(mode="json", exclude_none=True)
