"""``toolenv specs``: inspect and check tool-spec catalogs (list, show, check, audit)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from env_server.cli_options import CatalogOpt, load_catalog_or_exit

specs_app = typer.Typer(help="Inspect and check tool-spec catalogs.", no_args_is_help=True)
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


@specs_app.command("list")
def specs_list(
    catalog: CatalogOpt = None,
    category: Annotated[str | None, typer.Option(help="Only list tools of this category.")] = None,
    names: Annotated[bool, typer.Option("--names", help="Also print every tool name.")] = False,
) -> None:
    """Counts by category and source (and optionally the tool names)."""
    cat = load_catalog_or_exit(catalog)
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

    cat = load_catalog_or_exit(catalog)
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

    cat = load_catalog_or_exit(catalog)
    report = check_catalog(cat)
    variants = sum(1 for t in cat.tools.values() if t.base_name and "__" in t.name)
    out.print(
        f"{cat.definitions_read} function definitions read; {len(cat)} distinct tools "
        f"({cat.repeats_merged} identical repeats merged, {variants} extra signatures kept as NAME__N)"
    )
    out.print(
        f"{_count(len(cat), 'tool')} · {_count(len(report.providers), 'provider')} · "
        f"{_count(len(report.by_category), 'category', 'categories')} · "
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

    [bold]url_host[/bold]: a page or image URL of the provider's own records is not on its host (derived from the spec's link) or CDN.

    [bold]domain_text[/bold]: a naming field (detector_name, requirements, section ...) is drawn from a catch-all vocabulary (office titles, notes, tags).

    [bold]geo[/bold]: a place is not believable: country codes, name, region or capital disagree; a time-zone offset its zone never observes; a point outside its bounding box; a reverse geocode far from the point asked about.

    [bold]air[/bold]: an air-quality index that is not the largest sub-index of the record's own readings (US EPA, European or Chinese scale), a dominant pollutant that does not give it, a category outside its band; a point array ([lat, lon] or [lon, lat] by its name) off the globe.

    [bold]imported[/bold]: an imported tool (inferred schema) answers mostly generic filler, echoes an argument it was not sent, or takes another entity's id for its record's.

    [bold]numeric[/bold]: numbers that do not add up: pagination (total, pages, page, limit), min <= avg <= max, percentages in 0..100, negative counts, a rate table's base and targets against the question, a candle out of order, a bid not below its ask, seconds of arc that are not the degrees.

    [bold]question[/bold]: a search/list disagrees with its call (term missing from a row, a filter, date window, sort, limit or page not honoured; also probed with a limit of 2, a sort key and an enum filter).

    [bold]readback[/bold]: a created entity does not read back as sent; an update changes what it did not send; a deleted one still opens.

    [bold]time[/bold]: an end before its start, a date outside the window or years the call asked for, a past event after today, a series out of order (or tides off their ~6 h 12 min beat), a UTC offset, DST flag or local time that is not the record's zone's, a period labelled with another year.

    [bold]infra_error[/bold]: the simulator crashed on the tool.

    Exit status: 0 without findings, 1 with any finding, 2 on usage errors.
    """
    from rich.progress import Progress

    from env_server.specs.audit import AuditUsageError, audit_catalog, select_tools

    cat = load_catalog_or_exit(catalog)
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


def _count(n: int, one: str, many: str | None = None) -> str:
    """``n`` with the noun in the right number: "1 category", "2 categories"."""
    return f"{n} {one if n == 1 else many or one + 's'}"
