"""``toolenv eval``: play scenarios with an agent over real MCP and write a run directory.

``--protocol replay`` instead runs the official offline WildToolBench protocol with no server
(one episode per task, gold history and gold observations, stop at the first mismatch) and
writes the official result-file layout; see :mod:`clients.replay_runner`.

``eval_app`` joins the ``toolenv`` command line as ``toolenv eval`` through the
``toolenv.commands`` entry point group (``pyproject.toml``), so env_server never imports this
package. Without ``--server`` the command starts its own server in-process (uvicorn on a free
loopback port, in-memory database, a fresh admin token); with ``--server`` it needs that
server's ``--admin-token``. The run-directory format is documented in :mod:`clients.agent_runner`.
"""

from __future__ import annotations

import json
import os
import secrets
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import anyio
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from clients.agent_runner import SESSIONS_DIR, RunConfig, SessionOutcome, run_eval
from clients.agents import OpenAIAgent, OracleAgent, ScriptedAgent
from clients.replay_runner import ScenarioRun, run_replay
from clients.run_chain import ManifestInputs, write_manifest
from env_server import ServerSettings, ToolEnvironment, parse_faults
from env_server.catalog import Catalog, CatalogError, load_catalog
from env_server.orchestrator import ScenarioError, load_scenarios, registry_for
from env_server.runner import serve_in_thread
from state import Database

eval_app = typer.Typer(help="Evaluate an agent on scenarios: over MCP (live) or the official offline protocol (replay).")
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


class ProtocolKind(str, Enum):
    LIVE = "live"
    REPLAY = "replay"


class AgentKind(str, Enum):
    ORACLE = "oracle"
    SCRIPTED = "scripted"
    OPENAI = "openai"


def _agent_factory(kind: AgentKind, base_url: str | None, model: str | None, api_key_env: str,
                   script: Path | None) -> Any:
    if kind is AgentKind.ORACLE:
        return OracleAgent
    if kind is AgentKind.SCRIPTED:
        data = json.loads(script.read_text(encoding="utf-8")) if script is not None else {}
        return lambda: ScriptedAgent(script=data)
    if not base_url or not model:
        err.print("[red]--agent openai needs --base-url and --model[/red]")
        raise typer.Exit(2)
    key = os.environ.get(api_key_env)
    return lambda: OpenAIAgent(base_url=base_url, model=model, api_key=key)


@eval_app.callback(invoke_without_command=True)
def evaluate(
    agent: Annotated[AgentKind, typer.Option("--agent", "-a", help="Who plays the sessions.")] = AgentKind.ORACLE,
    scenario: Annotated[list[str] | None, typer.Option("--scenario", help="Scenario id (repeatable); default all.")] = None,
    scenarios: Annotated[Path | None, typer.Option("--scenarios", "-s", help="Scenario path; default built-in.")] = None,
    catalog: Annotated[list[Path] | None, typer.Option("--catalog", "-c", help="Catalog path (repeatable).")] = None,
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1.")] = None,
    model: Annotated[str | None, typer.Option(help="Model name sent to the endpoint.")] = None,
    api_key_env: Annotated[str, typer.Option(help="Environment variable holding the API key.")] = "OPENAI_API_KEY",
    script: Annotated[Path | None, typer.Option(help="JSON script for --agent scripted.")] = None,
    server: Annotated[str | None, typer.Option(help="Use a running toolenv server instead of starting one.")] = None,
    admin_token: Annotated[str | None, typer.Option(
        envvar="TOOLENV_ADMIN_TOKEN", help="Admin token of --server (printed by 'toolenv serve').")] = None,
    distractors: Annotated[int, typer.Option(min=0, help="Add this many catalog tools to each session's list "
                                             "(on top of its own tools; see --tool-pool for a fixed total).")] = 0,
    tool_pool: Annotated[int | None, typer.Option(
        min=1, help="Hybrid-N: list N tools in total in each session, its own tools included (similar tools by the "
                    "search_tools index, then random ones; 20 is the paper's main setting). Not with --distractors.",
    )] = None,
    out_dir: Annotated[Path, typer.Option("--out", help="Directory that holds run directories.")] = Path("runs"),
    run_name: Annotated[str | None, typer.Option(help="Run directory name; default from agent and model.")] = None,
    concurrency: Annotated[int, typer.Option(min=1, help="Sessions played at once.")] = 4,
    seed: Annotated[int | None, typer.Option(help="Override every scenario's seed.")] = None,
    max_steps: Annotated[int | None, typer.Option(min=1, help="Tool calls allowed per task (default 16).")] = None,
    resume: Annotated[bool, typer.Option(help="Skip sessions already finished in the run directory.")] = True,
    faults: Annotated[str | None, typer.Option(
        "--faults", help="Seeded fault injection: a profile (flaky: 10% 429, 5% timeouts, 5% 503; degraded: more "
                         "and slower) or JSON such as '{\"seed\": 3, \"rate_limit\": 0.2, \"timeout\": 0.1, "
                         "\"server_error\": 0.1, \"slow_ms\": 200}' ('profile' plus overrides works too). Tools "
                         "then answer 429/503/504 like failing APIs, the same calls on every run; faults are never "
                         "scored, and summary.json and the scoring reports show the recovery.",
    )] = None,
    protocol: Annotated[ProtocolKind, typer.Option(
        "--protocol", help="live: MCP sessions with a simulated world; replay: the official offline protocol "
                           "(gold history and observations, stop at the first mismatch, official result file).",
    )] = ProtocolKind.LIVE,
) -> None:
    load = load_scenarios(scenarios)
    for problem in load.errors:
        err.print(f"[yellow]skipped: {problem}[/yellow]")
    chosen = load.scenarios
    if scenario:
        unknown = sorted(set(scenario) - {s.id for s in chosen})
        if unknown:
            err.print(f"[red]unknown scenario(s): {unknown}[/red]")
            raise typer.Exit(2)
        chosen = [s for s in chosen if s.id in set(scenario)]
    if not chosen:
        err.print("[red]no scenarios to run[/red]")
        raise typer.Exit(2)
    make_agent = _agent_factory(agent, base_url, model, api_key_env, script)
    if protocol is ProtocolKind.REPLAY:
        ignored = [flag for flag, used in (("--server", server is not None), ("--distractors", distractors > 0),
                                           ("--tool-pool", tool_pool is not None), ("--seed", seed is not None),
                                           ("--max-steps", max_steps is not None),
                                           ("--faults", faults is not None))
                   if used]
        if ignored:
            err.print(f"[yellow]--protocol replay ignores {', '.join(ignored)}[/yellow]")
        config = RunConfig(agent=agent.value, model=model, base_url=base_url, concurrency=concurrency)
        run_dir = out_dir / (run_name or f"{config.run_name()}-replay")
        summary = _replay(config, chosen, make_agent, run_dir, catalog)
        _print_summary(summary, run_dir)
        out.print(f"official result file: {summary['result_file']} (score it with 'toolenv score official')")
        return
    if tool_pool is not None and distractors:
        err.print("[red]give --tool-pool (the total) or --distractors (the number added), not both[/red]")
        raise typer.Exit(2)
    if server is not None and not admin_token:
        err.print("[red]--server needs --admin-token (printed by 'toolenv serve') to read results[/red]")
        raise typer.Exit(2)
    config = RunConfig(agent=agent.value, model=model, base_url=base_url, server=server, seed=seed,
                       max_steps=max_steps, distractors=distractors, tool_pool=tool_pool, concurrency=concurrency,
                       faults=_fault_options(faults), admin_token=admin_token or secrets.token_urlsafe(24))
    run_dir = out_dir / (run_name or config.run_name())
    cat = _catalog_or_exit(catalog)  # with --server: the local catalog, for the manifest's digest
    summary = _run(config, chosen, make_agent, run_dir, resume, server, load, cat)
    _write_manifest(run_dir, config, cat, catalog, chosen, scenarios)
    _print_summary(summary, run_dir)


def _catalog_or_exit(paths: list[Path] | None) -> Catalog:
    try:
        return load_catalog(paths or None)
    except CatalogError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from None


def _write_manifest(run_dir: Path, config: RunConfig, cat: Catalog, paths: list[Path] | None, chosen: list[Any],
                    scenarios: Path | None) -> None:
    write_manifest(run_dir, run_dir / SESSIONS_DIR, ManifestInputs(
        catalog=cat, catalog_sources=[str(p.resolve()) for p in paths] if paths else None, scenarios=chosen,
        scenarios_path=str(scenarios) if scenarios else None, seed=config.seed, max_steps=config.max_steps,
        distractors=config.distractors, tool_pool=config.tool_pool, faults=config.faults))


def _fault_options(value: str | None) -> dict[str, Any] | None:
    """``--faults``: a profile name or a JSON object, as validated fault options (exit 2 when invalid)."""
    if value is None:
        return None
    try:
        raw = json.loads(value) if value.lstrip().startswith("{") else value
        options = parse_faults(raw)
    except ValueError as exc:  # JSON errors are ValueErrors too
        err.print(f"[red]--faults: {exc}[/red]")
        raise typer.Exit(2) from None
    return options.model_dump(mode="json")


def _run(config: RunConfig, chosen: list[Any], make_agent: Any, run_dir: Path, resume: bool,
         server: str | None, load: Any, cat: Catalog) -> dict[str, Any]:
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err) as progress:
        bar = progress.add_task(f"{config.run_name()}", total=len(chosen))

        def done(outcome: SessionOutcome) -> None:
            progress.advance(bar)

        async def go(base: str) -> dict[str, Any]:
            return await run_eval(base, chosen, make_agent, config, run_dir, resume=resume, on_done=done)

        if server is not None:
            return anyio.run(go, server.rstrip("/"))
        env = ToolEnvironment(cat, Database(), ServerSettings(admin_token=config.admin_token))
        registry_for(env, load)
        with serve_in_thread(env) as base:
            return anyio.run(go, base)


def _replay(config: RunConfig, chosen: list[Any], make_agent: Any, run_dir: Path,
            catalog: list[Path] | None) -> dict[str, Any]:
    needs_catalog = any(s.tools for s in chosen)
    try:
        cat = load_catalog(catalog or None) if needs_catalog else None
    except CatalogError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from None
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err) as progress:
        bar = progress.add_task(f"{config.run_name()} (replay)", total=len(chosen))

        def done(run: ScenarioRun) -> None:
            progress.advance(bar)

        async def go() -> dict[str, Any]:
            return await run_replay(chosen, make_agent, config, run_dir, catalog=cat, on_done=done)

        try:
            return anyio.run(go)
        except ScenarioError as exc:  # a scenario whose tools the loaded catalog lacks
            err.print(f"[red]{exc}[/red]")
            raise typer.Exit(2) from None


def _print_summary(summary: dict[str, Any], run_dir: Path) -> None:
    table = Table(title=f"run {summary['run']}")
    for column in ("task type", "tasks", "correct", "accuracy"):
        table.add_column(column)
    for name, bucket in summary["by_task_type"].items():
        table.add_row(name, str(bucket["tasks"]), str(bucket["correct"]), f"{bucket['accuracy']:.1%}")
    out.print(table)
    out.print(
        f"task accuracy {summary['task_accuracy']:.1%} ({summary['correct_tasks']}/{summary['tasks']}), "
        f"session accuracy {summary['session_accuracy']:.1%}, failed sessions {summary['failed_sessions']}"
    )
    out.print(f"run directory: {run_dir}")
