"""The tool catalog: every loaded ``ToolSpec``, by name, with precompiled validators.

``load_catalog(paths)`` reads one or more catalog paths (any supported format, see
``loaders``). Names stay unique: when an imported set holds the same name with a second,
different signature (WildToolBench does this), the later signature is kept as
``<name>__2``, ``<name>__3`` …, in load order. Groups (a WildToolBench line, a provider
file) remember the original names, so a session built from a group serves its tools
under the names the scenario uses.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from env_server.catalog.id_types import align_id_types
from env_server.catalog.loaders import RawTool, mcp_safe_name, read_tools, to_tool_spec
from env_server.catalog.models import (
    FunctionSpec,
    NormalizationRecord,
    Operation,
    ProfileSpec,
    ProviderSpec,
    SourceFormat,
    ToolSpec,
)
from env_server.catalog.places import share_group_places
from env_server.errors import CatalogError
from env_server.owned import Owned
from env_server.validation import ArgumentValidator

__all__ = [
    "Catalog",
    "CatalogError",
    "FunctionSpec",
    "NormalizationRecord",
    "Operation",
    "ProfileSpec",
    "ProviderSpec",
    "SourceFormat",
    "ToolSpec",
    "default_catalog_path",
    "load_catalog",
]


def default_catalog_path() -> Path:
    """The built-in catalog shipped inside the wheel (``tool_specs/catalog``)."""
    return Path(str(resources.files("tool_specs") / "catalog"))


@dataclass
class Catalog:
    tools: dict[str, ToolSpec] = field(default_factory=dict)
    # Group id -> [(name the group uses, catalog name)], in the group's own order.
    groups: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    validators: dict[str, ArgumentValidator] = field(default_factory=dict)
    load_problems: list[tuple[str, str]] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    # Function definitions read from files, and how many were identical repeats.
    definitions_read: int = 0
    repeats_merged: int = 0
    # What other parts derive from this catalog (rules, search index, flows, schema plans),
    # kept as long as the catalog is: the one cache rule (see ``env_server.owned``).
    derived: Owned = field(default_factory=Owned, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.tools)

    def __contains__(self, name: object) -> bool:
        return name in self.tools

    def get(self, name: str) -> ToolSpec | None:
        return self.tools.get(name)

    def suggest(self, name: str, limit: int = 3, among: list[str] | None = None) -> list[str]:
        """Close names for a "did you mean" hint (case-insensitive difflib match)."""
        pool = among if among is not None else list(self.tools)
        lowered = {n.lower(): n for n in pool}
        hits = difflib.get_close_matches(name.lower(), list(lowered), n=limit, cutoff=0.6)
        return [lowered[h] for h in hits]


def load_catalog(paths: list[Path] | None = None) -> Catalog:
    """Load and merge catalogs; the built-in one when ``paths`` is empty."""
    catalog = Catalog()
    signatures: dict[str, dict[str, str]] = {}
    for path in paths or [default_catalog_path()]:
        loaded = read_tools(Path(path))
        catalog.sources.append(str(path))
        assigned: dict[int, str] = {}
        for raw in loaded.tools:
            before = len(catalog.tools)
            assigned[id(raw)] = _add_tool(catalog, raw, signatures)
            catalog.definitions_read += 1
            catalog.repeats_merged += len(catalog.tools) == before
        for group, raws in loaded.groups.items():
            catalog.groups[group] = [(_public_name(r), assigned[id(r)]) for r in raws]
    align_id_types(catalog.tools.values())  # search rows carry ids of the type their readers take
    share_group_places(catalog.tools, catalog.groups)  # a list's tools answer from one country
    return catalog


def _public_name(raw: RawTool) -> str:
    # Imported names are made MCP-safe; native names are ours to fix, so `specs check` flags them.
    return raw.name if raw.source is SourceFormat.NATIVE else mcp_safe_name(raw.name)


def _add_tool(catalog: Catalog, raw: RawTool, signatures: dict[str, dict[str, str]]) -> str:
    base = _public_name(raw)
    sig = json.dumps([raw.description, raw.input_schema], sort_keys=True)
    seen = signatures.setdefault(base, {})
    if sig in seen:
        return seen[sig]
    if seen and raw.source is SourceFormat.NATIVE:
        catalog.load_problems.append((base, f"duplicate tool name (also in {catalog.tools[base].origin})"))
        return base
    name = base if not seen else f"{base}__{len(seen) + 1}"
    seen[sig] = name
    spec = to_tool_spec(raw, name)
    catalog.tools[name] = spec
    catalog.validators[name] = ArgumentValidator(spec.name, spec.input_schema)
    return name
