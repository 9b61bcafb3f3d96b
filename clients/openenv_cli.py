"""``toolenv openenv serve``: serve toolenv as an OpenEnv environment (``clients.openenv_env``).

``openenv_app`` joins the ``toolenv`` command line through the ``toolenv.commands`` entry point
group, like ``toolenv eval``. Every ``toolenv`` command imports this module, so ``openenv-core``
(the ``openenv`` extra; its import takes seconds) is imported only when ``serve`` runs.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from env_server import LogLevel
from env_server.runner import is_loopback

DEFAULT_OPENENV_PORT = 8766
DEFAULT_IDLE_TIMEOUT_S = 1800.0

openenv_app = typer.Typer(help="toolenv as an OpenEnv environment (openenv-core): reset/step/state over a WebSocket.")
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


class RewardKind(str, Enum):
    DENSE = "dense"
    SPARSE = "sparse"


@openenv_app.callback()
def openenv_group() -> None:
    """Serve toolenv's scenarios and tools to OpenEnv clients (TRL, torchforge, SkyRL, ...)."""


@openenv_app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = DEFAULT_OPENENV_PORT,
    reward: Annotated[RewardKind, typer.Option(case_sensitive=False, help=(
        "Per-step reward of scenario episodes: dense (per-call credit and penalties plus a task-end bonus) or "
        "sparse (1 per correct task)."))] = RewardKind.DENSE,
    max_steps: Annotated[int, typer.Option(min=1, help="Actions per episode before it is truncated.")] = 64,
    max_sessions: Annotated[int, typer.Option(min=1, help=(
        "Most WebSocket sessions at once (one environment each); one more is refused with OpenEnv's capacity "
        "error."))] = 256,
    idle_timeout: Annotated[float, typer.Option(min=1, help=(
        "Seconds without a message after which a session is closed."))] = DEFAULT_IDLE_TIMEOUT_S,
    scenarios: Annotated[Path | None, typer.Option(help=(
        "Scenario file or directory (default: the built-in scenarios); its train split is served."))] = None,
    log_level: Annotated[LogLevel, typer.Option(case_sensitive=False, help="Server log level.")]
    = LogLevel.INFO,
) -> None:
    """Serve scenario episodes (train split and generated) and free play to OpenEnv clients on /ws."""
    try:
        from clients.openenv_env import build_openenv_app, openenv_settings
    except ModuleNotFoundError as exc:
        err.print(f"[red]error:[/red] {exc.name} is missing: install the extra with pip install 'toolenv[openenv]'")
        raise typer.Exit(2) from None
    import uvicorn

    from env_server import ServerSettings
    from env_server.orchestrator import load_scenarios
    from env_server.runner import configure_logging, http_options

    settings = ServerSettings(host=host, port=port, log_level=log_level)
    configure_logging(settings.log_level)
    app = build_openenv_app(
        openenv_settings(scenarios=load_scenarios(scenarios) if scenarios else None, reward=reward.value,
                         max_steps=max_steps),
        max_sessions=max_sessions, idle_timeout_s=idle_timeout)
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
    out.print(f"toolenv OpenEnv environment on {url} (WebSocket {url.replace('http', 'ws', 1)}/ws)")
    out.print(f"  connect: ToolenvEnvClient({url!r}) from clients.openenv_client, or openenv's MCPToolClient")
    if not is_loopback(host):
        err.print("[yellow]warning:[/yellow] OpenEnv's app checks no Host or Origin header; anyone who can reach "
                  f"{host}:{port} can open sessions")
    uvicorn.run(app, **http_options(settings))

