"""Exceptions raised by toolenv.

The tree::

    ToolenvError                  base of everything we raise on purpose
    ├── CatalogError              a spec file cannot be read or is malformed (load time)
    ├── ToolCallError             the agent's call is wrong; becomes an isError tool result
    │   ├── ArgumentError         arguments fail the tool's input schema
    │   └── EntityNotFoundError   the simulated API has no such id (a 404 in a real API)
    ├── SessionError              protocol/session misuse; becomes a JSON-RPC error
    │   ├── SessionConflictError  the session exists but cannot do that (REST 409)
    │   └── UnknownSessionError   no such session (never made, or deleted); 404 on its routes
    └── InfraError                our own failure; never charged to the agent

Only ``ToolCallError`` subclasses are shown to the agent as observations. ``SessionError``
maps to ``MCPError``. Anything else escaping a simulator is logged with
``logger.exception`` at the ``on_call_tool`` boundary and recorded as ``infra_error``.
"""

from __future__ import annotations


class ToolenvError(Exception):
    """Base class for errors toolenv raises deliberately."""


class CatalogError(ToolenvError):
    """A spec file or catalog path cannot be loaded."""


class ToolCallError(ToolenvError):
    """The agent made a mistake in a tool call; the message is shown to the agent."""

    kind = "tool_error"


class ArgumentError(ToolCallError):
    """Arguments do not satisfy the tool's input schema."""

    kind = "invalid_arguments"


class EntityNotFoundError(ToolCallError):
    """The simulated API has no entity with the requested id."""

    kind = "not_found"


class SessionError(ToolenvError):
    """A request names an unknown session or misuses one."""


class SessionConflictError(SessionError):
    """The session exists but cannot do what was asked (e.g. be deleted while its owner drives it)."""
class UnknownSessionError(SessionError):
    """No session has that id: it was never created, or it was deleted."""


class InfraError(ToolenvError):
    """toolenv itself failed (simulator bug, database error)."""
