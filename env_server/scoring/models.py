"""Input types of the scorer: gold nodes and tasks, predicted calls and steps, label vocabularies.

These are the only shapes the scoring engine reads. Loaders (the WildToolBench reader in
:mod:`env_server.scoring.official`, the scenario model of the orchestrator) convert into them.
"""

from __future__ import annotations

import json
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from env_server.errors import ToolenvError
from env_server.scoring.rules import ArgRule

PREPARE = "prepare_to_answer"
ASK = "ask_user_for_required_parameters"
PSEUDO_ACTIONS = frozenset({PREPARE, ASK})


class ScoringError(ToolenvError):
    """Scoring input is malformed (bad dependency list, unknown label, unreadable result file)."""


class TaskType(str, Enum):
    """The six WildToolBench task labels (doc 2.5)."""

    SINGLE = "Single-Tool"
    SINGLE_TOOL = "Single-Tool"  # alias: the name the scenario model uses
    PARALLEL = "Parallel Multi-Tool"
    SEQUENTIAL = "Sequential Multi-Tool"
    MIXED = "Mixed Multi-Tool"
    CLARIFY = "Clarify"
    CHAT = "Chat"

    @property
    def is_multi_tool(self) -> bool:
        return "Multi-Tool" in self.value


class TurnSubtype(str, Enum):
    """Hidden-intent label of a task at position >= 1 (doc 2.5)."""

    COREFERENTIAL = "Coreferential Reference"
    COREFERENCE = "Coreferential Reference"  # alias: the name the scenario model uses
    PARTIAL = "Partial Information"
    LONG_RANGE = "Long-Range Dependency"


class GoldNode(BaseModel):
    """One action of a gold trajectory: a real tool call or one of the two pseudo-actions."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    index: int = Field(ge=0, description="Position in the task's node list (0-based).")
    name: str = Field(description="Tool name, or prepare_to_answer / ask_user_for_required_parameters.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Gold arguments (a JSON object).")
    dependencies: tuple[int, ...] = Field(default=(), description="Indices of nodes that must run first.")
    observation: Any = Field(default=None, description="Tool output, question text or final answer text.")
    user_input: str | None = Field(default=None, description="The user's reply after an ask node.")
    match: dict[str, ArgRule] | None = Field(
        default=None,
        description="Native match rules per argument; None: graded by the official checker alone (official data).",
    )

    @property
    def is_pseudo(self) -> bool:
        return self.name in PSEUDO_ACTIONS

    def arguments_json(self) -> str:
        """The gold argument string as the official log stores it (json.dumps, data key order)."""
        return json.dumps(self.arguments, ensure_ascii=False)


class GoldTask(BaseModel):
    """One user task: its gold node DAG, labels and the tools offered."""

    model_config = ConfigDict(extra="forbid")

    nodes: list[GoldNode] = Field(min_length=1, description="Gold trajectory; node i has index i.")
    task_type: TaskType
    turn_subtype: TurnSubtype | None = Field(default=None, description="None for the first task.")
    position: int = Field(default=0, ge=0, description="Task position in its session (0-based).")
    tools: list[dict[str, Any]] = Field(default_factory=list, description="OpenAI-style function tools.")
    progress_node_count: int | None = Field(
        default=None, description="AP denominator; the official scorer reads it from the non-English twin."
    )

    @model_validator(mode="after")
    def _check_nodes(self) -> GoldTask:
        n = len(self.nodes)
        for i, node in enumerate(self.nodes):
            if node.index != i:
                raise ValueError(f"node at position {i} has index {node.index}")
            bad = [d for d in node.dependencies if not 0 <= d < n or d == i]
            if bad:
                raise ValueError(f"node {i} has out-of-range or self dependencies {bad}")
        return self

    @property
    def names(self) -> list[str]:
        return [node.name for node in self.nodes]

    @property
    def total_step(self) -> int:
        return self.progress_node_count if self.progress_node_count is not None else len(self.nodes)

    def tool_parameters(self) -> dict[str, dict[str, Any]]:
        """Map tool name to its parameters schema."""
        return index_tool_parameters(self.tools)


class GoldSession(BaseModel):
    """A scenario: several tasks scored together (session accuracy needs all of them right)."""

    model_config = ConfigDict(extra="forbid")

    session_id: str
    tasks: list[GoldTask]


class PredictedCall(BaseModel):
    """One tool call emitted by the agent. ``arguments`` is the raw JSON text the model wrote."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    arguments: str = "{}"
    call_id: str = ""

    @classmethod
    def of(cls, name: str, arguments: dict[str, Any] | None = None, call_id: str = "") -> PredictedCall:
        return cls(name=name, arguments=json.dumps(arguments or {}, ensure_ascii=False), call_id=call_id)


class PredictedStep(BaseModel):
    """One model turn inside a task: text content, tool calls, or both."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    content: str | None = None
    calls: tuple[PredictedCall, ...] = ()

    @classmethod
    def text(cls, content: str) -> PredictedStep:
        return cls(content=content)

    @classmethod
    def tools(cls, *calls: PredictedCall) -> PredictedStep:
        return cls(calls=tuple(calls))

    @property
    def is_text(self) -> bool:
        return not self.calls and bool(self.content)

    @property
    def is_empty(self) -> bool:
        return not self.calls and not self.content


def index_tool_parameters(tools: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Accept ``{"type": "function", "function": {...}}`` or bare ``{name, parameters}`` entries."""
    index: dict[str, dict[str, Any]] = {}
    for tool in tools:
        fn = tool.get("function", tool)
        name = fn.get("name")
        if isinstance(name, str):
            params = fn.get("parameters", fn.get("inputSchema")) or {}
            index[name] = params if isinstance(params, dict) else {}
    return index
