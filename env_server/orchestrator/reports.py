"""Wire models of live scenario sessions: user turns, the call log view, per-task results.

These cross the REST boundary and are written into run directories, so they are pydantic
models with stable field names.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class TaskStatus(str, Enum):
    PENDING = "pending"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"


class TurnKind(str, Enum):
    """Why the user spoke: a task opened, a clarifying question was answered, or the session ended."""

    TASK = "task"
    CLARIFICATION = "clarification"
    END = "end"


class UserTurn(BaseModel):
    """What the scripted user says next. ``content`` is None once the session is over."""

    model_config = ConfigDict(extra="forbid")

    session_id: str
    kind: TurnKind
    content: str | None
    task_index: int = Field(description="The task the agent is now working on (the last one once done).")
    done: bool = False
    finished_task: int | None = Field(default=None, description="Task that this reply ended, if any.")


class CallEntry(BaseModel):
    """One agent tool call as the orchestrator saw it."""

    model_config = ConfigDict(extra="forbid")

    seq: int | None = Field(default=None, description="Call-log sequence number (None if the call never ran).")
    task: int
    step: int = Field(description="Index of the model step inside the task (parallel calls share it).")
    step_id: str | None = Field(default=None, description="The client's params._meta['toolenv/step'], if sent.")
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    pinned: bool = Field(default=False, description="Answered with the matched gold node's recorded observation.")
    refused: bool = Field(default=False, description="Not run: the task's step budget was exhausted.")
    fault: str | None = Field(default=None, description="Code of the injected fault that answered the call "
                                                        "(rate_limited, timeout, service_unavailable); never judged.")
    is_error: bool = False
    result: Any = None


class TaskReport(BaseModel):
    """Live or final result of one task, from the shared matching and grading engine."""

    model_config = ConfigDict(extra="forbid")

    index: int
    task_type: str
    subtype: str | None
    status: TaskStatus
    label: str | None = Field(default=None, description="'correct' or 'error' once the task has ended.")
    terminated: bool = Field(default=False, description="The task ended by the agent's text reply.")
    truncated: bool = Field(default=False, description="The step budget cut the task short.")
    action_name_ok: bool | None = None
    arguments_ok: bool | None = None
    is_optimal: bool | None = None
    steps: int = Field(default=0, description="Model steps judged so far (tool steps and text turns).")
    calls: int = Field(default=0, description="Tool calls that ran (or were judged), injected faults excluded.")
    faults: int = Field(default=0, description="Calls an injected fault answered; never judged.")
    reason: str | None = Field(default=None, description="Why the task failed, in words.")
    error_type: str | None = Field(default=None, description="Error-taxonomy label of a failed task.")
    approximate_grouping: bool = Field(
        default=False, description="Some calls carried no step id and were grouped by arrival overlap."
    )


class SessionResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    session_id: str
    scenario_id: str
    task_index: int
    done: bool
    tasks: list[TaskReport]
    correct: int = Field(description="Tasks labelled correct so far.")
    accuracy: float = Field(description="correct / number of tasks (unfinished tasks count as not correct).")
    faults: int = Field(default=0, description="Calls answered by an injected fault (session fault options).")
    recovered: int = Field(default=0, description="Faulted calls followed by the same call succeeding in the task.")
    recovery: float | None = Field(default=None, description="recovered / faults; None without faults.")


class SessionStatus(BaseModel):
    """A scenario session as its driver sees it (no admin token): no labels, no gold."""

    model_config = ConfigDict(extra="forbid")

    session_id: str
    scenario_id: str
    task_index: int
    task_count: int
    tasks_ended: int = Field(description="Tasks that have ended, whether right or wrong.")
    done: bool
    user_channel: bool
    tool_count: int = Field(description="Tools listed to the agent (scenario tools plus distractors).")
    transcript: list[dict[str, Any]] = Field(description="User and assistant messages, in order.")


class ScenarioSummary(BaseModel):
    """A scenario as listed publicly: what it is about, never its gold."""

    model_config = ConfigDict(extra="forbid")

    id: str
    title: str | None
    task_count: int
    task_types: list[str] = Field(description="Task type of each task, in order.")
