"""The ``toolenv`` command line. Each command parses options and calls one library function."""

from __future__ import annotations

import datetime as dt
import json
import logging
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from env_server.catalog import Catalog
from env_server.cli_options import CatalogOpt, load_catalog_or_exit
from env_server.config import (
    DEFAULT_ENV_IDLE_TIMEOUT_S,
    DEFAULT_HOST,
    DEFAULT_MAX_BATCH,
    DEFAULT_MAX_ENVS,
    DEFAULT_PORT,
    DEFAULT_STDIO_MAX_LINE_BYTES,
    FREE_SESSION,
    LogLevel,
    ServerSettings,
)
from env_server.errors import SessionError
from env_server.http_guard import is_loopback
from env_server.orchestrator.cli import scenarios_app
from env_server.scoring.cli import score_app
from env_server.scoring.rules import Grading
from env_server.search import SearchRanking
from env_server.specs.cli import specs_app
from state.store import Durability

if TYPE_CHECKING:
    from env_server.environment import ToolEnvironment
    from state import Database

app = typer.Typer(
    help="toolenv: a simulated, deterministic MCP tool environment for evaluating and training agents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(specs_app, name="specs")
app.add_typer(scenarios_app, name="scenarios")
app.add_typer(score_app, name="score")
out = Console(soft_wrap=True)
_SETTING = ServerSettings.model_fields  # flag defaults come from the settings' own
err = Console(stderr=True, soft_wrap=True)

# Command groups from other packages join under the names they declare in this entry point
# group (pyproject.toml): `toolenv eval` comes from clients, which env_server never imports.
COMMAND_GROUP = "toolenv.commands"


def attach_commands(target: typer.Typer) -> None:
    """Add every typer app declared in the ``toolenv.commands`` entry point group, under its name."""
    for point in sorted(entry_points(group=COMMAND_GROUP), key=lambda p: p.name):
        target.add_typer(point.load(), name=point.name)


attach_commands(app)

@app.command()
def serve(
    catalog: CatalogOpt = None,
    host: Annotated[str, typer.Option(help="Interface to bind.")] = DEFAULT_HOST,
    port: Annotated[int, typer.Option(help="TCP port.")] = DEFAULT_PORT,
    db: Annotated[
        Path | None,
        typer.Option(help="DuckDB file for the call log and sessions; one process can use a file at a time. "
                     "Default: toolenv.duckdb in the user data directory over HTTP, a private in-memory "
                     "database with --stdio (gone when the process exits)."),
    ] = None,
    stdio: Annotated[bool, typer.Option("--stdio", help="Serve MCP over stdin/stdout instead of HTTP.")] = False,
    session: Annotated[str, typer.Option(help="Session served on stdio (default: free play).")] = FREE_SESSION,
    seed: Annotated[int, typer.Option(help="Seed of the free-play session.")] = 0,
    today: Annotated[str | None, typer.Option(help="Current date of the free-play session, YYYY-MM-DD.")] = None,
    admin_token: Annotated[
        str | None,
        typer.Option(envvar="TOOLENV_ADMIN_TOKEN",
                     help="Bearer token for the routes that reveal gold (scenario results, RL envs over evaluation "
                          "scenarios, fork/reset of their sessions). Visible in 'ps': prefer the TOOLENV_ADMIN_TOKEN "
                          "environment variable or --admin-token-file. Generated and printed when none is given."),
    ] = None,
    stdio_max_line_bytes: Annotated[
        int,
        typer.Option(min=1024, help="stdio only: longest accepted message line in bytes; a longer line is "
                                    "answered with a JSON-RPC -32600 error and skipped, and serving goes on."),
    ] = DEFAULT_STDIO_MAX_LINE_BYTES,
    max_envs: Annotated[
        int, typer.Option(min=1, help="Most RL envs (/v1/envs) open at once; a create or fork past it answers 429.")
    ] = DEFAULT_MAX_ENVS,
    env_idle_timeout: Annotated[
        float, typer.Option(min=1, help="Seconds without a request after which an RL env is freed (then 404).")
    ] = DEFAULT_ENV_IDLE_TIMEOUT_S,
    max_batch: Annotated[
        int, typer.Option(min=1, help="Most resets or steps in one /v1/envs/batch/reset or /v1/envs/batch/step "
                                      "request; a longer batch answers 422 (split it). Items run one after another.")
    ] = DEFAULT_MAX_BATCH,
    admin_token_file: Annotated[
        Path | None,
        typer.Option(help="Read the admin token from this file (surrounding whitespace stripped); "
                          "keeps it out of 'ps' and shell history."),
    ] = None,
    rl: Annotated[
        bool,
        typer.Option("--rl/--no-rl", help="Serve the RL env routes (/v1/envs); --no-rl leaves them out (404)."),
    ] = True,
    # HTTP transport: DNS-rebinding protection and logging.
    allowed_host: Annotated[list[str] | None, typer.Option(
        "--allowed-host", metavar="NAME[:PORT]",
        help="Also serve requests whose Host header is NAME (any port) or NAME:PORT (repeatable). Loopback "
             "names (localhost, 127.0.0.1, [::1]) are always served; any other Host gets 421 "
             "(DNS-rebinding protection). Needed when clients reach a non-loopback --host by name or address.",
    )] = None,
    allowed_origin: Annotated[list[str] | None, typer.Option(
        "--allowed-origin", metavar="ORIGIN",
        help="Also serve browser requests from ORIGIN, e.g. https://app.example.com, or http://NAME:* for any "
             "port (repeatable). Requests without an Origin header and from loopback origins are always "
             "served; any other Origin gets 403.",
    )] = None,
    log_level: Annotated[LogLevel, typer.Option(
        case_sensitive=False,
        help="HTTP server log level. The MCP SDK's per-request lines and uvicorn's access log show only at debug.",
    )] = LogLevel.INFO,
    # -- size limits (defaults: ServerSettings) --
    max_arg_chars: Annotated[int, typer.Option(min=1, help=(
        "Longest string a tool argument may hold, at any depth; a longer one is an isError result "
        "naming the parameter."))] = _SETTING["max_arg_chars"].default,
    max_body_bytes: Annotated[int, typer.Option(min=1, help=(
        "Largest REST (/v1/...) request body in bytes; larger is HTTP 413."))] = _SETTING["max_rest_body_bytes"].default,
    max_mcp_body_bytes: Annotated[int, typer.Option(min=1, help=(
        "Largest MCP-over-HTTP request body in bytes; larger is HTTP 413."))] = _SETTING["max_mcp_body_bytes"].default,
    max_logged_chars: Annotated[int, typer.Option(min=256, help=(
        "Call-log rows keep arguments and results up to this many characters of JSON; longer ones are "
        "logged as {\"_truncated\": true, \"chars\", \"sha256\"}."))] = _SETTING["max_logged_json_chars"].default,
    # -- durability --
    durability: Annotated[Durability, typer.Option(case_sensitive=False, help=(
        "Where sessions, worlds and calls are kept. journal: each call is journaled before its answer and "
        "batched into DuckDB; per_call: one DuckDB transaction per call; deferred: in memory until a flush; "
        "ephemeral: in memory only, nothing written and no call log kept, the fast choice for an RL training "
        "server (/v1/envs steps cost several times less)."))] = _SETTING["durability"].default,
    fsync: Annotated[bool, typer.Option("--fsync", help=(
        "Sync each call's journal line to disk before answering it, so answered calls survive a power loss, "
        "not only a killed server; costs one disk sync per call. Applies to the journal beside a database "
        "file (the default over HTTP; with --stdio it needs --db)."))] = _SETTING["fsync"].default,
    # -- grading of native scenarios --
    grading: Annotated[Grading, typer.Option(case_sensitive=False, help=(
        "How live scenario sessions and RL envs judge gold calls. native: with the per-argument match rules of "
        "native scenarios (equivalent values, omittable defaults, free text by keywords, number tolerance); "
        "official: the official WildToolBench checker alone, rules ignored."))] = _SETTING["grading"].default,
    search_ranking: Annotated[SearchRanking, typer.Option(case_sensitive=False, help=(
        "How search_tools ranks. lexical: by words; hybrid: fused with sentence-embedding similarity, which "
        "needs the 'semantic' extra (pip install 'toolenv[semantic]'; without it, lexical) and embeds every "
        "tool on the first search."))] = _SETTING["search_ranking"].default,
) -> None:
    """Serve the catalog over MCP (streamable HTTP by default, or stdio)."""
    import secrets

    from env_server.runner import run_http, run_stdio

    given_token = _admin_token(admin_token, admin_token_file)
    if fsync and durability is not Durability.JOURNAL:
        err.print(f"[red]error:[/red] --fsync syncs the journal; it needs --durability journal, not {durability.value}")
        raise typer.Exit(2)
    settings = ServerSettings(
        host=host,
        port=port,
        db_path=db,
        catalog_paths=list(catalog or []),
        seed=seed,
        stdio_session=session,
        stdio_max_line_bytes=stdio_max_line_bytes,
        admin_token=given_token or (None if stdio else secrets.token_urlsafe(24)),
        max_envs=max_envs,
        env_idle_timeout=env_idle_timeout,
        max_batch=max_batch,
        rl_plane=rl,
        allowed_hosts=list(allowed_host or []),
        allowed_origins=list(allowed_origin or []),
        log_level=log_level,
        max_arg_chars=max_arg_chars,
        max_rest_body_bytes=max_body_bytes,
        max_mcp_body_bytes=max_mcp_body_bytes,
        max_logged_json_chars=max_logged_chars,
        durability=durability,
        fsync=fsync,
        grading=grading,
        search_ranking=search_ranking,
        **({"today": dt.date.fromisoformat(today)} if today else {}),
    )
    if fsync and stdio and db is None:
        err.print("[red]error:[/red] --fsync syncs the journal of a database file; with --stdio, pass --db FILE")
        raise typer.Exit(2)
    db_handle = _open_database(settings, stdio=stdio)  # before the catalog: a busy file fails fast
    cat = load_catalog_or_exit(settings.catalog_paths)
    env = _environment(cat, settings, db_handle, stdio=stdio)
    if stdio:
        logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
        run_stdio(env)
        return
    url = f"http://{_client_host(host)}:{port}/mcp"
    if not is_loopback(host) and not allowed_host:
        err.print(f"[yellow]warning:[/yellow] --host {host} is reachable from other machines, but only requests "
                  "addressed to localhost, 127.0.0.1 or [::1] are served (others get 421); add --allowed-host "
                  "NAME for each name or address clients use (and --allowed-origin for browser apps)")
    out.print(f"toolenv: {len(cat)} tools from {', '.join(cat.sources)}")
    out.print(f"MCP endpoint (free play, all tools + search_tools): [bold]{url}[/bold]")
    out.print(f"Per-session endpoints: {url.removesuffix('/mcp')}/sessions/<session_id>/mcp  "
              "(create with POST /v1/sessions)")
    out.print(f"Database (call log, sessions; --db to change): {env.db.path}", markup=False)
    if not given_token:
        out.print(f"Admin token (routes that reveal gold; generated): [bold]{settings.admin_token}[/bold]")
    out.print("Client config snippet:")
    out.print_json(json.dumps({"mcpServers": {"toolenv": {"type": "http", "url": url}}}))
    run_http(env)


def _open_database(settings: ServerSettings, *, stdio: bool) -> Database:
    """The server's database, or a one-line error and exit 1 when it cannot be opened."""
    from env_server.runner import open_database
    from state import DatabaseLockedError, DatabaseOpenError

    try:
        return open_database(settings, stdio=stdio)
    except DatabaseLockedError as exc:
        err.print(f"error: {exc}; stop it, or pass --db FILE to use another database file", markup=False)
        raise typer.Exit(1) from None
    except DatabaseOpenError as exc:
        err.print(f"error: {exc}; pass --db FILE to use another database file", markup=False)
        raise typer.Exit(1) from None


def _environment(cat: Catalog, settings: ServerSettings, db: Database, *, stdio: bool) -> ToolEnvironment:
    """The server's environment; with --stdio, an unknown --session is a one-line error and exit 1."""
    from env_server.runner import build_environment

    env = build_environment(cat, settings, db=db)
    if stdio:
        try:
            env.view(settings.stdio_session)
        except SessionError as exc:
            err.print(f"error: {exc} in database {env.db.path}; pass --db FILE holding it "
                      "(sessions are created over HTTP with POST /v1/sessions)", markup=False)
            raise typer.Exit(1) from None
    return env


def _admin_token(value: str | None, path: Path | None) -> str | None:
    """The admin token from --admin-token / TOOLENV_ADMIN_TOKEN or --admin-token-file (exit 2 on misuse)."""
    if path is None:
        return value
    if value:
        err.print("[red]error:[/red] give the admin token once: --admin-token (or TOOLENV_ADMIN_TOKEN) "
                  "or --admin-token-file, not both")
        raise typer.Exit(2)
    try:
        token = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        err.print(f"[red]error:[/red] cannot read --admin-token-file {path}: {exc.strerror or exc}")
        raise typer.Exit(2) from None
    if not token:
        err.print(f"[red]error:[/red] --admin-token-file {path} is empty")
        raise typer.Exit(2)
    return token


def _client_host(bind_host: str) -> str:
    """How a local client writes ``bind_host`` in a URL: a wildcard bind is reached as
    127.0.0.1, an IPv6 address goes in brackets."""
    if bind_host in ("0.0.0.0", "::", "[::]", ""):
        return "127.0.0.1"
    return f"[{bind_host}]" if ":" in bind_host and not bind_host.startswith("[") else bind_host


def main() -> None:
    app()


if __name__ == "__main__":
    main()
