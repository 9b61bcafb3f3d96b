"""The RL env over REST: an ``APIRouter`` included by ``env_server.app.build_app``.

* ``POST   /v1/envs``            ``{seed?, options?}`` -> ``{env_id, observation, info}`` (201)
* ``POST   /v1/envs/{id}/step``  ``{action}`` -> ``{observation, reward, terminated, truncated, info}``
* ``POST   /v1/envs/{id}/fork``  ``{n}`` -> ``{env_ids}`` (201)
* ``DELETE /v1/envs/{id}``       204

Observation, info and action are those of :class:`~env_server.rl.env.ToolEnv`.

Gold stays behind the admin token: every route of an env over an evaluation-split scenario
(``orchestrator.splits.is_test_split``: today every built-in or loaded scenario) needs
``Authorization: Bearer <admin token>`` (401 missing, 403 wrong), because its steps reveal
verdicts, rewards and success. A reset that may draw such a scenario (no ``scenario_id`` and no
``generator``) needs it too. Generated scenarios (``options.generator``) are open. In-process
``ToolEnv`` use needs no token: whoever holds the Python objects holds the gold anyway.
``ServerSettings.rl_plane=False`` (``toolenv serve --no-rl``) leaves this router out.

Errors: an unknown env is 404; stepping a finished episode is 409; a malformed action or reset
options are 422 with a message naming the field. Envs run on the server's ``ToolEnvironment``,
so their sessions are also visible under ``/v1/sessions/{info.session_id}``. Routes are
``async``, so they run on the event loop, serialized with the MCP handlers.
"""

from __future__ import annotations

import secrets
import threading
import weakref
from typing import Any

from fastapi import APIRouter, Header, HTTPException, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from env_server.environment import ToolEnvironment
from env_server.orchestrator.api import check_admin
from env_server.orchestrator.splits import is_test_split
from env_server.rl.env import ToolEnv
from env_server.rl.errors import ActionError, EpisodeFinishedError, OptionsError, ResetNeededError, UnknownEnvError
from env_server.rl.models import Action, ResetOptions, describe_errors
from env_server.rl.scenarios import ScenarioPool

PREFIX = "/v1/envs"
MAX_FORK = 64


class EnvCreateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seed: int | None = Field(default=None, description="Seeds the scenario draw; see ToolEnv.reset.")
    options: dict[str, Any] | None = Field(default=None, description="ResetOptions: scenario_id, world_seed, ...")


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


class ForkRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    n: int = Field(default=1, ge=1, le=MAX_FORK)


class ForkResult(BaseModel):
    env_ids: list[str]


class EnvRegistry:
    """Open envs of one ``ToolEnvironment`` by id (unguessable: holding one is the capability)."""

    def __init__(self, environment: ToolEnvironment) -> None:
        self.environment = environment
        self._envs: dict[str, ToolEnv] = {}
        self._lock = threading.Lock()

    def add(self, env: ToolEnv) -> str:
        env_id = f"env_{secrets.token_hex(16)}"
        with self._lock:
            self._envs[env_id] = env
        return env_id

    def get(self, env_id: str) -> ToolEnv:
        env = self._envs.get(env_id)
        if env is None:
            raise UnknownEnvError(f"unknown env '{env_id}'")
        return env

    def remove(self, env_id: str) -> None:
        with self._lock:
            env = self._envs.pop(env_id, None)
        if env is None:
            raise UnknownEnvError(f"unknown env '{env_id}'")
        env.close()

    def __len__(self) -> int:
        return len(self._envs)


_REGISTRIES: weakref.WeakKeyDictionary[ToolEnvironment, EnvRegistry] = weakref.WeakKeyDictionary()
_REGISTRIES_LOCK = threading.Lock()


def env_registry_for(environment: ToolEnvironment) -> EnvRegistry:
    with _REGISTRIES_LOCK:
        registry = _REGISTRIES.get(environment)
        if registry is None:
            registry = _REGISTRIES[environment] = EnvRegistry(environment)
        return registry


def reveals_gold(pool: ScenarioPool, options: ResetOptions) -> bool:
    """Whether a reset with ``options`` may play an evaluation-split scenario. Raises ``OptionsError``."""
    if options.generator is not None:
        return False
    if options.scenario_id is not None:
        return is_test_split(pool.entry(options.scenario_id).spec)
    return any(is_test_split(spec) for spec in pool.specs.values())  # a seeded draw may pick any


def build_env_router(environment: ToolEnvironment, registry: EnvRegistry | None = None) -> APIRouter:
    envs = registry or env_registry_for(environment)
    router = APIRouter(prefix=PREFIX, tags=["rl envs"])
    token_header = Header(default=None, description="'Bearer <admin token>'; needed for evaluation scenarios.")

    def guarded(env_id: str, authorization: str | None) -> ToolEnv:
        """The env, once the caller may see its gold (``UnknownEnvError``, or 401/403)."""
        env = envs.get(env_id)
        if is_test_split(env.scenario):
            check_admin(environment, authorization)
        return env

    @router.post("", status_code=201)
    async def create(body: EnvCreateRequest, authorization: str | None = token_header) -> EnvCreated:
        env = ToolEnv(environment)
        try:
            options = ResetOptions.model_validate(body.options or {})
            if reveals_gold(env.pool, options):
                check_admin(environment, authorization)
            observation, info = env.reset(seed=body.seed, options=options)
        except ValidationError as exc:
            raise HTTPException(422, "malformed reset options: " + describe_errors(exc)) from None
        except OptionsError as exc:
            raise HTTPException(422, str(exc)) from None
        return EnvCreated(env_id=envs.add(env), observation=dict(observation), info=dict(info))

    @router.post("/{env_id}/step")
    async def step(env_id: str, body: StepRequest, authorization: str | None = token_header) -> StepResult:
        try:
            env = guarded(env_id, authorization)
            action = Action.model_validate(body.action)
            observation, reward, terminated, truncated, info = env.step(action)
        except UnknownEnvError as exc:
            raise HTTPException(404, str(exc)) from None
        except ValidationError as exc:
            raise HTTPException(422, "malformed action: " + describe_errors(exc)) from None
        except ActionError as exc:
            raise HTTPException(422, str(exc)) from None
        except EpisodeFinishedError as exc:
            raise HTTPException(409, str(exc)) from None
        return StepResult(observation=dict(observation), reward=reward, terminated=terminated,
                          truncated=truncated, info=dict(info))

    @router.post("/{env_id}/fork", status_code=201)
    async def fork(env_id: str, body: ForkRequest | None = None, authorization: str | None = token_header
                   ) -> ForkResult:
        try:
            forks = guarded(env_id, authorization).fork((body or ForkRequest()).n)
        except UnknownEnvError as exc:
            raise HTTPException(404, str(exc)) from None
        except ResetNeededError as exc:  # pragma: no cover - envs are reset when created
            raise HTTPException(409, str(exc)) from None
        return ForkResult(env_ids=[envs.add(f) for f in forks])

    @router.delete("/{env_id}", status_code=204)
    async def delete(env_id: str, authorization: str | None = token_header) -> Response:
        try:
            guarded(env_id, authorization)
            envs.remove(env_id)
        except UnknownEnvError as exc:
            raise HTTPException(404, str(exc)) from None
        return Response(status_code=204)

    return router
