"""The one entry point of the HTTP app: every request passes here first, once.

In order:

1. **Host and Origin** (DNS-rebinding protection, ``http_guard.py``) for every route:
   421 for a foreign ``Host``, 403 for a foreign ``Origin``.
2. **MCP requests** (``POST /mcp`` and ``POST /sessions/{id}/mcp``) go straight to the MCP
   chain: a session that does not exist is a 404 with a JSON-RPC error body (for the path
   and for an ``X-Toolenv-Session`` header alike), then the envelope check
   (``envelopes.py``) and the SDK's streamable HTTP app. Other methods on these paths get
   405 with ``Allow: POST``: stateless JSON responses have no stream to GET and no session
   to DELETE.
3. **REST requests** (``/v1/...``) get the body cap (``body_limit.py``, 413), then FastAPI.
4. Everything else (docs, the OpenAPI document, lifespan events) goes to FastAPI as is.

MCP traffic skips FastAPI's middleware stack and router: a tool call is the hot path, and
each layer is another coroutine on every call. REST routes keep FastAPI whole (validation,
OpenAPI, exception handlers).
"""

from __future__ import annotations

import re

from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from env_server.body_limit import REST_PREFIX, bounded_receive
from env_server.environment import ToolEnvironment
from env_server.errors import SessionError, UnknownSessionError
from env_server.http_guard import refusal
from env_server.server import SESSION_HEADER

MCP_PATH = "/mcp"
_SESSION_MCP = re.compile(r"^/sessions/([^/]+)/mcp$")


def mcp_session_of(path: str) -> str | None:
    """``""`` for ``/mcp``, the id for ``/sessions/{id}/mcp``, None for any other path."""
    if path == MCP_PATH:
        return ""
    found = _SESSION_MCP.match(path)
    return found.group(1) if found else None


class FrontDoor:
    """ASGI app in front of the REST app (FastAPI) and the MCP chain; see the module docstring."""

    def __init__(self, *, rest: ASGIApp, mcp: ASGIApp, env: ToolEnvironment,
                 security: TransportSecuritySettings, max_rest_body_bytes: int) -> None:
        self._rest = rest
        self._mcp = mcp
        self._env = env
        self._rule = TransportSecurityMiddleware(security)
        self._max_rest_body_bytes = max_rest_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._rest(scope, receive, send)
            return
        request = Request(scope)
        refused = await self._rule.validate_request(request, is_post=False)
        if refused is not None:
            await refusal(request, refused.status_code)(scope, receive, send)
            return
        path = scope["path"]
        session_id = mcp_session_of(path)
        if session_id is not None:
            await self._serve_mcp(scope, receive, send, request, session_id)
        elif path.startswith(REST_PREFIX):
            bounded = await bounded_receive(scope, receive, send, self._max_rest_body_bytes)
            if bounded is not None:
                await self._rest(scope, bounded, send)
        else:
            await self._rest(scope, receive, send)

    async def _serve_mcp(self, scope: Scope, receive: Receive, send: Send, request: Request, session_id: str) -> None:
        if scope["method"] != "POST":
            await JSONResponse({"detail": "Method Not Allowed"}, status_code=405,
                               headers={"Allow": "POST"})(scope, receive, send)
            return
        named = session_id or request.headers.get(SESSION_HEADER)  # the headers the Host check parsed
        if named and not await self._admit(named, scope, receive, send):
            return
        if session_id:
            scope = {**scope, "path_params": {"session_id": session_id}}
        await self._mcp(scope, receive, send)

    async def _admit(self, session_id: str, scope: Scope, receive: Receive, send: Send) -> bool:
        """False (after answering 404) when the session does not exist."""
        try:
            self._env.view(session_id)
        except UnknownSessionError as exc:
            body = {"jsonrpc": "2.0", "id": None, "error": {"code": -32602, "message": str(exc)}}
            await JSONResponse(body, status_code=404)(scope, receive, send)
            return False
        except SessionError:
            pass  # e.g. tools missing from the catalog: the handlers answer with a JSON-RPC error
        return True
