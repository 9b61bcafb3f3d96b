"""A bare MCP echo server on the same SDK, transport and app stack as toolenv (the baseline).

Bare, but spec-compliant: it validates Host and Origin with the SDK's own settings, as every
MCP server over HTTP must (toolenv applies the same rule to all its routes).

Usage: python bench/echo_server.py PORT
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any

import mcp.types as types
import uvicorn
from fastapi import FastAPI
from mcp.server import Server, ServerRequestContext
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import Route

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


def build_app() -> FastAPI:
    server: Server[Any] = Server(
        "echo", on_list_tools=on_list_tools, on_call_tool=on_call_tool,
        get_tool_input_schema=lambda name: ECHO.input_schema if name == "echo" else None,
    )
    # A spec-compliant bare server validates Host and Origin (DNS-rebinding protection), as the
    # SDK's own streamable_http_app does for a loopback server; toolenv does the same app-wide.
    security = TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                         allowed_hosts=["127.0.0.1:*", "localhost:*"],
                                         allowed_origins=["http://127.0.0.1:*", "http://localhost:*"])
    manager = StreamableHTTPSessionManager(app=server, stateless=True, json_response=True, security_settings=security)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI):
        async with manager.run():
            yield

    app = FastAPI(lifespan=lifespan)
    app.router.routes.append(Route("/mcp", endpoint=StreamableHTTPASGIApp(manager), methods=["GET", "POST", "DELETE"]))
    return app


if __name__ == "__main__":
    uvicorn.run(build_app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
