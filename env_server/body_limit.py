"""HTTP 413 for REST request bodies over ``ServerSettings.max_rest_body_bytes``.

An ASGI layer in front of the REST plane (paths under ``/v1/``): a declared
``Content-Length`` over the limit is refused before anything is read, and a body sent
without one (chunked) is read ahead only up to the limit, so an oversized upload never
reaches JSON parsing or the event loop's memory whole. MCP endpoints are left to the MCP
SDK's own check (``max_request_body_size``, set from ``max_mcp_body_bytes``).
"""

from __future__ import annotations

from collections import deque

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REST_PREFIX = "/v1/"


class RestBodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int, prefix: str = REST_PREFIX) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.prefix = prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        if self._declared_size(scope) > self.max_bytes:
            await self._refuse(scope, receive, send)
            return
        messages: deque[Message] = deque()
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break  # a disconnect: the app sees it in order
            size += len(message.get("body", b""))
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return messages.popleft() if messages else await receive()

        await self.app(scope, replay, send)

    @staticmethod
    def _declared_size(scope: Scope) -> int:
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                return int(value) if value.isdigit() else 0  # a malformed one is the server's to refuse
        return 0

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        detail = f"request body larger than the server's limit of {self.max_bytes:,} bytes (max_rest_body_bytes)"
        await JSONResponse({"detail": detail}, status_code=413)(scope, receive, send)
