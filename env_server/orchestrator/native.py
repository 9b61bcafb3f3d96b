"""Our native scenario files (``tool_specs/scenarios/<id>.json``) and their references.

The file model forbids unknown keys. Gold arguments may refer to the output of an
earlier node with ``{"$ref": "<ref>"}`` in place of a value, and the hand-written text of
a pseudo-action (the question of an ask node, the final reply of a prepare node) may embed
``{{<ref>}}``. A ref is ``N:path`` (node N of the same task) or ``T.N:path`` (node N of
task T). The path is dot-separated keys and list indexes, e.g. ``0:shows.0.show_id``; an
empty path (``0:``) means the whole observation. Same-task refs must point at a node the
referring node depends on (directly or not); cross-task refs at an earlier task.
References are resolved from the recorded observations when a file is loaded, and from
the live results while ``toolenv scenarios record`` runs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from env_server.orchestrator.errors import ScenarioFormatError
from env_server.orchestrator.models import (
    GoldAction,
    GoldNode,
    ScenarioSource,
    ScenarioSpec,
    Split,
    TaskSpec,
    TaskType,
    TurnSubtype,
    Variant,
    Variants,
)
from env_server.scoring.rules import ArgRule

REF_KEY = "$ref"
_REF = re.compile(r"^(?:(\d+)\.)?(\d+):(.*)$")
_PLACEHOLDER = re.compile(r"\{\{\s*([^{}]+?)\s*\}\}")
_MISSING = object()


class NativeNode(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: str = Field(description="Tool name, 'ask_user_for_required_parameters' or 'prepare_to_answer'.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Arguments; values may be {'$ref': ...}.")
    dependency_list: list[int] = Field(default_factory=list, description="Indexes of earlier nodes of this task.")
    observation: Any = Field(
        default=None,
        description="Real tools: written by `toolenv scenarios record`. Pseudo-actions: our text, may hold {{ref}}.",
    )
    user_input: str | None = Field(default=None, description="The user's reply to an ask node.")
    match: dict[str, ArgRule] | None = Field(
        default=None, description="Per-argument match rules (any_of, optional_default, free_text, number_tolerance)."
    )


class NativeTask(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user: str = Field(description="The user message that opens the task.")
    type: TaskType
    subtype: TurnSubtype | None = Field(default=None, description="Required on every task after the first.")
    nodes: list[NativeNode] = Field(min_length=1)
    variants: Variants | None = Field(
        default=None, description="Reasonable (accept) and wrong (reject) versions of the gold calls."
    )


class NativeScenarioFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_]{2,63}$", description="Unique id; also the file stem.")
    title: str = Field(description="One line saying what the user is doing.")
    split: Split = Field(description="'test': held out for evaluation (gold guarded); 'train': open for RL and development.")
    env_info: str = Field(description="'YYYY-MM-DD HH:MM:SS Weekday': the date sessions run on.")
    seed: int = Field(default=0, description="Session seed for recording and replay.")
    tools: list[str] = Field(default_factory=list, description="Catalog tool names offered to the agent.")
    inline_tools: list[dict[str, Any]] = Field(default_factory=list, description="OpenAI function-tool objects.")
    tasks: list[NativeTask] = Field(min_length=4)


def read_native_file(path: Path) -> NativeScenarioFile:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ScenarioFormatError(f"{path}: invalid JSON: {exc}") from None
    try:
        return NativeScenarioFile.model_validate(data)
    except ValidationError as exc:
        parts = []
        for err in exc.errors()[:5]:
            loc = ".".join(str(p) for p in err["loc"])
            parts.append(f"{loc}: {err['msg']}")
        raise ScenarioFormatError(f"{path}: " + "; ".join(parts)) from None


def write_native_file(scenario: NativeScenarioFile, path: Path) -> None:
    data = scenario.model_dump(mode="json", exclude_none=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def load_native_file(path: Path) -> ScenarioSpec:
    spec = to_scenario_spec(read_native_file(path), origin=str(path))
    if path.stem != spec.id:
        spec.load_problems.append(f"the file name must be the id: expected {spec.id}.json, got {path.name}")
    return spec


def to_scenario_spec(native: NativeScenarioFile, origin: str = "") -> ScenarioSpec:
    """Normalize a native file; every reference is resolved from the recorded observations."""
    problems: list[str] = []

    def observation_of(task: int, node: int) -> Any:
        try:
            return native.tasks[task].nodes[node].observation
        except IndexError:
            return _MISSING

    tasks = []
    for t, task in enumerate(native.tasks):
        nodes = []
        for i, node in enumerate(task.nodes):
            where = f"task {t} node {i}"
            allowed = ancestors(task, i)
            resolve = _resolver(t, allowed, observation_of, problems, where)
            args = resolve_refs(node.arguments, resolve)
            observation = node.observation
            if node.action in ("prepare_to_answer", "ask_user_for_required_parameters") and isinstance(observation, str):
                observation = fill_placeholders(observation, resolve)
            nodes.append(
                GoldNode(
                    idx=i,
                    action=GoldAction(name=node.action, arguments=args),
                    observation=observation,
                    dependency_list=list(node.dependency_list),
                    user_input=node.user_input,
                    match=dict(node.match or {}),
                )
            )
        variants = _resolve_variants(t, task, observation_of, problems)
        tasks.append(TaskSpec(user_message=task.user, task_type=task.type, subtype=task.subtype, nodes=nodes,
                              variants=variants))
    return ScenarioSpec(
        id=native.id,
        title=native.title,
        split=native.split,
        env_info=native.env_info,
        seed=native.seed,
        tools=list(native.tools),
        inline_tools=list(native.inline_tools),
        tasks=tasks,
        source=ScenarioSource.NATIVE,
        origin=origin,
        load_problems=problems,
    )


def _resolve_variants(
    t: int, task: NativeTask, observation_of: Callable[[int, int], Any], problems: list[str]
) -> Variants | None:
    """The task's variants with their references resolved as the gold node's own would be."""
    if task.variants is None:
        return None

    def one(kind: str, k: int, variant: Variant) -> Variant:
        nodes = {}
        for i, args in variant.nodes.items():
            where = f"task {t} variants.{kind}.{k} node {i}"
            if not 0 <= i < len(task.nodes):
                problems.append(f"{where}: the task has no node {i}")
                continue
            nodes[i] = resolve_refs(args, _resolver(t, ancestors(task, i), observation_of, problems, where))
        return Variant(why=variant.why, nodes=nodes or variant.nodes)

    return Variants(
        accept=[one("accept", k, v) for k, v in enumerate(task.variants.accept)],
        reject=[one("reject", k, v) for k, v in enumerate(task.variants.reject)],
    )


def ancestors(task: NativeTask, index: int) -> set[int]:
    """Every node ``index`` depends on, directly or through others (cycle-safe)."""
    seen: set[int] = set()
    stack = list(task.nodes[index].dependency_list)
    while stack:
        d = stack.pop()
        if d in seen or not 0 <= d < len(task.nodes):
            continue
        seen.add(d)
        stack.extend(task.nodes[d].dependency_list)
    return seen


Resolve = Callable[[str], Any]


def _resolver(
    task: int,
    allowed: set[int],
    observation_of: Callable[[int, int], Any],
    problems: list[str],
    where: str,
) -> Resolve:
    def resolve(ref: str) -> Any:
        value = lookup_ref(ref, task, allowed, observation_of)
        if isinstance(value, RefProblem):
            problems.append(f"{where}: reference '{ref}': {value.message}")
            return None
        return value

    return resolve


class RefProblem:
    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


def lookup_ref(ref: str, task: int, allowed: set[int], observation_of: Callable[[int, int], Any]) -> Any:
    """The value a ref points at, or a ``RefProblem`` saying why it cannot be resolved."""
    match = _REF.match(ref.strip())
    if not match:
        return RefProblem("expected 'N:path' or 'T.N:path'")
    t = int(match.group(1)) if match.group(1) is not None else task
    n = int(match.group(2))
    if t > task:
        return RefProblem(f"task {t} comes later than task {task}")
    if t == task and n not in allowed:
        return RefProblem(f"node {n} is not among the nodes this node depends on")
    value = observation_of(t, n)
    if value is _MISSING:
        return RefProblem(f"task {t} has no node {n}")
    if value is None:
        return RefProblem(f"node {t}.{n} has no observation yet (run `toolenv scenarios record`)")
    for part in [p for p in match.group(3).split(".") if p]:
        if isinstance(value, list) and part.lstrip("-").isdigit() and -len(value) <= int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return RefProblem(f"path step '{part}' not found in the observation of node {t}.{n}")
    return value


def resolve_refs(value: Any, resolve: Resolve) -> Any:
    """A copy of ``value`` with every ``{"$ref": ...}`` replaced by what it points at."""
    if isinstance(value, dict):
        if set(value) == {REF_KEY} and isinstance(value[REF_KEY], str):
            return resolve(value[REF_KEY])
        return {k: resolve_refs(v, resolve) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_refs(v, resolve) for v in value]
    return value


def fill_placeholders(text: str, resolve: Resolve) -> str:
    """Replace each ``{{ref}}`` in ``text`` by the referenced value (strings as is, else JSON)."""

    def one(match: re.Match[str]) -> str:
        value = resolve(match.group(1))
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    return _PLACEHOLDER.sub(one, text)
