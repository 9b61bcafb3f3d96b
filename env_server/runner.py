"""Process entry points: build the environment from settings and run a transport."""

from __future__ import annotations

import anyio
import uvicorn
from mcp.server.stdio import stdio_server

from env_server.app import build_app
from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.server import build_server
from state import Database, default_db_path


def build_environment(catalog: Catalog, settings: ServerSettings) -> ToolEnvironment:
    db = Database(settings.db_path or default_db_path())
    return ToolEnvironment(catalog, db, settings)


def run_http(catalog: Catalog, settings: ServerSettings) -> None:
    env = build_environment(catalog, settings)
    uvicorn.run(build_app(env), host=settings.host, port=settings.port, log_level="warning")


def run_stdio(catalog: Catalog, settings: ServerSettings) -> None:
    env = build_environment(catalog, settings)
    server = build_server(env)

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    env.store.start_flusher()
    try:
        anyio.run(main)
    finally:
        env.store.close()
