"""``toolenv scenarios record``: run the gold calls through our simulator, store the results.

One ``ToolEnvironment`` session per scenario, over exactly the scenario's tools, with the
scenario's seed and date. Tasks run in order and the world carries over between them (a
booking made in task 1 can be cancelled in task 3). Inside a task, nodes run in
topological order, lowest index first. ``{"$ref": ...}`` arguments are resolved from the
results produced so far, so ids, observations and state agree by construction. Running it
twice gives identical files.
"""

from __future__ import annotations

import heapq
from pathlib import Path
from typing import Any

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.orchestrator.errors import RecordError
from env_server.orchestrator.models import PSEUDO_ACTIONS
from env_server.orchestrator.native import (
    NativeScenarioFile,
    NativeTask,
    RefProblem,
    ancestors,
    lookup_ref,
    read_native_file,
    resolve_refs,
    to_scenario_spec,
    write_native_file,
)
from env_server.orchestrator.validate import resolve_tools
from env_server.validation import ArgumentValidator
from state import Database

RECORD_SESSION = "record"


def topological_order(task: NativeTask) -> list[int]:
    """Node indexes in dependency order, lowest ready index first. Raises on cycles."""
    n = len(task.nodes)
    waiting = [len(set(node.dependency_list)) for node in task.nodes]
    dependents: dict[int, list[int]] = {}
    for i, node in enumerate(task.nodes):
        for d in set(node.dependency_list):
            dependents.setdefault(d, []).append(i)
    ready = [i for i in range(n) if waiting[i] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        i = heapq.heappop(ready)
        order.append(i)
        for j in dependents.get(i, []):
            waiting[j] -= 1
            if waiting[j] == 0:
                heapq.heappush(ready, j)
    if len(order) != n:
        raise RecordError("the gold graph has a dependency cycle or an out-of-range dependency")
    return order


def record_scenario(native: NativeScenarioFile, catalog: Catalog) -> NativeScenarioFile:
    """A copy of ``native`` whose real-tool nodes hold freshly simulated observations."""
    spec = to_scenario_spec(native)
    today = spec.today
    if today is None:
        raise RecordError(f"{native.id}: env_info must start with a YYYY-MM-DD date")
    tools, missing = resolve_tools(spec, catalog)
    if missing:
        raise RecordError(f"{native.id}: unknown tool(s) {missing}")
    env = ToolEnvironment(_with_inline(catalog, tools), Database(), ServerSettings(seed=native.seed, today=today))
    env.create_session(
        pairs=[(name, tool.name) for name, tool in tools.items()],
        seed=native.seed,
        today=today,
        session_id=RECORD_SESSION,
        label=f"record {native.id}",
    )
    recorded = native.model_copy(deep=True)
    for node in (n for task in recorded.tasks for n in task.nodes if n.action not in PSEUDO_ACTIONS):
        node.observation = None

    def observation_of(t: int, i: int) -> Any:
        try:
            return recorded.tasks[t].nodes[i].observation
        except IndexError:
            return None

    for t, task in enumerate(recorded.tasks):
        for i in topological_order(task):
            node = task.nodes[i]
            if node.action in PSEUDO_ACTIONS:
                continue
            allowed = ancestors(task, i)
            problems: list[str] = []

            def resolve(ref: str, allowed: set[int] = allowed, problems: list[str] = problems, t: int = t) -> Any:
                value = lookup_ref(ref, t, allowed, observation_of)
                if isinstance(value, RefProblem):
                    problems.append(f"reference '{ref}': {value.message}")
                    return None
                return value

            args = resolve_refs(node.arguments, resolve)
            if problems:
                raise RecordError(f"{native.id} task {t} node {i}: " + "; ".join(problems))
            outcome = env.call_tool(RECORD_SESSION, node.action, args)
            if outcome.is_error:
                raise RecordError(f"{native.id} task {t} node {i} ({node.action}): {outcome.message}")
            node.observation = outcome.result
    return recorded


def record_file(path: Path, catalog: Catalog) -> bool:
    """Record one native file in place; True when its content changed."""
    native = read_native_file(path)
    before = path.read_text(encoding="utf-8")
    write_native_file(record_scenario(native, catalog), path)
    return path.read_text(encoding="utf-8") != before


def _with_inline(catalog: Catalog, tools: dict[str, Any]) -> Catalog:
    """The catalog itself, or a copy that also holds the scenario's inline tools."""
    extra = {t.name: t for t in tools.values() if t.name not in catalog.tools}
    if not extra:
        return catalog
    merged = Catalog(tools={**catalog.tools, **extra}, groups=dict(catalog.groups), validators=dict(catalog.validators))
    for name, tool in extra.items():
        merged.validators[name] = ArgumentValidator(name, tool.input_schema)
    return merged
