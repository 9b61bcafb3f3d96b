"""Read and write the official WildToolBench JSONL scenario format.

One line is one scenario. The fields we interpret are ``id`` (``wild_tool_bench_<k>``
where k is the line index), ``english_env_info``, ``english_tools``, ``english_tasks``,
``english_answer_list``, ``english_task_types`` and ``english_turn_subtypes`` (one label per
task after the first). Every other top-level field (``answer_list``, the Chinese twins, a
rendered dialogue, ...) and every unknown node key is kept verbatim, so
``dump_official_line(load(...))`` gives back the original object.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from env_server.orchestrator.errors import ScenarioFormatError
from env_server.orchestrator.models import (
    GoldAction,
    GoldNode,
    ScenarioSource,
    ScenarioSpec,
    TaskSpec,
    TaskType,
    TurnSubtype,
)

ID_PREFIX = "wild_tool_bench_"
REQUIRED_FIELDS = (
    "id",
    "english_env_info",
    "english_tools",
    "english_tasks",
    "english_answer_list",
    "english_task_types",
    "english_turn_subtypes",
)
_NODE_KEYS = ("idx", "action", "observation", "dependency_list", "user_input")


def official_id(index: int) -> str:
    return f"{ID_PREFIX}{index}"


def read_official_jsonl(path: Path) -> tuple[list[ScenarioSpec], list[ScenarioFormatError]]:
    """Every scenario that parses, and one error per line that does not (blank lines count)."""
    scenarios: list[ScenarioSpec] = []
    errors: list[ScenarioFormatError] = []
    with path.open(encoding="utf-8") as fh:
        for index, line in enumerate(fh):
            origin = f"{path}:{index + 1}"
            try:
                if not line.strip():
                    raise ScenarioFormatError(f"{origin}: empty line; line k must hold {official_id(index)}")
                try:
                    data = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise ScenarioFormatError(f"{origin}: invalid JSON: {exc}") from None
                scenarios.append(parse_official_line(data, index, origin))
            except ScenarioFormatError as exc:
                errors.append(exc)
    return scenarios, errors


def parse_official_line(data: Any, index: int, origin: str = "") -> ScenarioSpec:
    """Turn one decoded line into a ``ScenarioSpec``; raises ``ScenarioFormatError``."""
    where = origin or f"line {index + 1}"
    if not isinstance(data, dict):
        raise ScenarioFormatError(f"{where}: a line must be a JSON object, got {type(data).__name__}")
    missing = [f for f in REQUIRED_FIELDS if f not in data]
    if missing:
        raise ScenarioFormatError(f"{where}: missing field(s) {missing}")
    if data["id"] != official_id(index):
        raise ScenarioFormatError(
            f"{where}: id '{data['id']}' does not match its line index; expected '{official_id(index)}'"
        )
    tasks_text = _list_of(data, "english_tasks", where)
    answers = _list_of(data, "english_answer_list", where)
    types = _list_of(data, "english_task_types", where)
    subtypes = _list_of(data, "english_turn_subtypes", where)
    tools = _list_of(data, "english_tools", where)
    n = len(tasks_text)
    if len(answers) != n or len(types) != n:
        raise ScenarioFormatError(
            f"{where}: english_tasks, english_answer_list and english_task_types must have the same length "
            f"(got {n}, {len(answers)}, {len(types)})"
        )
    if len(subtypes) != max(n - 1, 0):
        raise ScenarioFormatError(
            f"{where}: english_turn_subtypes needs one label per task after the first ({n - 1}), got {len(subtypes)}"
        )
    tasks = [
        TaskSpec(
            user_message=_text(tasks_text[i], f"{where}: english_tasks[{i}]"),
            task_type=_label(TaskType, types[i], f"{where}: english_task_types[{i}]"),
            subtype=None if i == 0 else _label(TurnSubtype, subtypes[i - 1], f"{where}: english_turn_subtypes[{i - 1}]"),
            nodes=_nodes(answers[i], f"{where}: english_answer_list[{i}]"),
        )
        for i in range(n)
    ]
    return ScenarioSpec(
        id=data["id"],
        env_info=_text(data["english_env_info"], f"{where}: english_env_info"),
        inline_tools=tools,
        tasks=tasks,
        source=ScenarioSource.WILDTOOLBENCH,
        origin=where,
        extra_fields={k: v for k, v in data.items() if k not in REQUIRED_FIELDS},
    )


def dump_official_line(spec: ScenarioSpec) -> dict[str, Any]:
    """The official JSON object of a scenario (unknown fields included)."""
    out: dict[str, Any] = {
        "id": spec.id,
        "english_env_info": spec.env_info,
        "english_tools": spec.inline_tools,
        "english_tasks": [t.user_message for t in spec.tasks],
        "english_answer_list": [[_dump_node(n) for n in t.nodes] for t in spec.tasks],
        "english_task_types": [t.task_type.value for t in spec.tasks],
        "english_turn_subtypes": [t.subtype.value if t.subtype else "" for t in spec.tasks[1:]],
    }
    out.update(spec.extra_fields)
    return out


def write_official_jsonl(scenarios: list[ScenarioSpec], path: Path) -> None:
    lines = [json.dumps(dump_official_line(s), ensure_ascii=False) for s in scenarios]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def _dump_node(node: GoldNode) -> dict[str, Any]:
    out: dict[str, Any] = {
        "idx": node.idx,
        "action": {"name": node.action.name, "arguments": node.action.arguments},
        "observation": node.observation,
        "dependency_list": node.dependency_list,
    }
    if node.user_input is not None:
        out["user_input"] = node.user_input
    out.update(node.extra_fields)
    return out


def _nodes(raw: Any, where: str) -> list[GoldNode]:
    if not isinstance(raw, list):
        raise ScenarioFormatError(f"{where}: must be a list of nodes")
    nodes = []
    for i, item in enumerate(raw):
        at = f"{where}[{i}]"
        if not isinstance(item, dict) or not isinstance(item.get("action"), dict):
            raise ScenarioFormatError(f"{at}: a node must be an object with an 'action' object")
        action = item["action"]
        args = action.get("arguments", {})
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except json.JSONDecodeError:
                raise ScenarioFormatError(f"{at}: action.arguments is a string that is not JSON") from None
        try:
            nodes.append(
                GoldNode(
                    idx=item.get("idx", i),
                    action=GoldAction(name=action.get("name", ""), arguments=args),
                    observation=item.get("observation"),
                    dependency_list=item.get("dependency_list", []),
                    user_input=item.get("user_input"),
                    extra_fields={k: v for k, v in item.items() if k not in _NODE_KEYS},
                )
            )
        except ValidationError as exc:
            raise ScenarioFormatError(f"{at}: {_first_error(exc)}") from None
    return nodes


def _list_of(data: dict[str, Any], key: str, where: str) -> list[Any]:
    value = data[key]
    if not isinstance(value, list):
        raise ScenarioFormatError(f"{where}: {key} must be a list, got {type(value).__name__}")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ScenarioFormatError(f"{where}: expected a string, got {type(value).__name__}")
    return value


def _label(enum: type[TaskType] | type[TurnSubtype], value: Any, where: str) -> Any:
    try:
        return enum(value)
    except ValueError:
        allowed = ", ".join(repr(m.value) for m in enum)
        raise ScenarioFormatError(f"{where}: unknown label {value!r}; expected one of {allowed}") from None


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    return f"{loc}: {err['msg']}" if loc else err["msg"]
