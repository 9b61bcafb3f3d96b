"""``ToolEnv``: a scenario session as a Gymnasium-style environment, in process.

::

    env = ToolEnv(reward="dense", max_steps=64)
    obs, info = env.reset(seed=0)                      # or options={"scenario_id": "flight_to_tokyo"}
    while True:
        action = policy(obs, info)                     # one assistant message (OpenAI chat format)
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

* ``reset(seed=None, options=None)``: ``seed`` re-seeds the env's generator; without
  ``options["scenario_id"]`` a scenario is drawn from it (so ``reset(seed=k)`` always gives the
  same scenario, and later ``reset()`` calls continue the seeded sequence). With
  ``options["generator"]`` (``GeneratorSettings`` fields, ``{}`` for the defaults) the episode
  plays a freshly generated scenario for generator seed ``seed`` (drawn from the env's
  generator when ``seed`` is None): the same seed and settings give the same scenario. Options:
  :class:`~env_server.rl.models.ResetOptions`.
* ``step(action)``: see ``models.py`` for the action, observation and info; ``rewards.py`` for
  the reward. ``terminated`` once every task of the scenario ended; ``truncated`` when the
  episode used ``max_steps`` actions first. Stepping a finished episode raises
  :class:`EpisodeFinishedError`; stepping before ``reset`` raises :class:`ResetNeededError`.
* ``fork(n)``: n independent envs sharing this episode's prefix (world state, call log,
  matcher and user state, history). They continue from here independently. A finished
  episode cannot be forked (:class:`EpisodeFinishedError`).

Determinism: given the seed (or scenario id) and the actions, observations, rewards, info and
state digests are identical (session ids excepted). An env is not thread-safe; use one per
thread or task. The world state lives in the shared ``ToolEnvironment``. The default
environment uses ``Durability.EPHEMERAL``: sessions, worlds and calls never touch DuckDB (no
call log is kept; ``env.session.entries`` holds the episode's calls). With
``Durability.DEFERRED`` queued writes are flushed every ``flush_every`` resets.

Speed: each step grades only the newest matcher record (``judging.TaskJudge``), and the state
digest in ``info`` is memoized by the world until a row changes, so it is computed only after
steps that changed state.

Memory: ``close()`` (or ``reset()``) releases the session's world, view, call hook, record and
call-log counter from the environment; ``env.environment.held_counts()`` shows what is held.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Sequence
from typing import Any

from env_server.environment import ToolEnvironment
from env_server.faults import parse_faults
from env_server.orchestrator.live import STEP_META_KEY, ScenarioSession
from env_server.orchestrator.loading import ScenarioLoad
from env_server.orchestrator.models import ScenarioSpec
from env_server.orchestrator.reports import TurnKind
from env_server.rl.errors import EpisodeFinishedError, ResetNeededError
from env_server.rl.judging import CallVerdict, StepJudgement, TaskJudge, predicted_step
from env_server.rl.models import (
    Action,
    Observation,
    ResetOptions,
    StepInfo,
    ToolCall,
    parse_action,
    parse_arguments,
    parse_options,
)
from env_server.rl.rewards import RewardFn, resolve_reward
from env_server.rl.scenarios import ScenarioEntry, ScenarioPool
from env_server.scoring import GoldSession, PredictedCall, PredictedStep
from env_server.session_types import UnknownToolError

DEFAULT_MAX_EPISODE_STEPS = 64
DEFAULT_FLUSH_EVERY = 64


class ToolEnv:
    """One episode at a time over one ``ToolEnvironment`` (see the module docstring)."""

    def __init__(
        self,
        environment: ToolEnvironment | None = None,
        *,
        reward: str | RewardFn = "dense",
        max_steps: int = DEFAULT_MAX_EPISODE_STEPS,
        scenarios: ScenarioLoad | Sequence[ScenarioSpec] | Sequence[str] | None = None,
        max_calls_per_task: int | None = None,
        flush_every: int = DEFAULT_FLUSH_EVERY,
        wait_on_faults: bool = True,
    ) -> None:
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        self.environment = environment or default_environment()
        self.pool = _pool_for(self.environment, scenarios)
        self.reward_fn = resolve_reward(reward)
        self.max_steps = max_steps
        self.max_calls_per_task = max_calls_per_task
        self.flush_every = flush_every
        # A timeout fault answers after its slow_ms: step() sleeps that long, or (False) only
        # reports it in ``fault_delay_s`` for an async caller to await (the REST plane does).
        self.wait_on_faults = wait_on_faults
        self.fault_delay_s = 0.0
        self.session: ScenarioSession | None = None
        self.entry: ScenarioEntry | None = None
        self.episode_step = 0
        self.terminated = False
        self.truncated = False
        self.tasks_correct = 0
        self.history: list[tuple[int, Action]] = []  # (task index, action) of this episode
        self._steps: list[list[PredictedStep]] = []  # per task: the steps the matcher saw
        self._judges: list[TaskJudge] = []  # per task: the incremental argument pass
        self._rng: random.Random | None = None
        self._resets = 0

    # -- Gymnasium API --------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: ResetOptions | dict[str, Any] | None = None
    ) -> tuple[Observation, StepInfo]:
        opts = parse_options(options)
        if seed is not None:
            self._rng = random.Random(seed)
        elif self._rng is None:
            self._rng = random.Random(secrets.randbits(64))
        if opts.generator is not None:
            generator_seed = seed if seed is not None else self._rng.randrange(2**31)
            entry = self.pool.generated(generator_seed, opts.generator)
        else:
            scenario_id = opts.scenario_id or self.pool.ids[self._rng.randrange(len(self.pool.ids))]
            entry = self.pool.entry(scenario_id)  # raises before the current episode is dropped
        self._release()
        session = self.pool.open(entry, world_seed=opts.world_seed,
                                 max_calls=opts.max_calls_per_task or self.max_calls_per_task,
                                 faults=parse_faults(opts.faults) if opts.faults is not None else None)
        turn = session.start()
        self.session, self.entry = session, entry
        self.episode_step, self.tasks_correct = 0, 0
        self.terminated = self.truncated = False
        self.history = []
        self._steps = [[] for _ in session.tasks]
        self._judges = [TaskJudge(t.gold) for t in session.tasks]
        self._resets += 1
        if self.flush_every and self._resets % self.flush_every == 0:
            self.environment.flush()
        messages = [{"role": "system", "content": f"Current Date: {entry.spec.env_info}"},
                    {"role": "user", "content": turn.content or ""}]
        return {"messages": messages, "tools": list(entry.tools)}, self._info(TurnKind.TASK.value, None, [])

    def step(self, action: Action | dict[str, Any]) -> tuple[Observation, float, bool, bool, StepInfo]:
        session = self._session()
        self._check_running("call reset() to start a new one")
        act = parse_action(action)
        task = session.current
        self.episode_step += 1
        errors: list[str] = []
        faults: list[str] = []
        user_turn: str | None = None
        if act.tool_calls:
            messages, judgement = self._run_calls(session, act, errors, faults)
        else:
            self.history.append((task.index, act))
            turn = session.reply(act.content or "")
            self._steps[task.index].append(predicted_step(act))
            judgement = self._judges[task.index].judge_last(task.index, task.matcher, self._steps[task.index],
                                                            ended=task.ended)
            messages = [] if turn.content is None else [{"role": "user", "content": turn.content}]
            user_turn = turn.kind.value
            if task.ended and not judgement.task_correct:
                reason = session.result().tasks[task.index].reason
                errors.append(f"task {task.index} failed: {reason or 'not answered correctly'}")
        if judgement.task_ended and judgement.task_correct:
            self.tasks_correct += 1
        self.terminated = session.done
        self.truncated = not self.terminated and self.episode_step >= self.max_steps
        reward = float(self.reward_fn(judgement))
        info = self._info(user_turn, judgement, errors)
        info["faults"] = faults
        return {"messages": messages, "tools": None}, reward, self.terminated, self.truncated, info

    def close(self) -> None:
        """Release the current episode's in-memory state from the environment (idempotent).

        Its records stay in the database unless the environment is ephemeral.
        """
        self._release()
        self.entry = None

    def __enter__(self) -> ToolEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- fork -----------------------------------------------------------------------------

    def fork(self, n: int) -> list[ToolEnv]:
        """``n`` independent envs that continue this episode from its current prefix."""
        session = self._session()
        if n < 1:
            raise ValueError("fork(n) needs n >= 1")
        self._check_running("fork before the last step, or reset() to start a new one")
        return [self._copy_with(self.pool.fork(session)) for _ in range(n)]

    def _copy_with(self, session: ScenarioSession) -> ToolEnv:
        clone = ToolEnv.__new__(ToolEnv)
        clone.__dict__.update(self.__dict__)
        clone.session = session
        clone.history = list(self.history)
        clone._steps = [list(s) for s in self._steps]
        clone._judges = [j.copy() for j in self._judges]
        clone._rng = random.Random()
        if self._rng is not None:
            clone._rng.setstate(self._rng.getstate())
        clone._resets = 0
        return clone

    # -- views ----------------------------------------------------------------------------

    @property
    def scenario(self) -> ScenarioSpec:
        return self._entry().spec

    @property
    def gold(self) -> GoldSession:
        return self._entry().gold

    @property
    def task_index(self) -> int:
        return self._session().task_index

    def actions_per_task(self) -> list[list[Action]]:
        """This episode's actions grouped by task (the input of ``judging.score_rollout``)."""
        out: list[list[Action]] = [[] for _ in self._steps]
        for index, action in self.history:
            out[index].append(action)
        return out

    # -- internals ------------------------------------------------------------------------

    def _session(self) -> ScenarioSession:
        if self.session is None:
            raise ResetNeededError("call reset() before step() or fork()")
        return self.session

    def _entry(self) -> ScenarioEntry:
        if self.entry is None:
            raise ResetNeededError("call reset() first")
        return self.entry

    def _check_running(self, advice: str) -> None:
        if self.terminated or self.truncated:
            why = "terminated (every task ended)" if self.terminated else f"truncated after {self.max_steps} steps"
            raise EpisodeFinishedError(f"the episode is over: it {why}; {advice}")

    def _release(self) -> None:
        if self.session is not None:
            self.pool.release(self.session)
            self.session = None

    def _run_calls(
        self, session: ScenarioSession, act: Action, errors: list[str], faults: list[str]
    ) -> tuple[list[dict[str, Any]], StepJudgement]:
        """Run the action's calls as one step. A refused call is ``redundant`` and a faulted one
        ``fault``; neither reaches the matcher, and a faulted one is left out of ``history``."""
        task = session.current
        meta = {STEP_META_KEY: f"rl-{self.episode_step}"}
        messages: list[dict[str, Any]] = []
        accepted: list[PredictedCall] = []
        kept: list[ToolCall] = []
        skipped: list[CallVerdict | None] = []  # per call: the verdict of a call the matcher never sees
        delay_ms = 0
        for k, call in enumerate(act.tool_calls or ()):
            name, arguments = call.function.name, parse_arguments(call.function.arguments)
            text, verdict, delay = self._run_call(session, name, arguments, meta, errors, faults)
            delay_ms += delay
            skipped.append(verdict)
            if verdict is None:
                accepted.append(PredictedCall.of(name, arguments))
            if verdict is not CallVerdict.FAULT:
                kept.append(call)
            messages.append({"role": "tool", "tool_call_id": call.id or f"call_{self.episode_step}_{k}", "content": text})
        session.end_step()
        self._wait(delay_ms)
        if kept:
            self.history.append((task.index, act if len(kept) == len(skipped) else act.model_copy(
                update={"tool_calls": kept})))
        if not accepted:
            return messages, StepJudgement(task.index, None, tuple(v or CallVerdict.REDUNDANT for v in skipped))
        self._steps[task.index].append(PredictedStep(calls=tuple(accepted)))
        judged = self._judges[task.index].judge_last(task.index, task.matcher, self._steps[task.index], ended=False)
        if any(v is not None for v in skipped):
            it = iter(judged.verdicts)
            verdicts = tuple(v if v is not None else next(it) for v in skipped)
            judged = StepJudgement(task.index, judged.status, verdicts)
        return messages, judged

    def _run_call(
        self, session: ScenarioSession, name: str, arguments: dict[str, Any], meta: dict[str, Any],
        errors: list[str], faults: list[str],
    ) -> tuple[str, CallVerdict | None, int]:
        """Run one call: its tool message text, the verdict of a call the matcher never sees
        (``fault``, or ``redundant`` when refused; None otherwise) and a timeout fault's delay."""
        verdict: CallVerdict | None = None
        delay_ms = 0
        try:
            outcome = self.environment.call_tool(session.session_id, name, arguments, meta)
            text = (outcome.message or "") if outcome.is_error else outcome.result_text()
            if outcome.is_error:
                errors.append(f"{name}: {text}")
            if outcome.fault is not None:
                verdict, delay_ms = CallVerdict.FAULT, outcome.fault.delay_ms
                faults.append(outcome.fault.code.value)
        except UnknownToolError as exc:  # the agent's mistake: an observation, as over MCP
            text = str(exc)
            errors.append(f"{name}: {text}")
        if verdict is None and session.entries and session.entries[-1].refused:
            verdict = CallVerdict.REDUNDANT
        return text, verdict, delay_ms

    def _wait(self, delay_ms: int) -> None:
        """Let timeout faults take their time (see ``wait_on_faults``)."""
        self.fault_delay_s = delay_ms / 1000
        if self.wait_on_faults and delay_ms:
            time.sleep(self.fault_delay_s)

    def _info(self, user_turn: str | None, judgement: StepJudgement | None, errors: list[str]) -> StepInfo:
        session = self._session()
        info: StepInfo = {
            "scenario_id": session.spec.id,
            "session_id": session.session_id,
            "task_index": session.task_index,
            "task_count": len(session.tasks),
            "episode_step": self.episode_step,
            "user_turn": user_turn,
            "errors": errors,
            "tasks_correct": self.tasks_correct,
            "success": session.done and self.tasks_correct == len(session.tasks),
            "state_digest": self.environment.state_digest(session.session_id),
        }
        if judgement is not None:
            info["judgement"] = judgement.as_info()
        return info


# -- shared defaults ------------------------------------------------------------------------

_DEFAULT: ToolEnvironment | None = None
_DEFAULT_LOCK = threading.Lock()


def default_environment() -> ToolEnvironment:
    """One process-wide environment over the built-in catalog, in memory, ``Durability.EPHEMERAL``."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            from env_server.catalog import load_catalog
            from env_server.config import ServerSettings
            from state import Database
            from state.store import Durability

            _DEFAULT = ToolEnvironment(load_catalog(), Database(), ServerSettings(durability=Durability.EPHEMERAL))
        return _DEFAULT


def _pool_for(
    environment: ToolEnvironment, scenarios: ScenarioLoad | Sequence[ScenarioSpec] | Sequence[str] | None
) -> ScenarioPool:
    if scenarios is None:
        pool: ScenarioPool = environment.owned.get("rl_scenario_pool", lambda: ScenarioPool(environment))
        return pool
    if isinstance(scenarios, ScenarioLoad):
        return ScenarioPool(environment, scenarios)
    items = list(scenarios)
    if all(isinstance(s, str) for s in items):
        base = _pool_for(environment, None)
        return ScenarioPool(environment, [base.entry(str(s)).spec for s in items])
    return ScenarioPool(environment, [s for s in items if isinstance(s, ScenarioSpec)])
