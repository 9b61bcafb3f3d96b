"""The action, observation and info of :class:`~env_server.rl.env.ToolEnv`.

Action: one assistant message in OpenAI chat format (:class:`Action`), given as that model or
as a plain dict. ``tool_calls`` make it a tool step: every call of one action runs as one
parallel step. Without tool calls, ``content`` is the agent's text to the user (an answer or a
clarifying question); an action with neither is an empty output and fails the task.

Observation (:class:`Observation`, a dict): ``messages`` are the new messages to append to the
conversation after the action -- one ``role="tool"`` message per call, in call order, with its
``tool_call_id``; or the next ``role="user"`` message (none once the episode is over). On
reset they are a ``system`` message (``"Current Date: <env_info>"``) and the first user
message. ``tools`` is the session's tool list in OpenAI function format on reset and whenever
it changes, else ``None`` (unchanged): keep the last list you were sent.

Info (:class:`StepInfo`, a dict): see the field comments.
"""

from __future__ import annotations

import json
from typing import Any, Literal, TypedDict

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from env_server.faults import FAULTS_HELP, FaultSetting
from env_server.generator import GeneratorSettings
from env_server.rest_contract import AtLeastOne, Seed
from env_server.rl.errors import ActionError, OptionsError


class FunctionCall(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, description="The tool to call.")
    arguments: str = Field(default="{}", description="The arguments as a JSON object, serialized (OpenAI style).")

    @field_validator("arguments", mode="before")
    @classmethod
    def _serialize_objects(cls, value: Any) -> Any:
        # Accept an already-parsed object too; many clients send one.
        return json.dumps(value, ensure_ascii=False) if isinstance(value, dict) else value


class ToolCall(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(default=None, description="Echoed as the tool message's tool_call_id; generated if absent.")
    type: Literal["function"] = "function"
    function: FunctionCall


class Action(BaseModel):
    """One assistant message."""

    model_config = ConfigDict(extra="ignore")  # e.g. "refusal", "reasoning_content" from real models

    role: Literal["assistant"] = "assistant"
    content: str | None = None
    tool_calls: list[ToolCall] | None = None


def parse_action(action: Action | dict[str, Any]) -> Action:
    """The action as a model. Raises ``ActionError`` with every problem in one message."""
    if isinstance(action, Action):
        return action
    if not isinstance(action, dict):
        raise ActionError(f"an action is an assistant message (a dict), not {type(action).__name__}")
    try:
        return Action.model_validate(action)
    except ValidationError as exc:
        raise ActionError("malformed action: " + describe_errors(exc)) from None


def describe_errors(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'action'}: {e['msg']}" for e in exc.errors())


def parse_arguments(raw: str) -> dict[str, Any]:
    """Decode ``function.arguments``; text that is not a JSON object is kept as ``__unparsed__``.

    The call still runs (and fails the tool's schema check), so the agent sees its mistake and
    the scorer grades it, as in ``clients.agents``.
    """
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        return {"__unparsed__": raw}
    return value if isinstance(value, dict) else {"__unparsed__": value}


class ResetOptions(BaseModel):
    """``reset(options=...)``. Without ``scenario_id`` or ``generator`` a built-in scenario is drawn from the seed."""

    # The schema says what the validator below checks: not both sources at once.
    model_config = ConfigDict(extra="forbid", json_schema_extra={"not": {
        "required": ["scenario_id", "generator"],
        "properties": {"scenario_id": {"type": "string"}, "generator": {"type": "object"}}}})

    scenario_id: str | None = None
    generator: GeneratorSettings | None = Field(
        default=None,
        description=("Play a freshly generated scenario: GeneratorSettings fields ({} for the defaults). "
                     "The generator seed is reset's seed (drawn from the env's generator without one)."),
    )
    world_seed: Seed | None = Field(default=None,
                                    description="World seed; default: the scenario's own seed.")
    max_calls_per_task: AtLeastOne | None = Field(default=None, description="Orchestrator call budget per task.")
    faults: FaultSetting | None = Field(default=None, description=FAULTS_HELP)

    @model_validator(mode="after")
    def _one_source(self) -> ResetOptions:
        if self.scenario_id is not None and self.generator is not None:
            raise ValueError("give scenario_id or generator, not both")
        return self


def parse_options(options: ResetOptions | dict[str, Any] | None) -> ResetOptions:
    if options is None:
        return ResetOptions()
    if isinstance(options, ResetOptions):
        return options
    try:
        return ResetOptions.model_validate(options)
    except ValidationError as exc:
        raise OptionsError("malformed reset options: " + describe_errors(exc)) from None


class Message(TypedDict, total=False):
    role: str
    content: str
    tool_call_id: str


class Observation(TypedDict):
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None


class Judgement(TypedDict):
    task: int  # the task the action belonged to
    status: str | None  # the scorer's StepStatus of the step, None if it was not judged
    verdicts: list[str]  # one CallVerdict per tool call (or one for a text step)
    task_ended: bool
    task_correct: bool | None  # set once the task ended


class StepInfo(TypedDict, total=False):
    scenario_id: str
    session_id: str
    task_index: int  # the task the agent works on now (the last one once done)
    task_count: int
    episode_step: int  # actions taken so far
    user_turn: str | None  # "task" | "clarification" | "end" when the user spoke
    judgement: Judgement  # the step's match state (absent on reset)
    errors: list[str]  # tool error messages and, when a task failed, why
    faults: list[str]  # codes of the injected faults that answered this step's calls (never judged)
    tasks_correct: int  # tasks labelled correct so far
    success: bool  # session-level: every task correct (False until the episode is done)
    state_digest: str  # the world-state digest after the step (see ToolEnv's ``digest``)
