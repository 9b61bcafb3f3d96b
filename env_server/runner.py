"""Process entry points: build the environment from settings and run a transport.

Where the database lives (:func:`database_path`): ``--db`` when given; otherwise an HTTP
server uses ``toolenv.duckdb`` in the user data directory, and a stdio server a private
in-memory database. Desktop apps start their own stdio servers, often several at once and
beside a running HTTP server, and a DuckDB file admits one process at a time.
"""

from __future__ import annotations

import gc
import logging
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import uvicorn

from env_server.app import build_app
from env_server.catalog import Catalog
from env_server.config import LogLevel, ServerSettings
from env_server.envelopes import checked_stdio_server
from env_server.environment import ToolEnvironment
from env_server.http_guard import is_loopback
from env_server.server import build_server
from state import Database, default_db_path
from state.db import MEMORY

__all__ = [
    "build_environment",
    "configure_logging",
    "database_path",
    "free_port",
    "http_options",
    "is_loopback",
    "open_database",
    "run_http",
    "run_stdio",
    "serve_in_thread",
]

# The server's DuckDB work is batched inserts from the journal flusher and small
# per-session reads; extra DuckDB workers only compete with the event loop for the cores.
# With one, a 960-call batch cost ~15.5 instead of 17-24 us of CPU a call (same core).
SERVER_DUCKDB_THREADS = 1


def database_path(settings: ServerSettings, *, stdio: bool = False) -> str:
    """``settings.db_path``, else the user data dir's file (HTTP) or ``:memory:`` (stdio)."""
    if settings.db_path is not None:
        return str(settings.db_path)
    return MEMORY if stdio else str(default_db_path())


def open_database(settings: ServerSettings, *, stdio: bool = False) -> Database:
    """Raises ``state.DatabaseOpenError`` (``DatabaseLockedError`` when another process has the file)."""
    return Database(database_path(settings, stdio=stdio), threads=SERVER_DUCKDB_THREADS)


def build_environment(
    catalog: Catalog, settings: ServerSettings, *, stdio: bool = False, db: Database | None = None
) -> ToolEnvironment:
    return ToolEnvironment(catalog, db or open_database(settings, stdio=stdio), settings)


# Young-generation threshold while serving (CPython's default is 700). One tools/list of a
# large catalog makes ~100k short-lived containers in the SDK's serialization, and each
# call leaves ~20 objects in reference cycles; at 700 the collector ran dozens of times per
# second and a full collection (~8 ms) two or three times per 1,000 calls. At 10,000 a
# young collection runs every few hundred calls (~4 ms) and full ones rarely.
GC_GEN0_THRESHOLD = 10_000


def freeze_startup_heap() -> None:
    """Move everything built at startup (catalog, validators, plans) out of the collector's
    view, and make young collections less frequent (``GC_GEN0_THRESHOLD``).

    The startup objects (~150k) live as long as the process; without the freeze every full
    collection walks them again, a ~70 ms pause in the middle of serving (measured on the
    WildToolBench catalog), for nothing.
    """
    gc.collect()
    gc.freeze()
    _, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(GC_GEN0_THRESHOLD, gen1, gen2)


def http_options(settings: ServerSettings) -> dict[str, Any]:
    """uvicorn's keyword arguments for ``settings``: address, keep-alive and log level.

    The access log (one line a request) is on only at debug.
    """
    return {"host": settings.host, "port": settings.port, "lifespan": "on",
            "timeout_keep_alive": settings.keep_alive_s, "log_level": settings.log_level.value,
            "access_log": settings.log_level is LogLevel.DEBUG}


def configure_logging(level: LogLevel) -> None:
    """Log to stderr at ``level``; the SDK's per-request INFO lines ("Terminating session:
    None" on every stateless request) stay hidden unless ``level`` is debug."""
    numeric = logging.getLevelNamesMapping()[level.value.upper()]
    logging.basicConfig(level=numeric, stream=sys.stderr)
    logging.getLogger("mcp").setLevel(numeric if level is LogLevel.DEBUG else max(numeric, logging.WARNING))


def run_http(env: ToolEnvironment) -> None:
    configure_logging(env.settings.log_level)
    app = build_app(env)
    freeze_startup_heap()
    uvicorn.run(app, **http_options(env.settings))


def run_stdio(env: ToolEnvironment) -> None:
    server = build_server(env)
    freeze_startup_heap()

    async def main() -> None:
        async with checked_stdio_server(env.settings.stdio_max_line_bytes) as (read, write):
            await server.run(read, write, server.create_initialization_options())

    env.start_flusher()
    try:
        anyio.run(main)
    finally:
        env.close()


def free_port() -> int:
    """A TCP port on the loopback interface that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve_in_thread(env: ToolEnvironment, *, timeout_s: float = 15.0) -> Iterator[str]:
    """Serve ``env``'s app with uvicorn in a daemon thread on a free loopback port; yields the
    base URL and stops the server on exit. ``toolenv eval`` plays against this when no
    ``--server`` is given."""
    port = free_port()
    options = http_options(env.settings.model_copy(update={"host": "127.0.0.1", "port": port,
                                                           "log_level": LogLevel.WARNING}))
    server = uvicorn.Server(uvicorn.Config(build_app(env), **options))
    thread = threading.Thread(target=server.run, name=f"toolenv-serve-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout_s
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            server.should_exit = True
            raise RuntimeError("the in-process toolenv server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout_s)
