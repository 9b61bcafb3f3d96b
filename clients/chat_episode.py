"""One toolenv scenario played as an OpenAI chat exchange, recorded step by step.

A framework adapter (``clients/verifiers_env.py``) runs the model; :class:`ChatEpisode` is
the world it talks to: one :class:`~env_server.rl.ToolEnv` episode in process (over the process-wide
in-memory environment unless given one), with the reward the RL plane computes::

    episode = ChatEpisode(EpisodeSpec(options={"scenario_id": "flight_to_tokyo"}))
    episode.messages, episode.tools          # [system, first user message], OpenAI tool schemas
    replies = await episode.act(assistant)   # tool messages, or [] after a text reply
    episode.next_user                        # the user's next message after a text reply, else None
    episode.record                           # EpisodeRecord: per-step rewards, verdicts, tasks correct
    episode.close()

* ``act`` takes one assistant message in OpenAI chat format. With ``tool_calls`` it is one
  parallel step and returns one ``role="tool"`` message per call, in call order. Without, its
  ``content`` is the reply to the user: the orchestrator answers it, and ``next_user`` holds
  the next user message (a clarification's answer or the next task), or None once the
  scenario ended. A call the model wrote without a name is sent as a call to
  ``invalid_tool_call``: the env answers with an error and the scorer grades it unmatched.
* Rewards are ``ToolEnv``'s (``dense`` or ``sparse``, ``env_server/rl/rewards.py``); their
  sum over the record equals offline scoring of the same actions.
* A timeout fault (``faults`` in the options) makes ``act`` wait its ``slow_ms`` with
  ``asyncio.sleep``, never blocking the event loop.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from env_server import ToolEnvironment
from env_server.rl import DEFAULT_MAX_EPISODE_STEPS, ResetOptions, ToolEnv

INVALID_CALL = "invalid_tool_call"


class EpisodeSpec(BaseModel):
    """Which episode to play and how to reward it: ``ToolEnv(reward, max_steps).reset(seed, options)``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seed: int | None = Field(default=None, description="reset's seed: the generator seed of a generated scenario.")
    options: ResetOptions = Field(default_factory=ResetOptions, description="reset's options.")
    reward: Literal["dense", "sparse"] = Field(default="dense", description="The RL plane's per-step reward.")
    max_steps: int = Field(default=DEFAULT_MAX_EPISODE_STEPS, ge=1, description="Actions before truncation.")


class StepRecord(BaseModel):
    """One action and what the scorer said about it."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["tools", "reply"]
    task: int = Field(description="The task the action belonged to.")
    reward: float
    verdicts: list[str] = Field(description="One CallVerdict per call (one for a reply).")
    faults: list[str] = Field(default_factory=list, description="Codes of injected faults that answered calls.")
    task_ended: bool = False
    task_correct: bool | None = None

    @classmethod
    def of(cls, kind: Literal["tools", "reply"], reward: float, info: Mapping[str, Any]) -> StepRecord:
        """The record of a step from ``ToolEnv.step``'s reward and info."""
        judgement = info.get("judgement")
        if judgement is None:
            return cls(kind=kind, task=int(info["task_index"]), reward=reward, verdicts=[],
                       faults=list(info.get("faults") or []))
        return cls(kind=kind, task=judgement["task"], reward=reward, verdicts=list(judgement["verdicts"]),
                   faults=list(info.get("faults") or []), task_ended=judgement["task_ended"],
                   task_correct=judgement["task_correct"])


class EpisodeRecord(BaseModel):
    """The episode as scored: what a framework's rubric reads."""

    model_config = ConfigDict(extra="forbid")

    scenario_id: str
    task_count: int
    tasks_correct: int = 0
    success: bool = Field(default=False, description="Every task correct (session accuracy).")
    terminated: bool = False
    truncated: bool = False
    steps: list[StepRecord] = Field(default_factory=list)

    @property
    def total_reward(self) -> float:
        return sum(step.reward for step in self.steps)

    @property
    def task_accuracy(self) -> float:
        return self.tasks_correct / self.task_count if self.task_count else 0.0


class ChatEpisode:
    """One ``ToolEnv`` episode behind a chat loop (see the module docstring). Not thread-safe."""

    def __init__(self, spec: EpisodeSpec, environment: ToolEnvironment | None = None) -> None:
        self.spec = spec
        self.env = ToolEnv(environment, reward=spec.reward, max_steps=spec.max_steps, wait_on_faults=False)
        observation, info = self.env.reset(seed=spec.seed, options=spec.options)
        self.messages: list[dict[str, Any]] = list(observation["messages"])
        self.tools: list[dict[str, Any]] = list(observation["tools"] or [])
        self.next_user: str | None = None
        self.record = EpisodeRecord(scenario_id=str(info["scenario_id"]), task_count=int(info["task_count"]))

    @property
    def over(self) -> bool:
        return self.record.terminated or self.record.truncated

    async def act(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """Step with one assistant message; the tool messages it got back (see the module docstring)."""
        action = assistant_action(message)
        observation, reward, terminated, truncated, info = self.env.step(action)
        if self.env.fault_delay_s:
            await asyncio.sleep(self.env.fault_delay_s)
        self.record.steps.append(StepRecord.of("tools" if action.get("tool_calls") else "reply", reward, info))
        self.record.tasks_correct = int(info["tasks_correct"])
        self.record.success = bool(info["success"])
        self.record.terminated, self.record.truncated = terminated, truncated
        if observation["tools"] is not None:
            self.tools = list(observation["tools"])
        users = [m["content"] for m in observation["messages"] if m.get("role") == "user"]
        self.next_user = users[-1] if users and not self.over else None
        return [m for m in observation["messages"] if m.get("role") == "tool"]

    def close(self) -> None:
        self.env.close()


def assistant_action(message: dict[str, Any]) -> dict[str, Any]:
    """``ToolEnv``'s action from an assistant message as an OpenAI client returns it.

    Keeps ``content`` and each call's id, name and arguments (extra fields such as ``refusal``
    are dropped); an object given as arguments is serialized, a nameless call goes to
    ``invalid_tool_call``.
    """
    calls = []
    for k, call in enumerate(message.get("tool_calls") or ()):
        function = call.get("function") or {}
        arguments = function.get("arguments")
        if not isinstance(arguments, str):
            arguments = "{}" if arguments is None else json.dumps(arguments, ensure_ascii=False)
        calls.append({"id": call.get("id") or f"call_{k}", "type": "function",
                      "function": {"name": function.get("name") or INVALID_CALL, "arguments": arguments}})
    action: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
    if calls:
        action["tool_calls"] = calls
    return action
