"""The import graph ARCHITECTURE.md describes, checked on the source.

Every ``.py`` under ``state/``, ``env_server/`` and ``clients/`` is parsed (no import runs
for the graph) and every import statement is read, at module level and inside functions
alike, plus ``importlib.import_module`` calls with a literal name. The rules:

* top-level packages: ``state`` imports none of ours, ``env_server`` only ``state``,
  ``clients`` both (``TOP_LEVEL``);
* ``clients`` reaches ``env_server`` and ``state`` only through ``PUBLIC`` modules, and only
  names in their ``__all__``;
* inside ``env_server``, each part imports only the parts ``MAY_IMPORT`` lists, and the parts
  form no cycle;
* each object of the public API has one import path: no two ``PUBLIC`` modules export it;
* ``toolenv eval`` reaches the command line through the ``toolenv.commands`` entry point.
"""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("state", "env_server", "clients")

TOP_LEVEL = {"state": set(), "env_server": {"state"}, "clients": {"env_server", "state"}}

# What clients may import from the other two packages: these modules, names in their __all__.
PUBLIC = frozenset({
    "env_server", "env_server.catalog", "env_server.generator", "env_server.orchestrator",
    "env_server.rl", "env_server.runner", "env_server.scoring", "state",
})

# env_server's parts: a module belongs to the part of its longest matching prefix.
PARTS = {
    "env_server": "root",
    "env_server.errors": "foundation",
    "env_server.validation": "foundation",
    "env_server.rest_contract": "foundation",
    "env_server.owned": "foundation",
    "env_server.catalog": "catalog",
    "env_server.simulators": "simulators",
    "env_server.environment": "environment",
    "env_server.config": "environment",
    "env_server.limits": "environment",
    "env_server.search": "environment",
    "env_server.session_types": "environment",
    "env_server.session_lifecycle": "environment",
    "env_server.faults": "environment",
    "env_server.scoring": "scoring",
    "env_server.orchestrator": "orchestrator",
    "env_server.generator": "generator",
    "env_server.rl": "rl",
    "env_server.specs": "specs",
    "env_server.server": "server",
    "env_server.annotations": "server",
    "env_server.envelopes": "server",
    "env_server.http_guard": "server",
    "env_server.body_limit": "server",
    "env_server.front_door": "server",
    "env_server.app": "server",
    "env_server.runner": "server",
    "env_server.cli": "cli",
    "env_server.cli_options": "cli",
    "env_server.specs.cli": "cli",
    "env_server.orchestrator.cli": "cli",
    "env_server.scoring.cli": "cli",
}
_BELOW_SERVER = {"rl", "generator", "orchestrator", "scoring", "environment", "simulators", "catalog",
                 "foundation", "state"}
MAY_IMPORT: dict[str, set[str]] = {
    "foundation": set(),
    "catalog": {"foundation"},
    "simulators": {"catalog", "foundation", "state"},
    "environment": {"simulators", "scoring", "catalog", "foundation", "state"},
    "scoring": {"catalog", "foundation"},
    "orchestrator": {"environment", "scoring", "catalog", "foundation", "state"},
    "generator": {"orchestrator", "environment", "scoring", "catalog", "foundation", "state"},
    "rl": {"generator", "orchestrator", "environment", "scoring", "catalog", "foundation", "state"},
    "specs": {"environment", "simulators", "catalog", "foundation", "state"},
    "server": _BELOW_SERVER,
    "cli": _BELOW_SERVER | {"server", "specs", "root"},
    "root": {"environment", "foundation"},  # the package root exports session-level names and their errors
}

# Known exceptions, each with the change that removes it. An exception that no longer
# matches an import fails the test, so the list cannot go stale.
# (importer, imported) pairs the rules allow for now, each with the reason; none today.
EXCEPTIONS: dict[tuple[str, str], str] = {}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, ast.Module]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return found


def is_ours(name: str) -> bool:
    return name.split(".")[0] in PACKAGES


def imports_of(module: str, tree: ast.Module) -> Iterator[tuple[str, str | None, int]]:
    """(imported module, imported name or None, line) for each import of one of our packages."""
    package = module if module in modules() and _is_package(module) else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield (sub, None, node.lineno) if sub in modules() else (base, alias.name, node.lineno)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name)
              and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__")
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield node.args[0].value, None, node.lineno


def _is_package(module: str) -> bool:
    return (ROOT / module.replace(".", "/") / "__init__.py").exists()


@cache
def edges() -> list[tuple[str, str, str | None, int]]:
    """Every import between our modules: (importer, imported module, imported name, line)."""
    return [(module, target, name, line) for module, tree in modules().items()
            for target, name, line in imports_of(module, tree) if is_ours(target)]


def part(module: str) -> str:
    if module.split(".")[0] != "env_server":
        return module.split(".")[0]
    prefix = module
    while prefix not in PARTS:
        prefix = prefix.rpartition(".")[0]
    return PARTS[prefix] if prefix != "env_server" or module == prefix else f"no part for {module}"


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that ends where it starts, or None."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        state[node] = "done"
        path.pop()
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_every_env_server_module_has_a_part() -> None:
    assert {"state", "env_server.app", "clients.agents"} <= set(modules())  # the walk found the tree
    unknown = {part(m) for m in modules() if m.startswith("env_server")} - set(MAY_IMPORT)
    assert not unknown, "add the module to PARTS (and to ARCHITECTURE.md)"


def test_top_level_packages_import_one_way() -> None:
    bad = [f"{src}:{line} imports {dst}" for src, dst, _, line in edges()
           if dst.split(".")[0] != src.split(".")[0] and dst.split(".")[0] not in TOP_LEVEL[src.split(".")[0]]]
    assert not bad, "\n".join(dict.fromkeys(bad))
    graph: dict[str, set[str]] = {}
    for src, dst, _, _ in edges():
        if src.split(".")[0] != dst.split(".")[0]:
            graph.setdefault(src.split(".")[0], set()).add(dst.split(".")[0])
    assert find_cycle(graph) is None


@cache
def exported(module: str) -> frozenset[str]:
    return frozenset(getattr(importlib.import_module(module), "__all__", ()))


def test_clients_use_the_public_api_only() -> None:
    bad = []
    for src, dst, name, line in edges():
        if not src.startswith("clients") or dst.startswith("clients"):
            continue
        if dst not in PUBLIC:
            bad.append(f"{src}:{line} imports {dst}, which is not in PUBLIC")
        elif name is not None and name not in exported(dst):
            bad.append(f"{src}:{line} imports {name} from {dst}, which does not export it in __all__")
    assert not bad, "\n".join(dict.fromkeys(bad))


def test_env_server_parts_import_only_what_they_may() -> None:
    bad, used = [], set()
    for src, dst, _, line in edges():
        if not src.startswith("env_server") or dst.startswith("clients"):
            continue  # env_server -> clients is the top-level rule's
        here, there = part(src), part(dst)
        if here == there or there in MAY_IMPORT[here]:
            continue
        key = (src, dst)
        if key in EXCEPTIONS:
            used.add(key)
            continue
        bad.append(f"{src}:{line} ({here}) imports {dst} ({there})")
    assert not bad, "\n".join(dict.fromkeys(bad))
    stale = set(EXCEPTIONS) - used
    assert not stale, f"these exceptions match no import any more; delete them from EXCEPTIONS: {sorted(stale)}"


def test_env_server_parts_form_no_cycle() -> None:
    assert find_cycle(MAY_IMPORT) is None  # the rules themselves are one-way
    graph: dict[str, set[str]] = {}
    for src, dst, _, _ in edges():
        if (src.startswith("env_server") and dst.startswith("env_server") and part(src) != part(dst)
                and (src, dst) not in EXCEPTIONS):
            graph.setdefault(part(src), set()).add(part(dst))
    assert find_cycle(graph) is None, f"cycle between env_server's parts: {find_cycle(graph)}"


def test_each_public_object_has_one_import_path() -> None:
    paths: dict[object, list[str]] = {}
    for module in sorted(PUBLIC):
        for name in sorted(exported(module)):
            value = getattr(importlib.import_module(module), name)
            # Equal small constants share one object by accident; they count once per name.
            key = (name, value) if isinstance(value, str | int | float | bool) else id(value)
            paths.setdefault(key, []).append(f"{module}.{name}")
    repeated = [where for where in paths.values() if len(where) > 1]
    assert not repeated, f"exported by more than one public module: {repeated}"


def test_eval_joins_the_command_line_through_the_entry_point(tmp_path: Path) -> None:
    """pyproject declares the eval command under ``toolenv.commands``; env_server's CLI finds it there.

    The installed metadata may predate the declaration, so the test installs a distribution
    record of its own, made from pyproject.toml, first on the path.
    """
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    commands = project["entry-points"]["toolenv.commands"]
    assert commands == {"eval": "clients.eval_cli:eval_app", "verify": "clients.verify_cli:verify_app",
                        "openenv": "clients.openenv_cli:openenv_app"}
    record = tmp_path / f"toolenv-{project['version']}.dist-info"
    record.mkdir()
    (record / "METADATA").write_text(f"Metadata-Version: 2.1\nName: toolenv\nVersion: {project['version']}\n")
    (record / "entry_points.txt").write_text(
        "[toolenv.commands]\n" + "".join(f"{name} = {target}\n" for name, target in commands.items()))
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "COLUMNS": "200"}
    shown = subprocess.run([sys.executable, "-m", "env_server.cli", "eval", "--help"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120, check=False)
    assert shown.returncode == 0, shown.stderr
    for flag in ("--agent", "--protocol", "--server", "--admin-token", "--distractors", "--out", "--resume"):
        assert flag in shown.stdout
