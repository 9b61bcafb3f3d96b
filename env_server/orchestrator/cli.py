"""``toolenv scenarios ...``: list, show, check and record scenarios.

The main CLI registers ``scenarios_app`` under the name ``scenarios``.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from env_server.catalog import Catalog, load_catalog
from env_server.errors import CatalogError
from env_server.orchestrator.errors import ScenarioError
from env_server.orchestrator.fairness import fair_gold_findings
from env_server.orchestrator.gold import function_tools
from env_server.orchestrator.loading import ScenarioLoad, default_scenarios_path, load_scenarios, scenario_files
from env_server.orchestrator.models import ScenarioSource, ScenarioSpec
from env_server.orchestrator.record import record_file
from env_server.orchestrator.splits import is_test_split
from env_server.orchestrator.validate import Severity, resolve_tools, validate_scenario
from env_server.orchestrator.variants import ACCEPT, grade_variants, missing_variants

scenarios_app = typer.Typer(help="List, show, check and record multi-task scenarios.", no_args_is_help=True)
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

ScenariosOpt = Annotated[
    Path | None,
    typer.Option(
        "--scenarios",
        "-s",
        help="A directory of native scenario files, one native .json file, or an official WildToolBench "
        ".jsonl file. Default: the built-in scenarios.",
    ),
]
CatalogOpt = Annotated[
    list[Path] | None,
    typer.Option("--catalog", "-c", help="Catalog path (repeatable). Default: the built-in catalog."),
]


def _catalog(paths: list[Path] | None) -> Catalog:
    try:
        return load_catalog(list(paths or []))
    except CatalogError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None


def _load(path: Path | None) -> ScenarioLoad:
    loaded = load_scenarios(path)
    for problem in loaded.errors:
        err.print(f"[red]error:[/red] {problem}")
    return loaded


@scenarios_app.command("list")
def list_scenarios(scenarios: ScenariosOpt = None) -> None:
    """One row per scenario: id, tools, task types, subtypes."""
    loaded = _load(scenarios)
    table = Table(title_justify="left")
    for column in ("id", "split", "tools", "task types", "subtypes"):
        table.add_column(column)
    for s in loaded.scenarios:
        types = ", ".join(t.task_type.value for t in s.tasks)
        subtypes = ", ".join(t.subtype.value for t in s.tasks if t.subtype)
        table.add_row(s.id, "test" if is_test_split(s) else "train", str(len(s.tool_names)), types, subtypes)
    out.print(table)
    by_type = Counter(t.task_type.value for s in loaded.scenarios for t in s.tasks)
    by_subtype = Counter(t.subtype.value for s in loaded.scenarios for t in s.tasks if t.subtype)
    test = sum(is_test_split(s) for s in loaded.scenarios)
    out.print(f"{len(loaded.scenarios)} scenarios ({test} test, {len(loaded.scenarios) - test} train), "
              f"{sum(by_type.values())} tasks")
    out.print("by task type: " + ", ".join(f"{k} {v}" for k, v in sorted(by_type.items())))
    out.print("by subtype: " + ", ".join(f"{k} {v}" for k, v in sorted(by_subtype.items())))
    raise typer.Exit(1 if loaded.errors else 0)


@scenarios_app.command("show")
def show_scenario(
    scenario_id: Annotated[str, typer.Argument(metavar="ID", help="Scenario id.")],
    scenarios: ScenariosOpt = None,
    observations: Annotated[bool, typer.Option(help="Also print tool observations.")] = False,
) -> None:
    """Print one scenario: tasks, labels and gold nodes."""
    loaded = _load(scenarios)
    spec = loaded.get(scenario_id)
    if spec is None:
        import difflib

        close = difflib.get_close_matches(scenario_id, [s.id for s in loaded.scenarios], n=3)
        err.print(f"[red]error:[/red] no scenario '{scenario_id}'" + (f"; did you mean {', '.join(close)}?" if close else ""))
        raise typer.Exit(1)
    out.print(f"[bold]{spec.id}[/bold]" + (f"  {spec.title}" if spec.title else ""))
    out.print(f"env: {spec.env_info} · seed {spec.seed} · source {spec.source.value} · {spec.origin}")
    out.print("tools: " + ", ".join(spec.tool_names))
    for t, task in enumerate(spec.tasks):
        label = task.task_type.value + (f" / {task.subtype.value}" if task.subtype else "")
        out.print(f"\n[bold]task {t}[/bold] ({label})")
        out.print(f"  user: {task.user_message}")
        for node in task.nodes:
            deps = f" <- {node.dependency_list}" if node.dependency_list else ""
            out.print(f"  [{node.idx}] {node.action.name} {json.dumps(node.action.arguments, ensure_ascii=False)}{deps}")
            if node.action.is_pseudo:
                out.print(f"      assistant: {node.observation}")
            elif observations:
                out.print(f"      -> {json.dumps(node.observation, ensure_ascii=False)[:400]}")
            if node.user_input is not None:
                out.print(f"      user: {node.user_input}")


@scenarios_app.command("check")
def check_scenarios(
    scenarios: ScenariosOpt = None,
    catalog: CatalogOpt = None,
    show_warnings: Annotated[bool, typer.Option("--warnings/--no-warnings", help="Print every warning, not just the count.")] = True,
) -> None:
    """Validate every scenario and its fair gold (native files); exit 1 on any error or finding.

    Fair gold: every gold argument is grounded in the dialogue, an earlier result or what the dialogue
    resolves to (or a match rule makes it fair), optional arguments are asked for, and no free text must be
    written verbatim. Test-split sessions need graded variants; every variant must grade as declared.
    """
    loaded = _load(scenarios)
    cat = _catalog(catalog)
    errors = len(loaded.errors)
    warnings = 0
    ids = Counter(s.id for s in loaded.scenarios)
    for scenario_id, count in sorted(ids.items()):
        if count > 1:
            errors += 1
            out.print(f"[red]error[/red]: scenario id '{scenario_id}' is used {count} times")
    for spec in loaded.scenarios:
        problems = validate_scenario(spec, cat)
        for p in problems:
            if p.severity is Severity.ERROR:
                errors += 1
                out.print(f"[red]error[/red]   {p.scenario_id} {p.where}: {p.message}")
            else:
                warnings += 1
                if show_warnings:
                    out.print(f"[yellow]warning[/yellow] {p.scenario_id} {p.where}: {p.message}")
    findings, accepted, rejected = _fair_gold(loaded.scenarios, cat)
    tasks = sum(len(s.tasks) for s in loaded.scenarios)
    out.print(f"{len(loaded.scenarios)} scenarios, {tasks} tasks: {errors} errors, {warnings} warnings, "
              f"{findings} fair-gold findings")
    out.print(f"variants: {accepted[0]}/{accepted[1]} accept variants accepted, "
              f"{rejected[0]}/{rejected[1]} reject variants rejected")
    raise typer.Exit(1 if errors or findings else 0)


def _fair_gold(specs: list[ScenarioSpec], cat: Catalog) -> tuple[int, tuple[int, int], tuple[int, int]]:
    """Print fair-gold findings and misgraded variants; returns (findings, accept ok/all, reject ok/all)."""
    findings = 0
    accepted = [0, 0]
    rejected = [0, 0]
    for spec in specs:
        tools, _ = resolve_tools(spec, cat)
        lines = [str(f) for f in fair_gold_findings(spec, tools)]
        if is_test_split(spec) and spec.source is ScenarioSource.NATIVE:
            lines += [f"{spec.id} {m}" for m in missing_variants(spec, function_tools(tools))]
        for outcome in grade_variants(spec, function_tools(tools)):
            tally = accepted if outcome.kind == ACCEPT else rejected
            tally[0] += outcome.ok
            tally[1] += 1
            if not outcome.ok:
                verdict = "accepted" if outcome.correct else "rejected"
                lines.append(f"{spec.id} task {outcome.task} variants.{outcome.kind}.{outcome.index} "
                             f"({outcome.why}): {verdict} by native grading ({outcome.reason})")
        for line in lines:
            out.print(f"[red]unfair[/red]  {line}")
        findings += len(lines)
    return findings, (accepted[0], accepted[1]), (rejected[0], rejected[1])


@scenarios_app.command("record")
def record_scenarios(
    ids: Annotated[list[str] | None, typer.Argument(metavar="[ID]...", help="Only these scenarios.")] = None,
    scenarios: ScenariosOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Run the gold calls of native scenarios through the simulator and write the observations."""
    path = scenarios or default_scenarios_path()
    cat = _catalog(catalog)
    files = [f for f in scenario_files(path) if f.suffix == ".json"]
    if ids:
        files = [f for f in files if f.stem in set(ids)]
        unknown = sorted(set(ids) - {f.stem for f in files})
        if unknown:
            err.print(f"[red]error:[/red] no native scenario file for {unknown}")
            raise typer.Exit(1)
    failed = 0
    for file in files:
        try:
            changed = record_file(file, cat)
        except ScenarioError as exc:
            failed += 1
            err.print(f"[red]error:[/red] {exc}")
            continue
        out.print(f"{'updated  ' if changed else 'unchanged'} {file}")
    out.print(f"{len(files) - failed} recorded, {failed} failed")
    raise typer.Exit(1 if failed else 0)
