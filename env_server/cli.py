"""The ``toolenv`` command line. Each command parses options and calls one library function."""

from __future__ import annotations

import datetime as dt
import json
import logging
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from env_server.catalog import Catalog, load_catalog
from env_server.config import (
    DEFAULT_ENV_IDLE_TIMEOUT_S,
    DEFAULT_HOST,
    DEFAULT_MAX_ENVS,
    DEFAULT_PORT,
    DEFAULT_STDIO_MAX_LINE_BYTES,
    FREE_SESSION,
    LogLevel,
    ServerSettings,
)
from env_server.errors import CatalogError, SessionError
from env_server.http_guard import is_loopback
from env_server.orchestrator.cli import scenarios_app
from env_server.scoring.cli import score_app

if TYPE_CHECKING:
    from env_server.environment import ToolEnvironment
    from state import Database

app = typer.Typer(
    help="toolenv: a simulated, deterministic MCP tool environment for evaluating and training agents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
specs_app = typer.Typer(help="Inspect and check tool-spec catalogs.", no_args_is_help=True)
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

CatalogOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--catalog",
        "-c",
        help="Catalog path (repeatable): a native spec dir/file, a WildToolBench tools .jsonl, "
        "a JSON list of OpenAI/Anthropic tools, or ToolAlpaca eval_*.json. Default: the built-in catalog.",
    ),
]


def _load(paths: list[Path] | None) -> Catalog:
    try:
        return load_catalog(list(paths or []))
    except CatalogError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None


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
    fsync: Annotated[bool, typer.Option("--fsync", help=(
        "Sync each call's journal line to disk before answering it, so answered calls survive a power loss, "
        "not only a killed server; costs one disk sync per call. Applies to the journal beside a database "
        "file (the default over HTTP; with --stdio it needs --db)."))] = _SETTING["fsync"].default,
) -> None:
    """Serve the catalog over MCP (streamable HTTP by default, or stdio)."""
    import secrets

    from env_server.runner import run_http, run_stdio

    given_token = _admin_token(admin_token, admin_token_file)
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
        rl_plane=rl,
        allowed_hosts=list(allowed_host or []),
        allowed_origins=list(allowed_origin or []),
        log_level=log_level,
        max_arg_chars=max_arg_chars,
        max_rest_body_bytes=max_body_bytes,
        max_mcp_body_bytes=max_mcp_body_bytes,
        max_logged_json_chars=max_logged_chars,
        fsync=fsync,
        **({"today": dt.date.fromisoformat(today)} if today else {}),
    )
    if fsync and stdio and db is None:
        err.print("[red]error:[/red] --fsync syncs the journal of a database file; with --stdio, pass --db FILE")
        raise typer.Exit(2)
    db_handle = _open_database(settings, stdio=stdio)  # before the catalog: a busy file fails fast
    cat = _load(settings.catalog_paths)
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


@specs_app.command("list")
def specs_list(
    catalog: CatalogOpt = None,
    category: Annotated[str | None, typer.Option(help="Only list tools of this category.")] = None,
    names: Annotated[bool, typer.Option("--names", help="Also print every tool name.")] = False,
) -> None:
    """Counts by category and source (and optionally the tool names)."""
    cat = _load(catalog)
    tools = [t for t in cat.tools.values() if category is None or t.category == category]
    by_cat: dict[str, int] = {}
    by_src: dict[str, int] = {}
    for t in tools:
        by_cat[t.category] = by_cat.get(t.category, 0) + 1
        by_src[t.source.value] = by_src.get(t.source.value, 0) + 1
    providers = {(t.source, t.provider) for t in tools}
    out.print(f"{len(tools)} tools, {len(providers)} providers, {len(by_cat)} categories")
    _print_counts("Category", by_cat)
    _print_counts("Source", by_src)
    if names:
        for t in sorted(tools, key=lambda t: (t.category, t.name)):
            out.print(f"{t.category:<24} {t.name:<48} {t.description[:70]}")


@specs_app.command("show")
def specs_show(
    name: Annotated[str, typer.Argument(help="Tool name.")],
    catalog: CatalogOpt = None,
    example: Annotated[bool, typer.Option(help="Also simulate a call with sample arguments.")] = True,
) -> None:
    """Print one spec: schemas, simulation profile (marked when inferred), normalizations."""
    from env_server.simulators import SimContext, simulate
    from env_server.specs.samples import sample_arguments

    cat = _load(catalog)
    spec = cat.get(name)
    if spec is None:
        close = cat.suggest(name)
        err.print(f"[red]error:[/red] no tool named '{name}'" + (f"; did you mean {', '.join(close)}?" if close else ""))
        raise typer.Exit(1)
    out.print(f"[bold]{spec.name}[/bold]  ({spec.provider} · {spec.category} · {spec.source.value})")
    out.print(spec.description)
    out.print(f"origin: {spec.origin}")
    label = "profile (inferred)" if spec.profile.inferred else "profile"
    out.print(f"{label}: ", end="")
    out.print_json(spec.profile.model_dump_json(exclude_defaults=True))
    out.print("input schema:")
    out.print_json(json.dumps(spec.input_schema))
    out.print("output schema:")
    out.print_json(json.dumps(spec.output_schema))
    for n in spec.normalizations:
        out.print(f"normalized {n.path}: {n.change}")
    if example:
        args = sample_arguments(spec, 0)
        out.print("example call:")
        out.print_json(json.dumps({"arguments": args, "result": simulate(spec, args, SimContext())}))


@specs_app.command("check")
def specs_check(
    catalog: CatalogOpt = None,
    show_warnings: Annotated[bool, typer.Option("--warnings", help="Print every warning, not just counts.")] = False,
) -> None:
    """Check every spec (names, schemas, profiles, simulated outputs); exit 1 on errors."""
    from env_server.specs.checks import check_catalog

    cat = _load(catalog)
    report = check_catalog(cat)
    variants = sum(1 for t in cat.tools.values() if t.base_name and "__" in t.name)
    out.print(
        f"{cat.definitions_read} function definitions read; {len(cat)} distinct tools "
        f"({cat.repeats_merged} identical repeats merged, {variants} extra signatures kept as NAME__N)"
    )
    out.print(
        f"{len(cat)} tools · {len(report.providers)} providers · {len(report.by_category)} categories · "
        f"{report.write_tools} write tools, {len(cat) - report.write_tools} without writes · "
        f"{report.write_providers} providers with writes · {report.normalizations} normalizations"
    )
    _print_counts("Category", dict(report.by_category))
    _print_counts("Source", dict(report.by_source))
    _print_counts("Operation", dict(report.by_operation))
    _print_counts("Parameter type", dict(report.param_types))
    for p in report.errors:
        out.print(f"[red]error[/red]   {p.tool}: {p.message}")
    if show_warnings:
        for p in report.warnings:
            out.print(f"[yellow]warning[/yellow] {p.tool}: {p.message}")
    out.print(f"{len(report.errors)} errors, {len(report.warnings)} warnings")
    raise typer.Exit(1 if report.errors else 0)


@specs_app.command("audit")
def specs_audit(
    catalog: CatalogOpt = None,
    tool: Annotated[
        list[str] | None, typer.Option("--tool", "-t", help="Audit only this tool (repeatable).")
    ] = None,
    sample: Annotated[
        int | None, typer.Option(min=1, help="Audit a seeded random sample of N tools (of --tool's, if given).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the sample and of every audit session's world.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Also log simulator tracebacks.")] = False,
) -> None:
    """Call every tool (or a sample) in a fresh session with sample arguments and report what is not believable.

    Each tool runs in a fresh session over its API family, called with sample arguments (variant 0, or variant 1 when variant 0 is rejected). Checks:

    [bold]lorem[/bold]: a string reads as Faker lorem filler (incl. 1-2 word lowercase names, titles, breeds).

    [bold]invariant[/bold]: a record breaks a declared invariant (°F from °C, high >= low, end after start ...).

    [bold]id_chain[/bold]: an id a search/list returned is a 404 (or rejected) in its family's read-by-id tools.

    [bold]empty_fresh_list[/bold]: a search/list answers an empty collection in a fresh session.

    [bold]nondeterministic[/bold]: a read/search/list/action answers differently when called twice the same way.

    [bold]clock[/bold]: a create's timestamp, or an "as of now" date (last_updated, localtime ...), is not the session's today.

    [bold]infra_error[/bold]: the simulator crashed on the tool.

    Exit status: 0 without findings, 1 with any finding, 2 on usage errors.
    """
    from rich.progress import Progress

    from env_server.specs.audit import AuditUsageError, audit_catalog, select_tools

    cat = _load(catalog)
    try:
        names = select_tools(cat, tool, sample, seed)
    except AuditUsageError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    if err.is_terminal and len(names) > 1:
        with Progress(console=err, transient=True) as progress:
            task = progress.add_task("auditing", total=len(names))
            report = audit_catalog(cat, names, seed=seed, quiet=not verbose,
                                   on_tool=lambda _name: progress.advance(task))
    else:
        report = audit_catalog(cat, names, seed=seed, quiet=not verbose)
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
        raise typer.Exit(1 if report.failed else 0)
    if report.findings:
        table = Table(title="Findings", title_justify="left")
        for column in ("tool", "check", "path", "detail"):
            table.add_column(column, overflow="fold")
        for name, findings in report.by_tool().items():
            for i, f in enumerate(findings):
                cells = (name if i == 0 else "", f.check.value, f.path, f.detail)
                table.add_row(*(Text(c) for c in cells), end_section=i == len(findings) - 1)
        out.print(table)
    totals = Table(title_justify="left")
    totals.add_column("Check")
    totals.add_column("findings", justify="right")
    for kind, count in report.totals.items():
        totals.add_row(kind, str(count))
    out.print(totals)
    flagged = len(report.by_tool())
    out.print(f"{report.tools_audited} tools audited, {flagged} with findings, {len(report.findings)} findings")
    raise typer.Exit(1 if report.failed else 0)


def _print_counts(title: str, counts: dict[str, Any]) -> None:
    table = Table(title_justify="left")
    table.add_column(title)
    table.add_column("count", justify="right")
    for key, value in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        table.add_row(key, str(value))
    out.print(table)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
