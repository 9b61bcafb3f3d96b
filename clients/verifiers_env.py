"""toolenv as a verifiers (Prime Intellect) environment: taskset, scripted user, rubric.

Needs the ``verifiers`` extra (README, "verifiers environment"). verifiers loads an
environment by id, as an importable package exporting its classes in ``__all__``; the
``toolenv`` package at the repository root is that id and re-exports the three classes
here and :func:`load_environment`::

    vf-eval toolenv -m my-model --client.base-url http://localhost:8000/v1 --no-push
    vf-eval toolenv --env.taskset.source generated --env.taskset.seed 100 -n 8 ...

verifiers 0.4.0 composes an environment from a taskset, a harness and an env. Here:

* :class:`ToolenvTaskset` yields one :class:`ToolenvTask` per scenario: the built-in train
  split (or the test split), or ``count`` scenarios from the generator for seeds ``seed``,
  ``seed + 1``, ... A row carries the scenario's id and the ``ToolEnv.reset`` seed and options,
  and no prompt: the scenario is the user's side, as in verifiers' user-simulation envs, so a
  row costs nothing to list (a generated scenario is made when its episode starts).
* :class:`ToolenvEnv` runs one episode per task: it opens a :class:`~clients.chat_episode.
  ChatEpisode` (an in-process ``ToolEnv``), binds it to the agent's trace, and plays the user
  side as verifiers' caller of ``agent.interaction``: the scenario's first request is the first
  turn, and after each reply of the model the orchestrator's next user message (a
  clarification's answer, the next task) is the next, until the scenario ends or the step
  budget runs out.
* The harness (``clients/verifiers_harness.py``) is the model's side: a chat loop in process
  that sends the scenario's tools as OpenAI tool schemas through verifiers' interception
  endpoint and executes the model's calls against the bound episode.
* :class:`ToolenvTask` is the rubric, read from the episode record the env leaves in
  ``trace.info["toolenv"]`` (so re-scoring a saved trace works too): ``task_accuracy``
  (weight 1), ``session_success`` and ``rl_return`` (weight 0: the RL plane's summed
  per-step reward, dense or sparse) as rewards; counts as metrics. Weights are verifiers
  config: ``--env.taskset.task.rewards.rl_return.weight 1``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

import verifiers.v1 as vf
from pydantic import ConfigDict, Field, PrivateAttr, model_validator

from clients.chat_episode import ChatEpisode, EpisodeRecord, EpisodeSpec
from env_server.generator import GeneratorSettings, scenario_id
from env_server.orchestrator import ScenarioSpec, load_scenarios
from env_server.rl import DEFAULT_MAX_EPISODE_STEPS, ResetOptions

TASKSET_ID = "toolenv"
INFO_KEY = "toolenv"


class ToolenvTaskData(vf.TaskData):
    """One scenario to play: ``ToolEnv.reset(seed, options)`` and how to reward it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    episode: EpisodeSpec = Field(description="The ToolEnv episode this row plays.")


class ToolenvState(vf.State):
    """The rollout's live episode, shared by the env (the user side) and the harness (the tools).

    Private: traces never serialize it; the record they keep is ``trace.info["toolenv"]``.
    """

    _episode: ChatEpisode | None = PrivateAttr(default=None)


def bind_episode(trace: Any, episode: ChatEpisode) -> None:
    state = trace.state
    if not isinstance(state, ToolenvState):
        raise vf.EnvError(f"a toolenv rollout needs ToolenvState, got {type(state).__name__}")
    state._episode = episode


def bound_episode(trace: Any) -> ChatEpisode:
    """The episode the env bound to ``trace``; HarnessError when there is none."""
    episode = getattr(trace.state, "_episode", None)
    if not isinstance(episode, ChatEpisode):
        raise vf.HarnessError("no toolenv episode on this trace: toolenv tasks play under the toolenv env "
                              "(leave --env.id unset)")
    return episode


def episode_record(trace: Any) -> EpisodeRecord | None:
    raw = trace.info.get(INFO_KEY)
    return EpisodeRecord.model_validate(raw) if raw is not None else None


class ToolenvTask(vf.Task[ToolenvTaskData, ToolenvState, vf.TaskConfig]):
    """A scenario's rubric: rewards and metrics over its episode record."""

    @vf.reward(weight=1.0)
    async def task_accuracy(self, trace: vf.Trace) -> float:
        """Share of the scenario's tasks labelled correct."""
        record = episode_record(trace)
        return record.task_accuracy if record else 0.0

    @vf.reward(weight=0.0)
    async def session_success(self, trace: vf.Trace) -> float:
        """1 when every task is correct (session accuracy), else 0."""
        record = episode_record(trace)
        return 1.0 if record and record.success else 0.0

    @vf.reward(weight=0.0)
    async def rl_return(self, trace: vf.Trace) -> float:
        """The RL plane's per-step rewards, summed (``ToolEnv`` dense or sparse)."""
        record = episode_record(trace)
        return record.total_reward if record else 0.0

    @vf.metric
    async def episode(self, trace: vf.Trace) -> dict[str, float]:
        record = episode_record(trace)
        if record is None:
            return {"tasks_correct": 0.0, "task_count": 0.0, "steps": 0.0, "tool_calls": 0.0,
                    "faults": 0.0, "truncated": 0.0}
        tool_steps = [s for s in record.steps if s.kind == "tools"]
        return {
            "tasks_correct": float(record.tasks_correct),
            "task_count": float(record.task_count),
            "steps": float(len(record.steps)),
            "tool_calls": float(sum(len(s.verdicts) for s in tool_steps)),
            "faults": float(sum(len(s.faults) for s in tool_steps)),
            "truncated": float(record.truncated),
        }


class ToolenvTasksetConfig(vf.TasksetConfig):
    """``--env.taskset.*``: which scenarios, and the episode settings every row gets."""

    id: str = TASKSET_ID
    source: Literal["builtin", "generated"] = "builtin"
    """Built-in scenarios, or scenarios made by the generator."""
    split: Literal["train", "test"] = "train"
    """Built-in split (the test split is the held-out evaluation set)."""
    scenario_ids: list[str] = Field(default_factory=list)
    """Built-in: only these scenarios (of the split), in this order."""
    seed: int = Field(0, ge=0)
    """Generated: the first generator seed."""
    count: int = Field(32, ge=1)
    """Generated: how many scenarios (seeds seed .. seed + count - 1)."""
    generator: GeneratorSettings = GeneratorSettings()
    """Generated: the generator's settings (families, task types, ...)."""
    world_seed: int | None = None
    """World seed for every row (default: each scenario's own)."""
    faults: str | dict[str, Any] | None = None
    """Seeded fault injection for every row: a profile (flaky, degraded) or fault options."""
    max_calls_per_task: int | None = None
    """The orchestrator's call budget per task (default: its own)."""
    reward: Literal["dense", "sparse"] = "dense"
    """The RL plane's per-step reward, summed as the rl_return reward."""
    max_steps: int = Field(DEFAULT_MAX_EPISODE_STEPS, ge=1)
    """Model actions per episode before it is truncated."""

    def reset_options(self, **source: Any) -> ResetOptions:
        """``ToolEnv.reset`` options of one row: ``source`` (its scenario) and the settings every row shares."""
        return ResetOptions(world_seed=self.world_seed, faults=self.faults, max_calls_per_task=self.max_calls_per_task,
                            **source)

    @model_validator(mode="after")
    def _check_episode_settings(self) -> ToolenvTasksetConfig:
        self.reset_options()  # a bad fault profile or world seed fails here, not at the first episode
        return self


class ToolenvTaskset(vf.Taskset[ToolenvTask, ToolenvTasksetConfig]):
    """Scenarios as verifiers tasks (see the module docstring)."""

    def load(self) -> Iterator[ToolenvTask]:
        config = self.config
        rows: list[tuple[str, str, int | None, ResetOptions]] = []
        if config.source == "generated":
            for generator_seed in range(config.seed, config.seed + config.count):
                name = scenario_id(generator_seed, config.generator)
                rows.append((name, name, generator_seed, config.reset_options(generator=config.generator)))
        else:
            for spec in self._scenarios():
                rows.append((spec.id, spec.title or spec.id, None, config.reset_options(scenario_id=spec.id)))
        for ident, name, reset_seed, options in rows:
            episode = EpisodeSpec(seed=reset_seed, options=options, reward=config.reward, max_steps=config.max_steps)
            yield ToolenvTask(ToolenvTaskData(id=ident, name=name, episode=episode), config.task)

    def _scenarios(self) -> list[ScenarioSpec]:
        config = self.config
        split = {s.id: s for s in load_scenarios().scenarios if s.split is not None and s.split.value == config.split}
        if not config.scenario_ids:
            return [split[i] for i in sorted(split)]
        unknown = [i for i in config.scenario_ids if i not in split]
        if unknown:
            raise vf.TaskError(f"not in the built-in {config.split} split: {', '.join(unknown)}")
        return [split[i] for i in config.scenario_ids]


class ToolenvEnvConfig(vf.SingleAgentEnvConfig):
    """One ``agent`` seat, as in a plain verifiers eval; its harness runs in process."""

    agent: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())


class ToolenvEnv(vf.Env[ToolenvEnvConfig]):
    """One scenario per episode; the orchestrator plays the user (see the module docstring)."""

    async def run(self, task: vf.Task, agents: vf.Agents) -> None:
        if not isinstance(task.data, ToolenvTaskData):
            raise vf.TaskError(f"the toolenv env plays toolenv tasks, not {type(task).__name__}")
        episode = ChatEpisode(task.data.episode)
        try:
            async with agents.agent.interaction(task) as chat:
                bind_episode(chat.trace, episode)
                try:
                    message: str | None = episode.messages[-1]["content"]  # the scenario's first request
                    while message is not None:
                        segment = await chat.turn(message)
                        message = None if segment.terminated else episode.next_user
                finally:
                    chat.trace.info[INFO_KEY] = episode.record.model_dump(mode="json")
        finally:
            episode.close()


def load_environment(**taskset: Any) -> ToolenvEnv:
    """The toolenv environment; keyword arguments are :class:`ToolenvTasksetConfig` fields.

    ``load_environment(source="generated", seed=7, count=4)`` equals
    ``verifiers.v1.load_environment`` of an env config whose taskset is ``{"id": "toolenv", ...}``.
    """
    config = ToolenvEnvConfig(taskset=ToolenvTasksetConfig(**{"id": TASKSET_ID, **taskset}))
    env = vf.load_environment(config)
    if not isinstance(env, ToolenvEnv):
        raise vf.EnvError(f"verifiers loaded {type(env).__name__} for {TASKSET_ID!r}; is the toolenv package importable?")
    return env
