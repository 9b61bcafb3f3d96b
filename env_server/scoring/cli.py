"""``score`` sub-commands: score an official-layout result file and print the tables.

The main CLI registers :data:`score_app`; every command parses options and calls the library.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from env_server.scoring.grading import ArgsMode
from env_server.scoring.models import ScoringError
from env_server.scoring.official import score_official_report
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
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the metric JSON here.")] = None,
) -> None:
    """Score an official result file and print accuracy, OP/AP and error-taxonomy tables."""
    try:
        report = score_official_report(result, data, ScoringOptions(mode=mode))
    except ScoringError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    print_report(report)
    if json_out is not None:
        json_out.write_text(json.dumps(report, indent=4, ensure_ascii=False), encoding="utf-8")
