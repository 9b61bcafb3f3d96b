"""MCP handlers: ``tools/list`` and ``tools/call`` over a ``ToolEnvironment``.

Only translation lives here. The session comes from the request itself (the
``/sessions/{session_id}/mcp`` path, or an ``X-Toolenv-Session`` header on ``/mcp``),
never from ``Mcp-Session-Id``, which is absent on stateless and 2026-era requests.
stdio has no request object and serves ``settings.stdio_session``.

Errors: an agent mistake comes back as an ``isError`` result; an unknown tool or session
is a JSON-RPC error (``INVALID_PARAMS``), as the MCP spec asks.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp.types as types
from mcp import MCPError
from mcp.server import Server, ServerRequestContext

from env_server.annotations import tool_annotations
from env_server.config import BASE_INSTRUCTIONS
from env_server.environment import ToolEnvironment
from env_server.errors import SessionError
from env_server.faults import FAULT_META_KEY
from env_server.search import SEARCH_TOOL
from env_server.session_types import UnknownToolError

SESSION_HEADER = "x-toolenv-session"


def session_of(ctx: ServerRequestContext[Any, Any], env: ToolEnvironment) -> str:
    request = ctx.request
    if request is None:
        return env.settings.stdio_session
    return request.path_params.get("session_id") or request.headers.get(SESSION_HEADER) or "free"


class ToolListings:
    """``types.Tool`` objects per listing, and the wire dicts of whole pages, built once.
    Annotations (``annotations.py``) are derived for the whole catalog at startup.

    A 1,600-tool listing cost ~150 ms of pydantic work to serialize (measured before the
    built-in catalog grew to 2,047); the middleware below serves repeats from the cached
    wire form so one agent's listing does not stall every other session's calls.
    """

    def __init__(self, env: ToolEnvironment) -> None:
        self._env = env
        for spec in (*env.catalog.tools.values(), SEARCH_TOOL):
            tool_annotations(spec)  # memoized: derived here, at startup, not on a first listing
        self._tools: dict[str, list[types.Tool]] = {}
        # listing key -> (protocol version, cursor) -> wire dict
        self._wire: dict[str, dict[tuple[str, str | None], dict[str, Any]]] = {}
        env.release_listeners.append(self.forget)

    def forget(self, session_id: str) -> None:
        """Drop a released session's listings (a deleted id may come back with other tools)."""
        if session_id != "all":  # the key whole-catalog sessions share
            self._tools.pop(session_id, None)
            self._wire.pop(session_id, None)

    def tools(self, session_id: str) -> list[types.Tool]:
        view = self._env.view(session_id)
        hit = self._tools.get(view.listing_key)
        if hit is None:
            hit = []
            for exposed in self._env.listed_names(view):
                spec = self._env.tool_spec(view, exposed)
                assert spec is not None
                annotations = tool_annotations(spec)
                hit.append(
                    types.Tool.model_validate(
                        {
                            "name": exposed,
                            "title": annotations.title,
                            "description": spec.description,
                            "inputSchema": spec.input_schema,
                            "outputSchema": spec.output_schema,
                            "annotations": annotations,
                        }
                    )
                )
            self._tools[view.listing_key] = hit
        return hit

    def page(self, session_id: str, cursor: str | None) -> types.ListToolsResult:
        tools = self.tools(session_id)
        if cursor is None:
            return types.ListToolsResult(tools=tools)
        try:
            start = int(cursor)
        except ValueError:
            raise MCPError(code=types.INVALID_PARAMS, message=f"invalid cursor {cursor!r}") from None
        if start < 0 or start > len(tools):
            raise MCPError(code=types.INVALID_PARAMS, message=f"cursor {cursor!r} is out of range")
        end = start + self._env.settings.page_size
        return types.ListToolsResult(tools=tools[start:end], next_cursor=str(end) if end < len(tools) else None)

    async def serve_cached(self, ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        """Answer a ``tools/list`` from the cached wire form (filled on the first miss)."""
        params = ctx.params if isinstance(ctx.params, dict) else {}
        cursor = params.get("cursor") if isinstance(params.get("cursor"), str) else None
        try:
            listing = self._env.view(session_of(ctx, self._env)).listing_key
        except SessionError:
            return await call_next(ctx)
        pages = self._wire.setdefault(listing, {})
        key = (str(ctx.protocol_version), cursor)
        hit = pages.get(key)
        if hit is None:
            hit = await call_next(ctx)
            pages[key] = hit
        return hit


_INSTRUCTION_METHODS = frozenset({"initialize", "server/discover"})


def session_instructions(env: ToolEnvironment, ctx: ServerRequestContext[Any, Any], result: Any) -> Any:
    """A session with an extension (the user channel) gets its own ``instructions``.

    The low-level ``Server`` holds one global ``instructions`` string; the handshake result
    passes through middleware as a wire dict, so it is rewritten here per request path.
    """
    if isinstance(result, dict):
        extension = env.extension_for(session_of(ctx, env))
        if extension is not None and extension.instructions:
            return {**result, "instructions": extension.instructions}
    return result


def build_middleware(env: ToolEnvironment, listings: ToolListings) -> Any:
    """The one middleware: cached listings and per-session instructions. One layer, not
    two, because every layer is another coroutine on each ``tools/call``."""

    async def middleware(ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        method = ctx.method
        if method == "tools/list":
            return await listings.serve_cached(ctx, call_next)
        result = await call_next(ctx)
        if method in _INSTRUCTION_METHODS:
            return session_instructions(env, ctx, result)
        return result

    return middleware


def declares_mcp_headers(schema: Any) -> bool:
    """Whether any node of a JSON Schema carries an ``x-mcp-header`` annotation."""
    if isinstance(schema, dict):
        return "x-mcp-header" in schema or any(declares_mcp_headers(v) for v in schema.values())
    if isinstance(schema, list):
        return any(declares_mcp_headers(v) for v in schema)
    return False


def build_server(env: ToolEnvironment) -> Server[Any]:
    listings = ToolListings(env)

    async def on_list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        try:
            return listings.page(session_of(ctx, env), params.cursor if params else None)
        except SessionError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=str(exc)) from None

    async def on_call_tool(ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams) -> dict[str, Any]:
        try:
            outcome = env.call_tool(session_of(ctx, env), params.name, params.arguments, ctx.meta)
        except UnknownToolError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=str(exc), data={"suggestions": exc.suggestions}) from None
        except SessionError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=str(exc)) from None
        # Wire dicts, not models: the SDK validates every result against the protocol
        # version's surface anyway (which drops ``resultType`` on pre-2026 versions), and
        # building a model first would walk the result twice more.
        if outcome.fault is not None:  # an injected fault: a timeout answers late, without blocking the loop
            if outcome.fault.delay_ms:
                await anyio.sleep(outcome.fault.delay_ms / 1000)
            return {"content": [{"type": "text", "text": outcome.message or ""}], "isError": True,
                    "_meta": {FAULT_META_KEY: outcome.fault.code.value}, "resultType": "complete"}
        if outcome.is_error:
            return {"content": [{"type": "text", "text": outcome.message or ""}], "isError": True,
                    "resultType": "complete"}
        return {"content": [{"type": "text", "text": outcome.result_text()}], "structuredContent": outcome.result,
                "isError": False, "resultType": "complete"}

    annotated: dict[str, bool] = {}

    def input_schema(name: str) -> dict[str, Any] | None:
        # The SDK asks for this on every 2026-era call only to check Mcp-Param-* headers
        # against x-mcp-header annotations. A schema without any has nothing to check, and
        # handing it over would make the SDK walk it and fold every header, per call.
        spec = env.catalog.get(name)
        if spec is None:
            return None
        hit = annotated.get(name)
        if hit is None:
            hit = annotated[name] = declares_mcp_headers(spec.input_schema)
        return spec.input_schema if hit else None

    server: Server[Any] = Server(
        "toolenv",
        version="0.1.0",
        instructions=BASE_INSTRUCTIONS,
        on_list_tools=on_list_tools,
        # Wire dicts (see on_call_tool): the SDK validates them, though its annotation names only models.
        on_call_tool=on_call_tool,  # type: ignore[arg-type]
        get_tool_input_schema=input_schema,
    )
    server.middleware.append(build_middleware(env, listings))
    return server
