"""One env operation of the ``/v1/envs`` plane, shared by the single and the batch routes.

:class:`EnvOps` creates and steps envs of an :class:`~env_server.rl.api.EnvRegistry` and checks
the admin token where gold is at stake; :func:`http_error` says which status each failure
answers with. Both run inside the registry's worker thread, never on the event loop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import HTTPException
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from env_server.environment import ToolEnvironment
from env_server.orchestrator.api import check_admin
from env_server.orchestrator.splits import is_test_split
from env_server.rest_contract import Seed
from env_server.rl.env import ToolEnv
from env_server.rl.errors import (
    ActionError,
    EpisodeFinishedError,
    OptionsError,
    ResetNeededError,
    RolloutError,
    TooManyEnvsError,
    UnknownEnvError,
)
from env_server.rl.models import ResetOptions, describe_errors, parse_action
from env_server.rl.scenarios import ScenarioPool

if TYPE_CHECKING:
    from env_server.rl.api import EnvRegistry

# The status each misuse answers with, most specific first.
_STATUS: tuple[tuple[type[RolloutError], int], ...] = (
    (UnknownEnvError, 404), (EpisodeFinishedError, 409), (ResetNeededError, 409), (ActionError, 422),
    (OptionsError, 422), (TooManyEnvsError, 429),
)


class EnvCreateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seed: Seed | None = Field(default=None, description="Seeds the scenario draw; see ToolEnv.reset.")
    options: ResetOptions | None = Field(default=None,
                                         description="Reset options: scenario_id or generator, world_seed, ...")


class EnvCreated(BaseModel):
    env_id: str
    observation: dict[str, Any]
    info: dict[str, Any]


class StepRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: dict[str, Any] = Field(description="One assistant message in OpenAI chat format.")


class StepResult(BaseModel):
    observation: dict[str, Any]
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]


def reveals_gold(pool: ScenarioPool, options: ResetOptions) -> bool:
    """Whether a reset with ``options`` may play an evaluation-split scenario. Raises ``OptionsError``."""
    if options.generator is not None:
        return False
    if options.scenario_id is not None:
        return is_test_split(pool.entry(options.scenario_id).spec)
    return any(is_test_split(spec) for spec in pool.specs.values())  # a seeded draw may pick any


def http_error(exc: RolloutError | HTTPException) -> HTTPException:
    """The HTTP answer to ``exc``: an admin-token refusal as it is, a misuse by its ``_STATUS``."""
    if isinstance(exc, HTTPException):
        return exc
    status = next((code for kind, code in _STATUS if isinstance(exc, kind)), 422)
    return HTTPException(status, str(exc))


class EnvOps:
    """Create, find and step envs of one registry; call only inside ``EnvRegistry.run``."""

    def __init__(self, environment: ToolEnvironment, envs: EnvRegistry) -> None:
        self.environment = environment
        self.envs = envs

    def guarded(self, env_id: str, authorization: str) -> ToolEnv:
        """The env, once the caller may see its gold (``UnknownEnvError``, or 401/403)."""
        env = self.envs.get(env_id)
        if is_test_split(env.scenario):
            check_admin(self.environment, authorization)
        return env

    def create(self, body: EnvCreateRequest, authorization: str) -> EnvCreated:
        env = ToolEnv(self.environment, wait_on_faults=False)  # the route awaits timeout faults off the worker
        options = body.options or ResetOptions()
        if reveals_gold(env.pool, options):
            check_admin(self.environment, authorization)
        self.envs.ensure_room(1)
        try:
            observation, info = env.reset(seed=body.seed, options=options)
        except ValidationError as exc:  # e.g. generator settings the catalog cannot satisfy
            raise OptionsError("malformed reset options: " + describe_errors(exc)) from None
        return EnvCreated(env_id=self.envs.add(env), observation=dict(observation), info=dict(info))

    def step_timed(self, env_id: str, action: dict[str, Any], authorization: str) -> tuple[dict[str, Any], float]:
        """The step as ``StepResult``'s fields in a plain dict (the batch route encodes many at once),
        and the seconds a timeout fault asks the answer to wait (the caller awaits them off the worker)."""
        env = self.guarded(env_id, authorization)
        observation, reward, terminated, truncated, info = env.step(parse_action(action))
        fields = {"observation": observation, "reward": reward, "terminated": terminated, "truncated": truncated,
                  "info": info}
        return fields, env.fault_delay_s
