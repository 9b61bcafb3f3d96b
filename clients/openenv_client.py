"""The OpenEnv client of toolenv's environment: OpenEnv's ``MCPToolClient``, extended.

``MCPToolClient`` (OpenEnv's client for MCP environments, over the ``/ws`` WebSocket) already
gives ``reset``, ``step``, ``state``, ``list_tools`` and ``call_tool``. :class:`ToolenvEnvClient`
adds message steps (:meth:`~ToolenvEnvClient.send`, one assistant message in OpenAI chat format)
and parses toolenv's observations and state (``clients.openenv_models``) instead of dropping
their fields::

    async with ToolenvEnvClient("http://127.0.0.1:8766") as env:
        first = await env.reset(seed=3)                         # a train-split scenario
        messages = first.observation.messages                   # system + the user's request
        tools = [function_tool(t) for t in first.observation.tools]   # for a chat template
        result = await env.send({"role": "assistant", "content": None, "tool_calls": [...]})
        result.reward, result.done, result.observation.info["judgement"]
        await env.state()                                       # ToolenvState

Or synchronously: ``with ToolenvEnvClient(url).sync() as env: env.reset(...)``. OpenEnv's plain
``MCPToolClient`` works against the same server too (tool calls and ``talk_to_user`` only).
Importing this module needs ``openenv-core``.
"""

from __future__ import annotations

from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.mcp_client import MCPToolClient

from clients.openenv_models import ToolenvAction, ToolenvCallObservation, ToolenvObservation, ToolenvState


class ToolenvEnvClient(MCPToolClient):
    """OpenEnv client for a ``toolenv openenv serve`` server (see the module docstring)."""

    async def reset(self, **kwargs: Any) -> StepResult:
        """Start an episode (``seed``, ``episode_id``, and scenario or free-play options)."""
        self._tools_cache = None  # each episode has its own tools
        return await super().reset(**kwargs)

    async def send(self, message: dict[str, Any]) -> StepResult:
        """Step with one assistant message (``content`` and/or ``tool_calls``, OpenAI chat format)."""
        return await self.step(ToolenvAction(message=message))

    def _step_payload(self, action: Any) -> dict[str, Any]:
        if isinstance(action, ToolenvAction):
            payload: dict[str, Any] = action.model_dump(mode="json", exclude_none=True)
            return payload
        return dict(super()._step_payload(action))

    def _parse_result(self, payload: dict[str, Any]) -> StepResult:
        observation = payload.get("observation", {})
        outcome = {"done": payload.get("done", False), "reward": payload.get("reward")}
        if "tool_name" in observation:
            parsed: Any = ToolenvCallObservation.model_validate({**observation, **outcome})
        elif "messages" in observation:
            parsed = ToolenvObservation.model_validate({**observation, **outcome})
        else:
            return super()._parse_result(payload)
        return StepResult(observation=parsed, reward=outcome["reward"], done=outcome["done"])

    def _parse_state(self, payload: dict[str, Any]) -> ToolenvState:
        return ToolenvState.model_validate(payload)
