"""Options and helpers shared by the ``toolenv`` command groups that load a catalog."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from env_server.catalog import Catalog, load_catalog
from env_server.errors import CatalogError

err = Console(stderr=True, soft_wrap=True)

CatalogOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--catalog",
        "-c",
        help="Catalog path (repeatable): a native spec dir/file, a WildToolBench tools .jsonl, "
        "a JSON list of OpenAI/Anthropic tools, or ToolAlpaca eval_*.json. Default: the built-in catalog.",
    ),
]


def load_catalog_or_exit(paths: list[Path] | None) -> Catalog:
    """The catalog at ``paths`` (the built-in one when empty), or a one-line error and exit 2."""
    try:
        return load_catalog(list(paths or []))
    except CatalogError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
