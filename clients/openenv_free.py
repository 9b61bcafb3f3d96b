"""Free play over a tool subset, with the Gym-style API of ``env_server.rl.ToolEnv``.

The OpenEnv environment (``openenv_env``) plays either a scenario through ``ToolEnv`` or this:
a plain tool session (``ToolEnvironment.create_session`` over ``tools`` and/or a catalog
``group``) with no scripted user, no gold and so no reward (``None``). An action is one
assistant message, as for ``ToolEnv``: its tool calls run in order as one step and answer one
tool message each; a message without tool calls is the agent's final answer and ends the
episode (``terminated``); ``max_steps`` actions truncate it. Agent mistakes (bad arguments, an
unknown tool or id, an injected fault) come back as tool messages, listed in ``info["errors"]``
(and ``info["faults"]``); a timeout fault answers after its ``slow_ms``, as in ``ToolEnv``.

Importing this module does not need ``openenv-core``.
"""

from __future__ import annotations

import datetime as dt
import secrets
import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from env_server import FaultOptions, SessionError, ToolEnvironment, UnknownToolError, parse_faults
from env_server.orchestrator import function_tools
from env_server.rl import (
    EpisodeFinishedError,
    OptionsError,
    ResetNeededError,
    parse_action,
    parse_arguments,
)

FREE_PLAY_LABEL = "openenv free play"


class FreePlayOptions(BaseModel):
    """Reset options of a free-play episode (``tools`` and/or ``group`` select free play)."""

    model_config = ConfigDict(extra="forbid")

    tools: list[str] | None = Field(default=None, description="Catalog tool names the episode offers.")
    group: str | None = Field(default=None, description="A catalog group whose tools the episode offers.")
    today: dt.date | None = Field(default=None, description="The session's date; default: the server's.")
    base_world: Literal["seeded", "empty"] = "seeded"
    faults: FaultOptions | str | None = Field(default=None, description="Seeded fault injection: a profile or options.")


class FreePlayEnv:
    """One free-play episode at a time over ``environment`` (see the module docstring)."""

    def __init__(self, environment: ToolEnvironment, *, max_steps: int, wait_on_faults: bool = True) -> None:
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        self.environment = environment
        self.max_steps = max_steps
        self.wait_on_faults = wait_on_faults
        self.session_id: str | None = None
        self.tools: list[dict[str, Any]] = []  # OpenAI function format, as ToolEnv's observation
        self.episode_step = 0
        self.terminated = False
        self.truncated = False

    def reset(self, *, seed: int | None, options: FreePlayOptions) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new session over the options' tools. Raises ``OptionsError`` naming the problem."""
        if not options.tools and options.group is None:
            raise OptionsError("free play needs tools (catalog tool names) and/or a group")
        try:
            faults = parse_faults(options.faults) if options.faults is not None else None
        except ValueError as exc:
            raise OptionsError(str(exc)) from None
        session_id = f"oe_{secrets.token_hex(16)}"
        try:
            view = self.environment.create_session(
                tools=options.tools, group=options.group, seed=seed or 0, today=options.today,
                session_id=session_id, label=FREE_PLAY_LABEL, base_world=options.base_world, faults=faults)
        except SessionError as exc:  # an unknown tool or group, with a "did you mean"
            raise OptionsError(str(exc)) from None
        self.close()
        self.session_id = session_id
        names = self.environment.listed_names(view)
        specs = {name: self.environment.tool_spec(view, name) for name in names}
        self.tools = function_tools({name: spec for name, spec in specs.items() if spec is not None})
        self.episode_step = 0
        self.terminated = self.truncated = False
        system = {"role": "system", "content": f"Current Date: {view.record.today.isoformat()}"}
        return {"messages": [system], "tools": list(self.tools)}, self._info([], [])

    def step(self, action: Any) -> tuple[dict[str, Any], None, bool, bool, dict[str, Any]]:
        """Run one assistant message: ``(observation, None, terminated, truncated, info)``."""
        session_id = self._running()
        act = parse_action(action)
        self.episode_step += 1
        errors: list[str] = []
        faults: list[str] = []
        messages: list[dict[str, Any]] = []
        delay_ms = 0
        for k, call in enumerate(act.tool_calls or ()):
            text, delay = self._run_call(session_id, call.function.name, parse_arguments(call.function.arguments),
                                         errors, faults)
            delay_ms += delay
            messages.append({"role": "tool", "tool_call_id": call.id or f"call_{self.episode_step}_{k}",
                             "content": text})
        if delay_ms and self.wait_on_faults:
            time.sleep(delay_ms / 1000)
        self.terminated = not act.tool_calls
        self.truncated = not self.terminated and self.episode_step >= self.max_steps
        return {"messages": messages, "tools": None}, None, self.terminated, self.truncated, self._info(errors, faults)

    def close(self) -> None:
        """Release the current session from the environment (idempotent)."""
        if self.session_id is not None:
            self.environment.release_session(self.session_id)
            self.session_id = None

    def _running(self) -> str:
        if self.session_id is None:
            raise ResetNeededError("call reset() before step()")
        if self.terminated or self.truncated:
            why = "the agent answered" if self.terminated else f"it was truncated after {self.max_steps} steps"
            raise EpisodeFinishedError(f"the free-play episode is over: {why}; call reset() to start a new one")
        return self.session_id

    def _run_call(self, session_id: str, name: str, arguments: dict[str, Any], errors: list[str],
                  faults: list[str]) -> tuple[str, int]:
        """One call's tool message text and, for a timeout fault, its delay in milliseconds."""
        try:
            outcome = self.environment.call_tool(session_id, name, arguments)
        except UnknownToolError as exc:  # the agent's mistake: an observation, as in ToolEnv
            errors.append(f"{name}: {exc}")
            return str(exc), 0
        text = (outcome.message or "") if outcome.is_error else outcome.result_text()
        if outcome.is_error:
            errors.append(f"{name}: {text}")
        if outcome.fault is None:
            return text, 0
        faults.append(outcome.fault.code.value)
        return text, outcome.fault.delay_ms

    def _info(self, errors: list[str], faults: list[str]) -> dict[str, Any]:
        session_id = self.session_id or ""
        return {"session_id": session_id, "episode_step": self.episode_step, "errors": errors, "faults": faults,
                "state_digest": self.environment.state_digest(session_id)}
