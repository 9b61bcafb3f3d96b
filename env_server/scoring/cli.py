"""``score`` sub-commands: score results, print the tables, write reports and QAOA exports.

* ``score official RESULT``: print the tables of an official result file; ``--out DIR`` writes the
  official score and metric files byte for byte (our extras beside them), ``--json`` our report.
* ``score report INPUT... --out DIR``: official result files or run directories; writes
  metrics.json, summary.md and report.html (one subdirectory per run and a comparison table
  when several inputs are given).
* ``score run RUN_DIR... --out DIR``: the same for ``toolenv eval`` run directories.
* ``score export-qaoa INPUT --out FILE [--format jsonl|json]``: QAOA conversations (UniToolCall format).

Every input is resolved by :func:`~env_server.scoring.inputs.resolve_input`: a run directory, a
result file, a replay run's directory, or the directory holding one run.

The main CLI registers :data:`score_app`; every command parses options and calls the library.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from env_server.errors import ToolenvError
from env_server.scoring.grading import ArgsMode
from env_server.scoring.inputs import resolve_input
from env_server.scoring.models import GoldSession, ScoringError
from env_server.scoring.official import score_official_report
from env_server.scoring.official_files import EXTRAS_FILE, METRIC_FILE, SCORE_FILE, write_official_files
from env_server.scoring.qaoa import QaoaFormat, QaoaSource, write_qaoa
from env_server.scoring.report import ScoredRun, comparison_table, metrics_document, unique_names
from env_server.scoring.report_files import write_comparison, write_reports
from env_server.scoring.rules import Grading
from env_server.scoring.runs import GoldLookup, load_run
from env_server.scoring.scorer import ScoringOptions

score_app = typer.Typer(help="Score WildToolBench-style results.", no_args_is_help=True)
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


@score_app.callback()
def _group() -> None:
    """Score WildToolBench-style results (keeps ``score`` a command group)."""


def _bucket_table(title: str, buckets: dict[str, dict[str, Any]]) -> Table:
    table = Table(title=title)
    for column in ("bucket", "value", "count", "total"):
        table.add_column(column, justify="left" if column == "bucket" else "right")
    for name, cell in buckets.items():
        values = list(cell.values())
        table.add_row(name, f"{values[0]:.4f}", str(values[1]), str(values[2]))
    return table


def _taxonomy_table(taxonomy: dict[str, Any]) -> Table:
    table = Table(title=f"Error taxonomy ({taxonomy['failed_tasks']} failed tasks)")
    table.add_column("column")
    table.add_column("share", justify="right")
    table.add_column("count", justify="right")
    for name, cell in taxonomy["columns"].items():
        table.add_row(name, f"{cell['share']:.1%}", str(cell["count"]))
    return table


def print_report(report: dict[str, Any], console: Console = out) -> None:
    """Render a metric report (official layout plus extras) as rich tables."""
    console.print(f"[bold]model:[/bold] {report['model_name']}")
    for key, title in (
        ("total_info", "Overall"),
        ("task_type_info", "By task type"),
        ("layer_info", "By position"),
        ("turn_subtype_info", "By hidden intent"),
        ("optimal_info", "OP rate (current definition)"),
        ("progress_info", "AP rate (current definition)"),
    ):
        console.print(_bucket_table(title, report[key]))
    paper = report.get("paper_definitions")
    if paper:
        console.print(_bucket_table("OP rate (paper definition)", paper["optimal_info"]))
        console.print(_bucket_table("AP rate (paper definition)", paper["progress_info"]))
    if "error_taxonomy" in report:
        console.print(_taxonomy_table(report["error_taxonomy"]))


@score_app.command("official")
def score_official(
    result: Annotated[Path, typer.Argument(help="Official Wild-Tool-Bench_result.jsonl file.", exists=True)],
    data: Annotated[Path | None, typer.Option(help="Wild-Tool-Bench.jsonl (default: found beside the result).")] = None,
    mode: Annotated[ArgsMode, typer.Option(help="Argument checker: strict (current) or paper.")] = ArgsMode.STRICT,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write our report JSON here (the official "
                                                  "metric keys plus paper definitions and error taxonomy).")] = None,
    out_dir: Annotated[Path | None, typer.Option("--out", "-o", help=f"Write {SCORE_FILE} and {METRIC_FILE} here, "
                                                 f"byte for byte as the official scorer does, and our extras in "
                                                 f"{EXTRAS_FILE} beside them.")] = None,
) -> None:
    """Score an official result file and print accuracy, OP/AP and error-taxonomy tables."""
    options = ScoringOptions(mode=mode)
    try:
        report = score_official_report(result, data, options)
        paths = write_official_files(result, out_dir, data, options) if out_dir is not None else None
    except ScoringError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    print_report(report)
    if json_out is not None:
        json_out.write_text(json.dumps(report, indent=4, ensure_ascii=False), encoding="utf-8")
    if paths is not None:
        out.print(f"wrote {paths['score']}, {paths['metric']} and {paths['extras']}")


DataOpt = Annotated[
    Path | None, typer.Option(help="Wild-Tool-Bench.jsonl for official result files (default: found beside the result).")
]
ModeOpt = Annotated[ArgsMode, typer.Option(help="Argument checker: strict (current) or paper.")]
ScenariosOpt = Annotated[Path | None, typer.Option("--scenarios", "-s", help="Scenarios a run directory ran "
                                                   "(default: the built-in set).")]
CatalogOpt = Annotated[list[Path] | None, typer.Option("--catalog", "-c", help="Catalog path (repeatable; "
                                                       "default: the built-in catalog).")]


GradingOpt = Annotated[Grading, typer.Option(case_sensitive=False, help=(
    "Run directories over native scenarios: native applies their per-argument match rules; official grades with "
    "the official checker alone (rules ignored). Official result files are always graded officially."))]


def gold_lookup(scenarios: Path | None, catalog: list[Path] | None, grading: Grading = Grading.NATIVE) -> GoldLookup:
    """Gold sessions of the scenarios at ``scenarios``, built as the live orchestrator builds them."""
    # Imported here: the orchestrator depends on this package, not the other way round.
    from env_server.catalog import load_catalog
    from env_server.orchestrator.gold import gold_session, scenario_tools
    from env_server.orchestrator.loading import load_scenarios

    load = load_scenarios(scenarios)
    cat = load_catalog(catalog or None)
    cache: dict[str, GoldSession | None] = {}

    def lookup(scenario_id: str) -> GoldSession | None:
        if scenario_id not in cache:
            spec = load.get(scenario_id)
            cache[scenario_id] = gold_session(spec, scenario_tools(spec, cat), grading) if spec is not None else None
        return cache[scenario_id]

    return lookup


def _load_all(inputs: list[Path], data: Path | None, mode: ArgsMode, scenarios: Path | None = None,
              catalog: list[Path] | None = None, grading: Grading = Grading.NATIVE) -> list[ScoredRun]:
    try:
        resolved = [resolve_input(p) for p in inputs]
        gold_for = gold_lookup(scenarios, catalog, grading) if any(p.is_dir() for p in resolved) else None
        return [load_run(path, data, ScoringOptions(mode=mode), gold_for=gold_for) for path in resolved]
    except (ScoringError, ToolenvError) as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None


def _print_comparison(runs: list[ScoredRun]) -> None:
    header, rows = comparison_table(unique_names(runs), [metrics_document(r) for r in runs])
    table = Table(title="Run comparison")
    for k, column in enumerate(header):
        table.add_column(column, justify="left" if k == 0 else "right")
    for row in rows:
        table.add_row(*row)
    out.print(table)


def _report(inputs: list[Path], data: Path | None, mode: ArgsMode, out_dir: Path, scenarios: Path | None = None,
            catalog: list[Path] | None = None, grading: Grading = Grading.NATIVE) -> None:
    runs = _load_all(inputs, data, mode, scenarios, catalog, grading)
    if len(runs) == 1:
        print_report(runs[0].report)
        paths = write_reports(runs[0], out_dir)
        out.print(f"wrote {paths['metrics']}, {paths['summary']}, {paths['html']}")
        return
    _print_comparison(runs)
    paths = write_comparison(runs, out_dir)
    out.print(f"wrote {paths['comparison_md']}, {paths['comparison_html']} and one report directory per run")


@score_app.command("report")
def score_report(
    inputs: Annotated[list[Path], typer.Argument(help="Official result files and/or run directories.", exists=True)],
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="Directory for the report files.")] = Path("score-report"),
    data: DataOpt = None,
    mode: ModeOpt = ArgsMode.STRICT,
    scenarios: ScenariosOpt = None,
    catalog: CatalogOpt = None,
    grading: GradingOpt = Grading.NATIVE,
) -> None:
    """Score one or more runs; write metrics.json, summary.md and report.html (and a comparison)."""
    _report(inputs, data, mode, out_dir, scenarios, catalog, grading)


@score_app.command("run")
def score_run(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run directories written by toolenv eval.", exists=True,
                                                   file_okay=False)],
    out_dir: Annotated[Path | None, typer.Option("--out", "-o", help="Report directory (default: RUN_DIR/score, "
                                                 "or ./score-report for several runs).")] = None,
    mode: ModeOpt = ArgsMode.STRICT,
    scenarios: ScenariosOpt = None,
    catalog: CatalogOpt = None,
    grading: GradingOpt = Grading.NATIVE,
) -> None:
    """Score run directories with the same engine and write the reports."""
    default = run_dirs[0] / "score" if len(run_dirs) == 1 else Path("score-report")
    _report(run_dirs, None, mode, out_dir or default, scenarios, catalog, grading)


@score_app.command("export-qaoa")
def export_qaoa(
    source_path: Annotated[Path, typer.Argument(
        metavar="INPUT", exists=True,
        help="A run directory of 'toolenv eval' (live or replay), the directory holding one run (its --out), "
             "or an official result file.")],
    out_file: Annotated[Path, typer.Option("--out", "-o", help="Output file.")] = Path("qaoa.jsonl"),
    fmt: Annotated[QaoaFormat | None, typer.Option(
        "--format", help="jsonl: one session per line; json: one JSON array, as UniToolCall's scripts and "
                         "LLaMA-Factory read it (default: json for a .json --out, else jsonl).")] = None,
    data: DataOpt = None,
    source: Annotated[QaoaSource, typer.Option(help="model: the agent's steps (gold for failed tasks); "
                                               "gold: the gold trajectories.")] = QaoaSource.MODEL,
    correct_only: Annotated[bool, typer.Option("--correct-only", help="Only sessions with every task correct.")] = False,
    mode: ModeOpt = ArgsMode.STRICT,
    scenarios: ScenariosOpt = None,
    catalog: CatalogOpt = None,
    grading: GradingOpt = Grading.NATIVE,
) -> None:
    """Write each session as a QAOA conversation (human / function_call / observation / gpt turns)."""
    run = _load_all([source_path], data, mode, scenarios, catalog, grading)[0]
    count = write_qaoa(run, out_file, source, correct_only, fmt)
    out.print(f"wrote {count} sessions to {out_file}")
