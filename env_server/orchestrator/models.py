"""In-memory scenario model shared by both loaders, the validator and the recorder.

``ScenarioSpec`` is the normalized form of a scenario whatever file it came from (an
official WildToolBench JSONL line or one of our native files). It is not a file format
itself: unknown fields of the official format are kept in ``extra_fields`` so that a
loaded line can be written back unchanged.
"""

from __future__ import annotations

import datetime as dt
import re
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

# One definition of the task labels and pseudo-actions, shared with the scoring engine.
from env_server.scoring.models import ASK as ASK  # re-exported for the generator
from env_server.scoring.models import PREPARE, PSEUDO_ACTIONS, TaskType, TurnSubtype
from env_server.scoring.rules import ArgRule

_DATE_PREFIX = re.compile(r"^\s*(\d{4}-\d{2}-\d{2})")


class ScenarioSource(str, Enum):
    NATIVE = "native"
    WILDTOOLBENCH = "wildtoolbench"


class Split(str, Enum):
    """Which side of the evaluation split a scenario is on."""

    TRAIN = "train"
    TEST = "test"


class AnswerType(str, Enum):
    """``prepare_to_answer`` argument: the final reply follows tool use, or is plain chat."""

    TOOL = "tool"
    CHAT = "chat"


class GoldAction(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="A tool of the scenario, or one of the two pseudo-actions.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="JSON object of arguments.")

    @property
    def is_pseudo(self) -> bool:
        return self.name in PSEUDO_ACTIONS


class GoldNode(BaseModel):
    """One action of a task's gold trajectory."""

    model_config = ConfigDict(extra="forbid")

    idx: int = Field(description="Position of the node in its task (0-based).")
    action: GoldAction
    observation: Any = Field(
        default=None,
        description="Tool output for real tools; question text for ask nodes; final reply for prepare.",
    )
    dependency_list: list[int] = Field(default_factory=list, description="Nodes of the same task that come first.")
    user_input: str | None = Field(default=None, description="The user's reply, on ask nodes only.")
    match: dict[str, ArgRule] | None = Field(
        default=None, description="Native per-argument match rules; None for official data (graded officially)."
    )
    extra_fields: dict[str, Any] = Field(default_factory=dict, description="Unknown keys kept from the source.")

    @property
    def is_tool_call(self) -> bool:
        return not self.action.is_pseudo


class Variant(BaseModel):
    """A reasonable (accept) or wrong (reject) way to make a task's gold calls."""

    model_config = ConfigDict(extra="forbid")

    why: str = Field(min_length=1, description="What the variant changes, e.g. 'key order', 'wrong date'.")
    nodes: dict[int, dict[str, Any]] = Field(
        min_length=1, description="Gold node index -> the arguments the variant calls it with (values may be $ref)."
    )


class Variants(BaseModel):
    """Held-out style variants of a task's gold calls; native grading must accept / reject each."""

    model_config = ConfigDict(extra="forbid")

    accept: list[Variant] = Field(default_factory=list)
    reject: list[Variant] = Field(default_factory=list)


class TaskSpec(BaseModel):
    """One user task: the opening message, its labels and its gold DAG."""

    model_config = ConfigDict(extra="forbid")

    user_message: str
    task_type: TaskType
    subtype: TurnSubtype | None = Field(default=None, description="None for the first task ('First Turn').")
    nodes: list[GoldNode]
    variants: Variants | None = Field(default=None, description="Native files only: graded variants of the gold.")

    @property
    def prepare_node(self) -> GoldNode | None:
        found = [n for n in self.nodes if n.action.name == PREPARE]
        return found[0] if len(found) == 1 else None


class ScenarioSpec(BaseModel):
    """A multi-task scenario in normalized form."""

    model_config = ConfigDict(extra="forbid")

    id: str
    title: str | None = None
    split: Split | None = Field(
        default=None, description="Declared split; None (official files, generated scenarios) means undeclared."
    )
    env_info: str = Field(description="Opaque environment text; starts with a YYYY-MM-DD date in our files.")
    seed: int = Field(default=0, description="Session seed used to record (and replay) the gold calls.")
    tools: list[str] = Field(default_factory=list, description="Catalog tool names offered in the scenario.")
    inline_tools: list[dict[str, Any]] = Field(
        default_factory=list, description="OpenAI function-tool objects defined by the scenario itself."
    )
    tasks: list[TaskSpec]
    source: ScenarioSource = ScenarioSource.NATIVE
    origin: str = Field(default="", description="File (and line) the scenario was read from.")
    extra_fields: dict[str, Any] = Field(default_factory=dict, description="Unknown top-level fields, kept.")
    load_problems: list[str] = Field(
        default_factory=list, description="Problems found while loading (e.g. unresolved references)."
    )

    @property
    def today(self) -> dt.date | None:
        """The date the env info starts with, or None when it does not start with one."""
        match = _DATE_PREFIX.match(self.env_info)
        if not match:
            return None
        try:
            return dt.date.fromisoformat(match.group(1))
        except ValueError:
            return None

    @property
    def tool_names(self) -> list[str]:
        """Every tool name the scenario offers, catalog names first, then inline ones."""
        inline = [str((t.get("function", t) or {}).get("name", "")) for t in self.inline_tools]
        return list(self.tools) + inline
