"""Helpers that run a real uvicorn server on a free loopback port for end-to-end tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from env_server.app import build_app
from env_server.config import LogLevel, ServerSettings
from env_server.environment import ToolEnvironment
from env_server.runner import http_options


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """Serve any ASGI app with uvicorn in a thread on a free port, configured like ``toolenv serve``
    (keep-alive, no access log); yields the base URL."""
    port = free_port()
    settings = ServerSettings(host="127.0.0.1", port=port, log_level=LogLevel.WARNING)
    server = uvicorn.Server(uvicorn.Config(app, **http_options(settings)))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def running_server(env: ToolEnvironment) -> Iterator[str]:
    """Serve ``env`` with uvicorn in a thread; yields the base URL."""
    with serving(build_app(env)) as base:
        yield base
