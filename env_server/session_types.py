"""What the environment hands out and accepts: session views, call outcomes, hooks, extensions.

``ToolEnvironment`` (``environment.py``) returns a ``SessionView`` for each session and a
``CallOutcome`` for each call; the orchestrator and RL envs attach a ``CallHook`` and the user
channel a ``SessionExtension`` to a session (``ToolEnvironment.attach``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from env_server.catalog.models import ToolSpec
from env_server.errors import SessionError
from env_server.faults import Fault
from state import ErrorKind, SessionRecord
from state.encoding import encode_text


class UnknownToolError(SessionError):
    """The session has no tool by that name (answered as a JSON-RPC error)."""

    def __init__(self, name: str, suggestions: list[str]) -> None:
        hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"Unknown tool: {name}.{hint}")
        self.suggestions = suggestions


@dataclass(frozen=True)
class SessionView:
    """A session as the server sees it: exposed name -> catalog name, plus its settings."""

    record: SessionRecord
    names: dict[str, str]
    listing_key: str
    # A field, not a property of ``record``: it is read several times on every call.
    session_id: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "session_id", self.record.session_id)


@dataclass(frozen=True)
class CallOutcome:
    result: dict[str, Any] | None
    is_error: bool
    message: str | None
    error_kind: ErrorKind | None
    seq: int
    result_json: str | None = None  # the result as logged, when the log encoded it already
    fault: Fault | None = None  # an injected fault answered this call (``message`` is its JSON body)

    def result_text(self) -> str:
        """The result as JSON text (the MCP text content), encoded once per call."""
        if self.result_json is not None:
            return self.result_json
        return encode_text(self.result)


class CallHook(Protocol):
    """Per-session observer of tool calls (scenario sessions and RL envs attach one).

    ``before_call`` sees every call first, with the request's ``_meta``; it may pin an
    observation for the call, or return a message that answers the call as an error
    instead of running it. ``before_fault`` takes its place for a call the session's fault
    injector fails (``env_server.faults``): the call never runs and must not be judged; it may
    still be refused the same way. ``after_call`` sees the outcome of calls that ran or faulted.
    """

    def before_call(self, name: str, arguments: dict[str, Any], meta: Mapping[str, Any] | None) -> str | None: ...

    def before_fault(
        self, name: str, arguments: dict[str, Any], meta: Mapping[str, Any] | None, fault: Fault
    ) -> str | None: ...

    def after_call(self, name: str, arguments: dict[str, Any], outcome: CallOutcome) -> None: ...


class SessionExtension(Protocol):
    """Tools (and MCP instructions) a session offers besides its catalog tools: the user channel.

    ``tools`` (exposed name -> spec) are listed after the catalog tools. A call to one is
    served by ``serve_tool`` instead of a simulator: it is logged like any call but never
    shown to the session's call hook. ``serve_tool`` may raise ``ToolCallError``.
    """

    @property
    def tools(self) -> Mapping[str, ToolSpec]: ...

    @property
    def instructions(self) -> str | None: ...

    def serve_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]: ...
