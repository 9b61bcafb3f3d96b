"""HTTP 413 for REST request bodies over ``ServerSettings.max_rest_body_bytes``.

Used by the front door (``front_door.py``) for paths under ``/v1/``: a declared
``Content-Length`` over the limit is refused before anything is read, and a body sent
without one (chunked) is read ahead only up to the limit, so an oversized upload never
reaches JSON parsing or the event loop's memory whole. MCP endpoints are left to the MCP
SDK's own check (``max_request_body_size``, set from ``max_mcp_body_bytes``).
"""

from __future__ import annotations

from collections import deque

from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope, Send

REST_PREFIX = "/v1/"


async def bounded_receive(scope: Scope, receive: Receive, send: Send, max_bytes: int) -> Receive | None:
    """A ``receive`` that replays the whole body read so far, or None once a 413 is sent."""
    if declared_size(scope) > max_bytes:
        await refuse(scope, receive, send, max_bytes)
        return None
    messages: deque[Message] = deque()
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break  # a disconnect: the app sees it in order
        size += len(message.get("body", b""))
        if size > max_bytes:
            await refuse(scope, receive, send, max_bytes)
            return None
        if not message.get("more_body", False):
            break

    async def replay() -> Message:
        return messages.popleft() if messages else await receive()

    return replay


def declared_size(scope: Scope) -> int:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            return int(value) if value.isdigit() else 0  # a malformed one is the server's to refuse
    return 0


async def refuse(scope: Scope, receive: Receive, send: Send, max_bytes: int) -> None:
    detail = f"request body larger than the server's limit of {max_bytes:,} bytes (max_rest_body_bytes)"
    await JSONResponse({"detail": detail}, status_code=413)(scope, receive, send)
