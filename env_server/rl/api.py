"""The RL env over REST: an ``APIRouter`` included by ``env_server.app.build_app``.

* ``POST   /v1/envs``            ``{seed?, options?}`` -> ``{env_id, observation, info}`` (201)
* ``POST   /v1/envs/{id}/step``  ``{action}`` -> ``{observation, reward, terminated, truncated, info}``
* ``POST   /v1/envs/{id}/fork``  ``{n}`` -> ``{env_ids}`` (201)
* ``DELETE /v1/envs/{id}``       204
* ``POST   /v1/envs/batch/reset`` and ``/v1/envs/batch/step``: many of the above in one request
  (``batch.py``), with an answer per item

Observation, info and action are those of :class:`~env_server.rl.env.ToolEnv`. Errors: an
unknown env is 404; stepping or forking a finished episode is 409; a malformed action or reset
options are 422 with a message naming the field; a create or fork past ``settings.max_envs``
open envs is 429. An env no request used for ``settings.env_idle_timeout`` seconds is freed
(checked whenever the registry is used) and then answers 404. Envs run on the server's
``ToolEnvironment``, so their sessions are also visible under ``/v1/sessions/{info.session_id}``
(read them there; drive them only here).

Gold stays behind the admin token: every route of an env over an evaluation-split scenario
(``orchestrator.splits.is_test_split``: today every built-in or loaded scenario) needs
``Authorization: Bearer <admin token>`` (401 missing, 403 wrong), because its steps reveal
verdicts, rewards and success. A reset that may draw such a scenario (no ``scenario_id`` and no
``generator``) needs it too. Generated scenarios (``options.generator``) are open. In-process
``ToolEnv`` use needs no token: whoever holds the Python objects holds the gold anyway.
``ServerSettings.rl_plane=False`` (``toolenv serve --no-rl``) leaves this router out.

Env work (reset, step, fork, close; a whole batch) runs in a worker thread, one operation at a time
(``EnvRegistry.run``): a fork of 64 or a freshly generated scenario takes tens to hundreds of
milliseconds, and the event loop keeps serving MCP and the other routes meanwhile. The
environment is safe for that: its shared tables are guarded by locks or touched with single
dict operations, DuckDB gets a cursor per thread, and a session is only ever driven by its env.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, TypeVar

import anyio
from fastapi import APIRouter, Body, Header, Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from env_server.environment import ToolEnvironment
from env_server.rest_contract import error_responses, json_integer
from env_server.rl.batch import build_batch_router
from env_server.rl.env import ToolEnv
from env_server.rl.errors import RolloutError, TooManyEnvsError, UnknownEnvError
from env_server.rl.http_ops import (
    EnvCreated,
    EnvCreateRequest,
    EnvOps,
    StepRequest,
    StepResult,
    http_error,
)

PREFIX = "/v1/envs"
MAX_FORK = 64
T = TypeVar("T")


class ForkRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    n: Annotated[int, Field(ge=1, le=MAX_FORK), BeforeValidator(json_integer)] = 1


# An optional body: none means the defaults; JSON null is not a body.
_OPTIONAL_FORK_BODY = Body(default_factory=ForkRequest)


class ForkResult(BaseModel):
    env_ids: list[str]


class EnvRegistry:
    """Open envs of one ``ToolEnvironment`` by id (unguessable: holding one is the capability).

    Bounded by ``settings.max_envs`` (:class:`TooManyEnvsError` past it) and
    ``settings.env_idle_timeout``: an env no request touched for that many seconds (by
    ``clock``) is closed the next time the registry is used. ``run`` executes env work in a
    worker thread, one operation at a time per registry, so the event loop stays free.
    """

    def __init__(self, environment: ToolEnvironment, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.environment = environment
        self.max_envs = environment.settings.max_envs
        self.idle_timeout = environment.settings.env_idle_timeout
        self.clock = clock
        self._envs: OrderedDict[str, _Slot] = OrderedDict()  # least recently touched first
        self._lock = threading.Lock()
        # One worker at a time: envs and their sessions are not thread-safe, and requests
        # waiting their turn wait on the event loop, not in a parked thread.
        self._limiter = anyio.CapacityLimiter(1)

    async def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` (env operations) off the event loop, after every earlier ``run``."""
        return await anyio.to_thread.run_sync(work, limiter=self._limiter)

    def add(self, env: ToolEnv) -> str:
        """Register ``env``; closes it and raises ``TooManyEnvsError`` when full."""
        return self.add_all([env])[0]

    def add_all(self, envs: list[ToolEnv]) -> list[str]:
        """Register ``envs`` (all or none); closes them and raises ``TooManyEnvsError`` when full."""
        with self._lock:
            self._sweep()
            if len(self._envs) + len(envs) > self.max_envs:
                for env in envs:
                    env.close()
                raise self._full(len(envs))
            now = self.clock()
            ids = []
            for env in envs:
                env_id = f"env_{secrets.token_hex(16)}"
                self._envs[env_id] = _Slot(env, now)
                ids.append(env_id)
            return ids

    def ensure_room(self, n: int) -> None:
        """Raise ``TooManyEnvsError`` now if ``n`` more envs would not fit (before building them)."""
        with self._lock:
            self._sweep()
            if len(self._envs) + n > self.max_envs:
                raise self._full(n)

    def get(self, env_id: str) -> ToolEnv:
        """The env, marked as used now."""
        with self._lock:
            self._sweep()
            slot = self._envs.get(env_id)
            if slot is None:
                raise self._unknown(env_id)
            slot.touched = self.clock()
            self._envs.move_to_end(env_id)
            return slot.env

    def remove(self, env_id: str) -> None:
        with self._lock:
            slot = self._envs.pop(env_id, None)
        if slot is None:
            raise self._unknown(env_id)
        slot.env.close()

    def sweep(self) -> int:
        """Close the envs idle past the timeout; returns how many."""
        with self._lock:
            return self._sweep()

    def __len__(self) -> int:
        return len(self._envs)

    def _sweep(self) -> int:
        deadline = self.clock() - self.idle_timeout
        expired = 0
        while self._envs:
            env_id, slot = next(iter(self._envs.items()))
            if slot.touched > deadline:
                break
            del self._envs[env_id]
            slot.env.close()
            expired += 1
        return expired

    def _full(self, wanted: int) -> TooManyEnvsError:
        return TooManyEnvsError(
            f"too many open envs: {len(self._envs)} of {self.max_envs} (--max-envs) are open and {wanted} more "
            f"were asked for; DELETE /v1/envs/{{id}} the envs you are done with (idle ones are freed after "
            f"{self.idle_timeout:g} s, --env-idle-timeout)")

    def _unknown(self, env_id: str) -> UnknownEnvError:
        return UnknownEnvError(f"unknown env '{env_id}' (envs are freed after {self.idle_timeout:g} s without a "
                               "request)")


@dataclass
class _Slot:
    env: ToolEnv
    touched: float  # clock() of the last request that used the env


def env_registry_for(environment: ToolEnvironment, *, clock: Callable[[], float] | None = None) -> EnvRegistry:
    """The registry bound to ``environment``, created on first use (``clock`` only applies then)
    and kept by ``environment``."""
    return environment.owned.get("rl_envs", lambda: EnvRegistry(environment, clock=clock or time.monotonic))


def build_env_router(environment: ToolEnvironment, registry: EnvRegistry | None = None) -> APIRouter:
    envs = registry or env_registry_for(environment)
    ops = EnvOps(environment, envs)
    router = APIRouter(prefix=PREFIX, tags=["rl envs"])
    # Before the per-env routes: "/batch/step" would otherwise match "/{env_id}/step".
    router.include_router(build_batch_router(ops, environment.settings.max_batch))
    token_header = Header(default="", description="'Bearer <admin token>'; needed for evaluation scenarios.")

    @router.post("", status_code=201, responses=error_responses(401, 404, 422, 429))
    async def create(body: EnvCreateRequest, authorization: str = token_header) -> EnvCreated:
        try:
            return await envs.run(lambda: ops.create(body, authorization))
        except RolloutError as exc:
            raise http_error(exc) from None

    @router.post("/{env_id}/step", responses=error_responses(401, 404, 409, 422))
    async def step(env_id: str, body: StepRequest, authorization: str = token_header) -> StepResult:
        try:
            result, delay_s = await envs.run(lambda: ops.step_timed(env_id, body.action, authorization))
        except RolloutError as exc:
            raise http_error(exc) from None
        if delay_s:  # a timeout fault answers late, without holding the env worker
            await anyio.sleep(delay_s)
        return StepResult(**result)

    @router.post("/{env_id}/fork", status_code=201, responses=error_responses(401, 404, 409, 429))
    async def fork(env_id: str, body: ForkRequest = _OPTIONAL_FORK_BODY, authorization: str = token_header
                   ) -> ForkResult:
        n = body.n

        def work() -> ForkResult:
            env = ops.guarded(env_id, authorization)
            envs.ensure_room(n)
            return ForkResult(env_ids=envs.add_all(env.fork(n)))

        try:
            return await envs.run(work)
        except RolloutError as exc:
            raise http_error(exc) from None

    @router.delete("/{env_id}", status_code=204, responses=error_responses(401, 404))
    async def delete(env_id: str, authorization: str = token_header) -> Response:
        def work() -> None:
            ops.guarded(env_id, authorization)
            envs.remove(env_id)

        try:
            await envs.run(work)
        except RolloutError as exc:
            raise http_error(exc) from None
        return Response(status_code=204)

    return router
