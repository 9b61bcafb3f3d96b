"""From a ``ScenarioSpec`` to the scoring engine's input types, with the tools it offers.

The live orchestrator, the oracle agent and offline scoring all read a scenario's gold
through :func:`gold_session`, so the three agree on node indices and argument references.
"""

from __future__ import annotations

from typing import Any

from env_server.catalog import Catalog
from env_server.catalog.models import ToolSpec
from env_server.orchestrator.errors import ScenarioError
from env_server.orchestrator.models import ScenarioSpec, TaskSpec
from env_server.orchestrator.validate import resolve_tools
from env_server.scoring import GoldNode, GoldSession, GoldTask
from env_server.scoring.rules import Grading


def scenario_tools(spec: ScenarioSpec, catalog: Catalog) -> dict[str, ToolSpec]:
    """The scenario's tools by exposed name. Raises ``ScenarioError`` when one is not in the catalog.

    Live sessions run over the shared catalog, so inline tools must already be part of it.
    """
    tools, missing = resolve_tools(spec, catalog)
    missing += sorted(name for name, tool in tools.items() if tool.name not in catalog.tools)
    if missing:
        raise ScenarioError(f"scenario '{spec.id}' uses tools the loaded catalog does not have: {missing}")
    return tools


def function_tools(tools: dict[str, ToolSpec]) -> list[dict[str, Any]]:
    """OpenAI-style function tools (the argument checker reads their ``parameters``)."""
    return [
        {"type": "function", "function": {"name": name, "description": t.description, "parameters": t.input_schema}}
        for name, t in tools.items()
    ]


def gold_task(
    task: TaskSpec, position: int, tools: list[dict[str, Any]], grading: Grading = Grading.NATIVE
) -> GoldTask:
    """One task's gold; ``Grading.OFFICIAL`` drops the native match rules (the official checker alone)."""
    nodes = [
        GoldNode(
            index=i,
            name=node.action.name,
            arguments=node.action.arguments,
            dependencies=tuple(node.dependency_list),
            observation=node.observation,
            user_input=node.user_input,
            match=node.match if grading is Grading.NATIVE else None,
        )
        for i, node in enumerate(task.nodes)
    ]
    return GoldTask(
        nodes=nodes,
        task_type=task.task_type,
        turn_subtype=task.subtype,
        position=position,
        tools=tools,
    )


def gold_session(spec: ScenarioSpec, tools: dict[str, ToolSpec], grading: Grading = Grading.NATIVE) -> GoldSession:
    offered = function_tools(tools)
    tasks = [gold_task(t, i, offered, grading) for i, t in enumerate(spec.tasks)]
    return GoldSession(session_id=spec.id, tasks=tasks)
