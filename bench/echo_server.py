"""A bare MCP echo server on the same SDK and transport as toolenv (the baseline).

Bare, but spec-compliant: it is the SDK's own ``streamable_http_app``, which validates Host
and Origin for a loopback server, as every MCP server over HTTP must (toolenv applies the
same rule to all its routes).

Usage: python bench/echo_server.py PORT
"""

from __future__ import annotations

import sys
from typing import Any

import mcp.types as types
import uvicorn
from mcp.server import Server, ServerRequestContext
from starlette.applications import Starlette

ECHO = types.Tool.model_validate(
    {
        "name": "echo",
        "description": "Echo the message back.",
        "inputSchema": {"type": "object", "properties": {"msg": {"type": "string"}}, "required": ["msg"]},
        "outputSchema": {"type": "object", "properties": {"echo": {"type": "string"}}, "required": ["echo"]},
    }
)


async def on_list_tools(ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[ECHO])


async def on_call_tool(ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    out = {"echo": str((params.arguments or {}).get("msg", ""))}
    return types.CallToolResult(content=[types.TextContent(type="text", text=out["echo"])], structured_content=out)


def build_app() -> Starlette:
    """The SDK's own streamable HTTP app for the echo server: the leanest stack the SDK offers.

    Stateless with JSON responses, as toolenv serves. For a loopback host the SDK turns on its
    DNS-rebinding protection itself (Host and Origin checks), as toolenv does for every route.
    """
    server: Server[Any] = Server(
        "echo", on_list_tools=on_list_tools, on_call_tool=on_call_tool,
        get_tool_input_schema=lambda name: ECHO.input_schema if name == "echo" else None,
    )
    return server.streamable_http_app(stateless_http=True, json_response=True, host="127.0.0.1")


if __name__ == "__main__":
    uvicorn.run(build_app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
