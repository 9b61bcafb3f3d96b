"""JSON-RPC envelope checks in front of the SDK, for streamable HTTP and stdio.

The SDK parses a POST body against a union of pydantic models. A batch, a wrong
``jsonrpc`` or a missing ``method`` comes back as ``-32602`` with pages of pydantic
text, and an ``id`` that is a float, an object, a boolean or ``null`` makes the body
parse as a *notification*: HTTP answers 202 and nobody hears of the mistake. On stdio
a line that is not JSON is dropped in silence, and lines have no size limit.

This module checks the envelope first and answers every defect with one line of text:

* malformed JSON: ``-32700`` Parse error, with where the parser stopped;
* a batch, a non-object, a bad ``id``, ``jsonrpc`` other than ``"2.0"``, a missing or
  non-string ``method``: ``-32600`` Invalid Request (``id`` is ``null`` unless the
  message carried a valid one);
* ``params`` that is not an object: ``-32602`` Invalid params;
* (HTTP) an ``MCP-Protocol-Version`` header this server does not speak: ``-32022``
  naming the supported versions in the message and in ``data.supported``, the code
  the SDK's own clients read to pick a version they share;
* (stdio) a line longer than ``settings.stdio_max_line_bytes``: ``-32600``, the rest
  of the line is skipped, and the server keeps serving.

Valid traffic passes through untouched: requests, notifications (no ``id``: 202 on
HTTP) and responses to server requests. HTTP wraps the SDK's ASGI app for ``/mcp``
and ``/sessions/{id}/mcp`` (:class:`EnvelopeGuard`); stdio swaps the SDK's line
reader for :class:`CheckedLines` and keeps its stdout writer.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO, cast

import anyio
import anyio.to_thread
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import RequestBodyLimitMiddleware
from mcp.shared.message import SessionMessage
from mcp_types import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    PARSE_ERROR,
    UNSUPPORTED_PROTOCOL_VERSION,
)
from mcp_types.jsonrpc import JSONRPCError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SUPPORTED_VERSIONS = (*HANDSHAKE_PROTOCOL_VERSIONS, *MODERN_PROTOCOL_VERSIONS)
PROTOCOL_HEADER = "mcp-protocol-version"
MAX_REASON = 200  # characters of a parser's own message kept in a reply


@dataclass(frozen=True)
class Rejection:
    """A JSON-RPC error owed to the sender of a bad message."""

    code: int
    message: str
    id: int | str | None = None
    data: Any = None

    def wire(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return {"jsonrpc": "2.0", "id": self.id, "error": error}

    def as_error(self) -> JSONRPCError:
        return JSONRPCError.model_validate(self.wire())


def read_envelope(raw: bytes) -> Any | Rejection:
    """The decoded message, or the rejection its sender is owed."""
    try:
        message = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return Rejection(PARSE_ERROR, "Parse error: the message is not UTF-8 text")
    except json.JSONDecodeError as exc:
        reason = exc.msg.removesuffix(" at")  # "Invalid control character at" names no place itself
        return Rejection(PARSE_ERROR, f"Parse error: {reason} at line {exc.lineno} column {exc.colno}")
    except (ValueError, RecursionError) as exc:  # a huge integer literal, or nesting past the recursion limit
        return Rejection(PARSE_ERROR, f"Parse error: {one_line(str(exc))}")
    return check_message(message) or message


def check_message(message: Any) -> Rejection | None:
    """The rejection for a decoded message that is not one JSON-RPC 2.0 object, else None."""
    if isinstance(message, list):
        return Rejection(INVALID_REQUEST, "batch requests are not supported; send one JSON-RPC object per message")
    if not isinstance(message, dict):
        return Rejection(INVALID_REQUEST, f"a message must be a JSON-RPC object, not {json_kind(message)}")
    if "id" in message and not valid_id(message["id"]) and not answers_unreadable(message):
        return Rejection(INVALID_REQUEST, f"'id' must be a string or an integer, not {json_kind(message['id'])}")
    rid = message.get("id")
    if message.get("jsonrpc") != "2.0":
        return Rejection(INVALID_REQUEST, "'jsonrpc' must be \"2.0\"", rid)
    return check_body(message, rid)


def check_body(message: dict[str, Any], rid: int | str | None) -> Rejection | None:
    if "method" not in message:
        if "id" in message and ("result" in message or "error" in message):
            return None  # a response to a server-to-client request: the SDK routes it
        return Rejection(INVALID_REQUEST, "missing 'method'", rid)
    if not isinstance(message["method"], str):
        return Rejection(INVALID_REQUEST, f"'method' must be a string, not {json_kind(message['method'])}", rid)
    params = message.get("params")
    if params is not None and not isinstance(params, dict):
        return Rejection(INVALID_PARAMS, f"'params' must be an object, not {json_kind(params)}", rid)
    return None


def check_protocol_header(value: str | None, rid: int | str | None) -> Rejection | None:
    if value is None or value in SUPPORTED_VERSIONS:
        return None
    return Rejection(
        UNSUPPORTED_PROTOCOL_VERSION,
        f"unsupported MCP-Protocol-Version {one_line(value)!r}; this server speaks {', '.join(SUPPORTED_VERSIONS)}",
        rid,
        data={"supported": list(SUPPORTED_VERSIONS), "requested": value},
    )


def answers_unreadable(message: dict[str, Any]) -> bool:
    """An error response with ``id: null``: JSON-RPC's answer to a request it could not read."""
    return message.get("id", 0) is None and "error" in message and "method" not in message


def valid_id(value: Any) -> bool:
    """MCP ids are strings or integers: never null, a float, a boolean or a structure."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def json_kind(value: Any) -> str:
    kinds: list[tuple[type | tuple[type, ...], str]] = [
        (bool, "a boolean"), (int, "an integer"), (float, "a float"), (str, "a string"),
        (list, "an array"), (dict, "an object"),
    ]
    return next((name for cls, name in kinds if isinstance(value, cls)), "null")


def one_line(text: str) -> str:
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first[:MAX_REASON]


# -- streamable HTTP ---------------------------------------------------------------------


class EnvelopeGuard:
    """ASGI layer in front of the SDK's MCP endpoint: a JSON POST is read (up to
    ``max_body_bytes``, the SDK's 413 beyond), checked, and either answered with a 400
    JSON-RPC error or replayed to the SDK unchanged. Other methods and content types
    pass straight through, so the SDK keeps answering them (405, 406, 415…)."""

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self._bounded = RequestBodyLimitMiddleware(self._inspect, max_body_bytes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and posts_json(Headers(scope=scope)):
            await self._bounded(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _inspect(self, scope: Scope, receive: Receive, send: Send) -> None:
        body, tail = await read_body(receive)
        found = read_envelope(body)
        if not isinstance(found, Rejection):
            rid = found.get("id") if isinstance(found, dict) else None
            found = check_protocol_header(Headers(scope=scope).get(PROTOCOL_HEADER), rid)
        if found is not None:
            await Response(json.dumps(found.wire()), status_code=400, media_type="application/json")(
                scope, receive, send)
            return
        replay: list[Message] = [{"type": "http.request", "body": body, "more_body": False}, *tail]

        async def replayed() -> Message:
            return replay.pop(0) if replay else await receive()

        await self.app(scope, replayed, send)


def posts_json(headers: Headers) -> bool:
    """Whether the POST declares a JSON body (the SDK answers any other type itself)."""
    declared = headers.get("content-type", "").split(";")[0]
    return any(part.strip().lower() == "application/json" for part in declared.split(","))


async def read_body(receive: Receive) -> tuple[bytes, list[Message]]:
    """The whole body, and any non-body message (a disconnect) that arrived with it."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), [message]
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks), []


# -- stdio -------------------------------------------------------------------------------


class CheckedLines:
    """stdin as the SDK's stdio reader consumes it (an async iterable of text lines), with
    only valid envelopes let through. Bad and oversized lines are answered on the SDK's
    write stream, which :func:`checked_stdio_server` hands over once it exists."""

    def __init__(self, source: BinaryIO, max_line_bytes: int) -> None:
        self._source = source
        self._max = max_line_bytes
        self._replies: Any = None
        self._ready = anyio.Event()

    def answer_on(self, write_stream: Any) -> None:
        self._replies = write_stream
        self._ready.set()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        while True:
            line = await self._read()
            if not line:
                return
            if len(line) > self._max and not line.endswith(b"\n"):
                size = len(line) + await self._skip_rest()
                await self._reply(Rejection(
                    INVALID_REQUEST, f"a {size}-byte message exceeds the stdio limit of {self._max} bytes "
                                     "(--stdio-max-line-bytes); it was skipped"))
                continue
            if not line.strip():
                continue
            found = read_envelope(line)
            if isinstance(found, Rejection):
                await self._reply(found)
                continue
            yield line.decode("utf-8")

    async def _read(self) -> bytes:
        """At most one byte past the limit, so an endless line never sits in memory whole."""
        return await anyio.to_thread.run_sync(self._source.readline, self._max + 1)

    async def _skip_rest(self) -> int:
        """Read past the end of an oversized line; the bytes skipped, newline excluded."""
        skipped = 0
        while True:
            chunk = await self._read()
            if not chunk:
                return skipped
            if chunk.endswith(b"\n"):
                return skipped + len(chunk) - 1
            skipped += len(chunk)

    async def _reply(self, rejection: Rejection) -> None:
        await self._ready.wait()
        await self._replies.send(SessionMessage(rejection.as_error()))


@asynccontextmanager
async def checked_stdio_server(max_line_bytes: int) -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's ``stdio_server`` (its stdout claim and writer) reading through :class:`CheckedLines`."""
    lines = CheckedLines(sys.stdin.buffer, max_line_bytes)
    async with stdio_server(stdin=cast(Any, lines)) as (read_stream, write_stream):
        lines.answer_on(write_stream)
        yield read_stream, write_stream
