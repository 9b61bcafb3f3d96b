"""The wire types of toolenv's OpenEnv environment: OpenEnv's own models, extended.

Actions (the server's action class is :class:`ToolenvAction`; ``openenv_env`` serves them):

* ``{"type": "list_tools"}`` and ``{"type": "call_tool", "tool_name": ..., "arguments": {...}}``:
  OpenEnv's ``ListToolsAction`` and ``CallToolAction``, the way its MCP environments take tool
  discovery and one tool call per step. :class:`ToolenvAction` validates such payloads into
  those classes, as OpenEnv's deserializer does for a server whose action class is an MCP one.
* ``{"type": "message", "message": {...}}``: one assistant message in OpenAI chat format, the
  action of ``env_server.rl.ToolEnv`` (``content`` and/or ``tool_calls``; all calls of one
  message are one parallel step).

Observations: ``reset`` and message steps answer :class:`ToolenvObservation` (the messages to
append, the tool list on reset, ToolEnv's step info); a tool call answers
:class:`ToolenvCallObservation` (OpenEnv's ``CallToolObservation`` plus the step info); tool
discovery answers OpenEnv's ``ListToolsObservation``. ``done`` is ``terminated or truncated``;
``truncated`` says which. OpenEnv's serializer leaves ``metadata`` off the wire, so everything
a client needs is in fields. :class:`ToolenvState` is what ``state()`` returns.

Importing this module needs ``openenv-core`` (``pip install 'toolenv[openenv]'``).
"""

from __future__ import annotations

from typing import Any, Literal

from openenv.core.env_server.mcp_types import (
    CallToolAction,
    CallToolObservation,
    ListToolsAction,
    Tool,
)
from openenv.core.env_server.types import Action, Observation, State
from pydantic import Field, ModelWrapValidatorHandler, model_validator

from env_server.rl import Action as AssistantMessage

# OpenEnv's MCP actions by their ``type`` discriminator.
MCP_ACTIONS: dict[str, type[Any]] = {"list_tools": ListToolsAction, "call_tool": CallToolAction}

EpisodeMode = Literal["scenario", "free_play"]


class ToolenvAction(Action):
    """One assistant message as a step; also the server's action class for OpenEnv's MCP actions.

    A payload whose ``type`` is ``list_tools`` or ``call_tool`` validates as OpenEnv's own
    ``ListToolsAction`` / ``CallToolAction`` instead (see the module docstring).
    """

    type: Literal["message"] = "message"
    message: AssistantMessage = Field(description=(
        "One assistant message in OpenAI chat format: content (an answer or a question for the user) "
        "and/or tool_calls (one parallel step)."))

    @model_validator(mode="wrap")
    @classmethod
    def _route_mcp_actions(cls, data: Any, handler: ModelWrapValidatorHandler[ToolenvAction]) -> Any:
        kind = data.get("type") if isinstance(data, dict) else None
        mcp_class = MCP_ACTIONS.get(kind) if isinstance(kind, str) else None
        return mcp_class.model_validate(data) if mcp_class is not None else handler(data)


class ToolenvObservation(Observation):
    """What ``reset`` and a message step answer."""

    messages: list[dict[str, Any]] = Field(default_factory=list, description=(
        "Messages to append to the conversation: on reset a system message and the user's first request "
        "(free play: the system message only); after a step the tool messages in call order, or the user's "
        "next message (none once the episode is over)."))
    tools: list[Tool] | None = Field(default=None, description=(
        "The episode's tools on reset (MCP shape: name, description, input_schema); None after a step (unchanged)."))
    info: dict[str, Any] = Field(default_factory=dict, description=(
        "ToolEnv's step info: scenario and session ids, task index, the step's judgement, errors, faults, "
        "tasks correct, success, state digest (free play: session id, step, errors, faults, state digest)."))
    truncated: bool = Field(default=False, description="True when the step budget ended the episode.")


class ToolenvCallObservation(CallToolObservation):
    """What a ``call_tool`` step answers: OpenEnv's ``CallToolObservation`` with the step info.

    ``result`` is an MCP tool result: ``content`` (one text item), ``structured_content``,
    ``is_error`` and ``data`` (the structured result, or the error message), so OpenEnv's
    ``MCPToolClient.call_tool`` returns ``data``. An agent's mistake (bad arguments, an unknown
    id, an injected fault) is an ``is_error`` result; only a tool the episode does not have is
    ``error`` (``tool_not_found``), as over MCP. Either way the step is judged and rewarded.
    """

    info: dict[str, Any] = Field(default_factory=dict, description="The step info, as in ToolenvObservation.")
    truncated: bool = Field(default=False, description="True when the step budget ended the episode.")


class ToolenvState(State):
    """``state()``: the episode so far. ``episode_id`` is the reset's, else the session id."""

    mode: EpisodeMode | None = Field(default=None, description="None before the first reset.")
    session_id: str | None = None
    scenario_id: str | None = None
    task_index: int = 0
    task_count: int = 0
    tasks_correct: int = 0
    terminated: bool = False
    truncated: bool = False
    success: bool = False
    episode_return: float | None = Field(default=None, description="Sum of the rewards so far (None in free play).")
    state_digest: str | None = Field(default=None, description="The world-state digest after the last step.")


def mcp_tool(function_tool: dict[str, Any]) -> Any:
    """An OpenAI function tool (``{"type": "function", "function": {...}}``) as OpenEnv's MCP ``Tool``."""
    function = function_tool["function"]
    return Tool(name=function["name"], description=function.get("description") or "",
                input_schema=function.get("parameters") or {"type": "object"})


def function_tool(tool: Any) -> dict[str, Any]:
    """OpenEnv's MCP ``Tool`` as an OpenAI function tool, for a chat template's ``tools=``."""
    return {"type": "function",
            "function": {"name": tool.name, "description": tool.description, "parameters": tool.input_schema}}
