"""Check scenarios: ids, labels, gold DAGs, pseudo-actions and gold arguments.

``validate_scenario`` returns every problem instead of stopping at the first. Errors make
a scenario unusable (a broken DAG, an action naming no offered tool, arguments the tool
would reject); warnings flag labels that disagree with the DAG's shape, which the
official data tolerates.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum
from typing import Any

from env_server.catalog import Catalog
from env_server.catalog.loaders import RawTool, mcp_safe_name, to_tool_spec
from env_server.catalog.models import SourceFormat, ToolSpec
from env_server.orchestrator.models import (
    ASK,
    PREPARE,
    AnswerType,
    ScenarioSource,
    ScenarioSpec,
    TaskSpec,
    TaskType,
)
from env_server.validation import ArgumentValidator

MIN_TASKS = 4
OFFICIAL_TASKS = 4


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class ScenarioProblem:
    scenario_id: str
    where: str
    message: str
    severity: Severity = Severity.ERROR

    def __str__(self) -> str:
        at = f" {self.where}" if self.where else ""
        return f"{self.severity.value}: {self.scenario_id}{at}: {self.message}"


def resolve_tools(spec: ScenarioSpec, catalog: Catalog | None) -> tuple[dict[str, ToolSpec], list[str]]:
    """The scenario's tools by the name it uses, and the catalog names that were not found."""
    tools: dict[str, ToolSpec] = {}
    missing: list[str] = []
    for name in spec.tools:
        found = catalog.get(name) if catalog is not None else None
        if found is None:
            missing.append(name)
        else:
            tools[name] = found
    source = SourceFormat.WILDTOOLBENCH if spec.source is ScenarioSource.WILDTOOLBENCH else SourceFormat.OPENAI
    for i, entry in enumerate(spec.inline_tools):
        fn = entry.get("function", entry) if isinstance(entry, dict) else {}
        if not isinstance(fn, dict) or not fn.get("name"):
            missing.append(f"<inline tool {i} without a name>")
            continue
        raw = RawTool(
            name=str(fn["name"]),
            description=str(fn.get("description") or ""),
            input_schema=fn.get("parameters") or {"type": "object", "properties": {}},
            output_schema=None,
            profile=None,
            category=None,
            provider=spec.id,
            source=source,
            origin=f"{spec.origin}#tool{i}",
        )
        name = mcp_safe_name(raw.name)
        tools.setdefault(raw.name, to_tool_spec(raw, name))
    return tools, missing


def validate_scenario(spec: ScenarioSpec, catalog: Catalog | None = None) -> list[ScenarioProblem]:
    """Every problem of one scenario; an empty list means it is ready to play."""
    out = [ScenarioProblem(spec.id, where, message, Severity.ERROR) for where, message in _header_problems(spec)]
    tools, missing = resolve_tools(spec, catalog)
    out += [ScenarioProblem(spec.id, "tools", message) for message in _tool_list_problems(spec, catalog, missing)]
    validators = {name: ArgumentValidator(name, t.input_schema) for name, t in tools.items()}
    for t, task in enumerate(spec.tasks):
        out += [
            ScenarioProblem(spec.id, f"task {t}", message, severity)
            for message, severity in _task_problems(t, task, tools, validators, missing)
        ]
    return out


def _header_problems(spec: ScenarioSpec) -> list[tuple[str, str]]:
    """Load problems, id, task count and date: ``(where, message)`` pairs."""
    out = [("", message) for message in spec.load_problems]
    if not spec.id.strip():
        out.append(("", "empty scenario id"))
    if spec.source is ScenarioSource.WILDTOOLBENCH and len(spec.tasks) != OFFICIAL_TASKS:
        out.append(("", f"official scenarios have exactly {OFFICIAL_TASKS} tasks, found {len(spec.tasks)}"))
    elif len(spec.tasks) < MIN_TASKS:
        out.append(("", f"a scenario needs at least {MIN_TASKS} tasks, found {len(spec.tasks)}"))
    if spec.source is ScenarioSource.NATIVE and spec.today is None:
        out.append(("env_info", f"must start with a YYYY-MM-DD date, got {spec.env_info!r}"))
    return out


def _tool_list_problems(spec: ScenarioSpec, catalog: Catalog | None, missing: list[str]) -> list[str]:
    """Unknown tools (with suggestions) and tools offered twice."""
    out = []
    for name in missing:
        hint = catalog.suggest(name) if catalog is not None else []
        out.append(f"unknown tool '{name}'" + (f"; did you mean {', '.join(hint)}?" if hint else ""))
    dupes = sorted(n for n, c in Counter(spec.tool_names).items() if c > 1)
    if dupes:
        out.append(f"tool(s) offered twice: {dupes}")
    return out


def _task_problems(
    t: int, task: TaskSpec, tools: dict[str, ToolSpec], validators: dict[str, ArgumentValidator], missing: list[str]
) -> list[tuple[str, Severity]]:
    """Subtype, message, graph, shape (warnings) and actions of task ``t``."""
    out: list[tuple[str, Severity]] = []
    if t == 0 and task.subtype is not None:
        out.append((f"the first task has no hidden-intent subtype, got '{task.subtype.value}'", Severity.ERROR))
    if t > 0 and task.subtype is None:
        out.append(("every task after the first needs a hidden-intent subtype", Severity.ERROR))
    if not task.user_message.strip():
        out.append(("empty user message", Severity.ERROR))
    out += [(message, Severity.ERROR) for message in check_graph(task)]
    out += [(message, Severity.WARNING) for message in check_shape(task)]
    out += [(message, Severity.ERROR) for message in _check_actions(task, tools, validators, missing)]
    return out


def check_graph(task: TaskSpec) -> list[str]:
    """Indexes, dependency ranges, acyclicity and the single final prepare node."""
    if not task.nodes:
        return ["a task needs at least one node (its prepare_to_answer)"]
    problems = _index_problems(task)
    if problems:
        return problems
    cycle = find_cycle(task)
    if cycle:
        return [f"dependency cycle through nodes {cycle}"]
    prepares = [i for i, node in enumerate(task.nodes) if node.action.name == PREPARE]
    if len(prepares) != 1:
        return [f"expected exactly one {PREPARE} node, found {len(prepares)}"]
    return _prepare_problems(task, prepares[0])


def _index_problems(task: TaskSpec) -> list[str]:
    """Each node's idx matches its place; dependencies are in range, not itself, not repeated."""
    problems: list[str] = []
    n = len(task.nodes)
    for i, node in enumerate(task.nodes):
        if node.idx != i:
            problems.append(f"node {i}: idx is {node.idx}, expected {i}")
        for d in node.dependency_list:
            if not 0 <= d < n:
                problems.append(f"node {i}: dependency {d} is out of range 0..{n - 1}")
            elif d == i:
                problems.append(f"node {i}: depends on itself")
        if len(set(node.dependency_list)) != len(node.dependency_list):
            problems.append(f"node {i}: repeated entries in dependency_list {node.dependency_list}")
    return problems


def _prepare_problems(task: TaskSpec, p: int) -> list[str]:
    """The prepare node ``p`` is last, nothing depends on it, and it depends on every sink."""
    problems: list[str] = []
    n = len(task.nodes)
    if p != n - 1:
        problems.append(f"the {PREPARE} node must be the last node, it is node {p} of {n}")
    dependents = {d for j, node in enumerate(task.nodes) if j != p for d in node.dependency_list}
    if p in dependents:
        problems.append(f"node(s) depend on the {PREPARE} node; it must end the task")
    sinks = sorted(i for i in range(n) if i != p and i not in dependents)
    if sorted(task.nodes[p].dependency_list) != sinks:
        problems.append(
            f"the {PREPARE} node must depend on every sink {sinks}, but depends on {task.nodes[p].dependency_list}"
        )
    return problems


def find_cycle(task: TaskSpec) -> list[int]:
    """Nodes on one dependency cycle (empty when the graph is a DAG)."""
    state: dict[int, int] = {}
    stack: list[int] = []

    def visit(i: int) -> list[int]:
        state[i] = 1
        stack.append(i)
        for d in task.nodes[i].dependency_list:
            if state.get(d) == 1:
                return stack[stack.index(d):]
            if d not in state:
                found = visit(d)
                if found:
                    return found
        stack.pop()
        state[i] = 2
        return []

    for i in range(len(task.nodes)):
        if i not in state:
            found = visit(i)
            if found:
                return sorted(found)
    return []


def check_shape(task: TaskSpec) -> list[str]:
    """Does the task type agree with the gold DAG? (warnings)"""
    calls = [i for i, node in enumerate(task.nodes) if node.is_tool_call]
    asks = [i for i, node in enumerate(task.nodes) if node.action.name == ASK]
    kind = task.task_type
    if kind is TaskType.CHAT:
        return [] if not calls and not asks else ["a Chat task should hold only its prepare_to_answer node"]
    if kind is TaskType.CLARIFY:
        return [] if asks and calls else ["a Clarify task should ask the user first and then call a tool"]
    if asks:
        return [f"only Clarify tasks ask the user, this one is '{kind.value}'"]
    if kind is TaskType.SINGLE_TOOL:
        return [] if len(calls) == 1 else [f"a Single-Tool task should make one call, it makes {len(calls)}"]
    if len(calls) < 2:
        return [f"a multi-tool task should make at least two calls, it makes {len(calls)}"]
    actual = _call_graph_type(task, calls)
    return [] if actual is kind else [f"labelled '{kind.value}' but the calls form a '{actual.value}' graph"]


def _call_graph_type(task: TaskSpec, calls: list[int]) -> TaskType:
    """Parallel when no call feeds another, Sequential when the calls form one chain, else Mixed."""
    call_set = set(calls)
    edges = {i: [d for d in task.nodes[i].dependency_list if d in call_set] for i in calls}
    if all(not deps for deps in edges.values()):
        return TaskType.PARALLEL
    chain = sum(1 for deps in edges.values() if not deps) == 1 and all(len(deps) <= 1 for deps in edges.values()) and (
        len({d for deps in edges.values() for d in deps}) == len(calls) - 1
    )
    return TaskType.SEQUENTIAL if chain else TaskType.MIXED


def _check_actions(
    task: TaskSpec, tools: dict[str, ToolSpec], validators: dict[str, ArgumentValidator], missing: list[str]
) -> list[str]:
    problems: list[str] = []
    has_calls = any(node.is_tool_call for node in task.nodes)
    for i, node in enumerate(task.nodes):
        name, args = node.action.name, node.action.arguments
        if name == PREPARE:
            problems += _check_prepare(i, args, node.observation, has_calls)
        elif name == ASK:
            problems += _check_ask(i, args, node.observation, node.user_input, tools)
        else:
            if node.user_input is not None:
                problems.append(f"node {i}: only {ASK} nodes carry user_input")
            if name not in validators:
                if name not in missing:
                    problems.append(f"node {i}: action '{name}' is not one of the scenario's tools")
                continue
            for message in validators[name].problems(args):
                problems.append(f"node {i}: {name}: {message}")
            if node.observation is None:
                problems.append(f"node {i}: no observation recorded (run `toolenv scenarios record`)")
    return problems


def _check_prepare(i: int, args: dict[str, Any], observation: Any, has_calls: bool) -> list[str]:
    problems = []
    kind = args.get("answer_type")
    if set(args) != {"answer_type"} or kind not in {a.value for a in AnswerType}:
        problems.append(f"node {i}: {PREPARE} takes {{'answer_type': 'tool' | 'chat'}}, got {args}")
    elif (kind == AnswerType.TOOL.value) != has_calls:
        expected = AnswerType.TOOL.value if has_calls else AnswerType.CHAT.value
        problems.append(f"node {i}: answer_type should be '{expected}' for this task, got '{kind}'")
    if not isinstance(observation, str):
        problems.append(f"node {i}: the {PREPARE} observation is the final reply text (a string)")
    return problems


def _check_ask(i: int, args: dict[str, Any], question: Any, reply: Any, tools: dict[str, ToolSpec]) -> list[str]:
    problems = []
    if not isinstance(question, str) or not question.strip():
        problems.append(f"node {i}: the {ASK} observation must be the question text")
    if not isinstance(reply, str) or not reply.strip():
        problems.append(f"node {i}: an {ASK} node needs the user's reply in user_input")
    entries = args.get("tool_list")
    if set(args) != {"tool_list"} or not isinstance(entries, list) or not entries:
        return problems + [
            f"node {i}: {ASK} takes {{'tool_list': [{{'tool_name', 'missing_required_parameters'}}]}}, got {args}"
        ]
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("missing_required_parameters"), list):
            problems.append(f"node {i}: malformed tool_list entry {entry}")
            continue
        tool = tools.get(str(entry.get("tool_name")))
        if tool is None:
            problems.append(f"node {i}: asks about '{entry.get('tool_name')}', which is not one of the scenario's tools")
            continue
        known = set(tool.input_schema.get("properties") or {})
        unknown = [p for p in entry["missing_required_parameters"] if p not in known]
        if unknown:
            problems.append(f"node {i}: {tool.name} has no parameter(s) {unknown}")
    return problems
