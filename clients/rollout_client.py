"""Async client of the ``/v1/envs`` REST API, for many envs at once.

::

    async with RolloutClient("http://127.0.0.1:8765", concurrency=64) as client:
        resets = await client.reset_many([{"seed": s} for s in range(256)])
        steps = await client.step_many([(r.env_id, policy(r.observation, r.info)) for r in resets])
        await client.close_many([r.env_id for r in resets])

* One ``httpx.AsyncClient`` (keep-alive connection pool sized to ``concurrency``) for every call;
  bodies are encoded and answers parsed with pydantic-core (``to_json``/``from_json``).
* ``*_many`` run at most ``concurrency`` requests at a time and return results in input order;
  the first failure is raised after the others finish (``return_exceptions=True`` returns them).
* Batches: ``reset_many`` and ``step_many`` use ``POST /v1/envs/batch/reset`` and
  ``/batch/step`` when the server has them (looked up once in its ``/openapi.json``), in
  requests of at most ``batch_size`` items (default: the server's ``--max-batch``); otherwise,
  or with ``batch=False``, one request per env. Both paths give the same results and errors.
* Timeouts: ``timeout`` seconds per request (connect, read, write and pool).
* Retries: up to ``retries`` more attempts with exponential backoff on 502/503/504 and on
  transport errors. A step is only retried when the request cannot have reached the server
  (connect errors and pool timeouts): replaying a step the server already ran would act twice.
* Admin token: envs over evaluation scenarios (every built-in one) need the server's admin
  token; pass ``admin_token`` or set ``TOOLENV_ADMIN_TOKEN``. Generated scenarios
  (``options={"generator": {...}}``) need none.
* Errors: 404 raises ``UnknownEnvError``, 409 ``EpisodeFinishedError``, 422 ``ActionError``
  (``OptionsError`` for reset), 401/403 ``AdminTokenError``, 429 ``TooManyEnvsError`` (the
  server's ``--max-envs``; not retried), anything else ``httpx.HTTPStatusError``.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import anyio
import httpx
from pydantic_core import from_json, to_json

from env_server.rl import (
    ActionError,
    AdminTokenError,
    EpisodeFinishedError,
    OptionsError,
    RolloutError,
    TooManyEnvsError,
    UnknownEnvError,
)

T = TypeVar("T")
TOKEN_ENV = "TOOLENV_ADMIN_TOKEN"
RETRY_STATUS = frozenset({502, 503, 504})
UNSENT_ERRORS = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
JSON_HEADERS = {"Content-Type": "application/json"}


@dataclass(frozen=True)
class EnvReset:
    env_id: str
    observation: dict[str, Any]
    info: dict[str, Any]


@dataclass(frozen=True)
class EnvStep:
    env_id: str
    observation: dict[str, Any]
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated


class RolloutClient:
    def __init__(
        self,
        base_url: str,
        *,
        concurrency: int = 32,
        timeout: float = 30.0,
        retries: int = 3,
        backoff_s: float = 0.05,
        transport: httpx.AsyncBaseTransport | None = None,
        admin_token: str | None = None,
        batch: bool | None = None,
        batch_size: int | None = None,
    ) -> None:
        """``admin_token`` defaults to ``$TOOLENV_ADMIN_TOKEN``; it is sent with every request.
        ``batch``: None uses the batch routes if the server has them, False never, True insists
        (``RuntimeError`` from ``*_many`` on a server without them)."""
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        if batch_size is not None and batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self.batch = batch
        self.batch_size = batch_size
        self._batch_limit: int | None = None  # items per batch request; 0: single routes
        self.base_url = base_url.rstrip("/")
        self.concurrency = concurrency
        self.retries = retries
        self.backoff_s = backoff_s
        token = admin_token if admin_token is not None else os.environ.get(TOKEN_ENV)
        self._http = httpx.AsyncClient(
            headers={"Authorization": f"Bearer {token}"} if token else None,
            base_url=self.base_url,
            timeout=httpx.Timeout(timeout),
            limits=httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency),
            transport=transport,
        )
        self._limit: anyio.Semaphore | None = None  # made on first use, inside the event loop

    async def __aenter__(self) -> RolloutClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # -- one env --------------------------------------------------------------------------

    async def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> EnvReset:
        body = {"seed": seed, "options": options}
        data = await self._send("POST", "/v1/envs", body, unprocessable=OptionsError, replay_safe=True)
        return EnvReset(data["env_id"], data["observation"], data["info"])

    async def step(self, env_id: str, action: dict[str, Any]) -> EnvStep:
        data = await self._send("POST", f"/v1/envs/{env_id}/step", {"action": action}, replay_safe=False)
        return EnvStep(env_id, data["observation"], float(data["reward"]), bool(data["terminated"]),
                       bool(data["truncated"]), data["info"])

    async def fork(self, env_id: str, n: int) -> list[str]:
        data = await self._send("POST", f"/v1/envs/{env_id}/fork", {"n": n}, replay_safe=True)
        return list(data["env_ids"])

    async def close_env(self, env_id: str) -> None:
        await self._send("DELETE", f"/v1/envs/{env_id}", None, replay_safe=True)

    # -- many envs ------------------------------------------------------------------------

    async def reset_many(self, requests: Sequence[dict[str, Any]], *, return_exceptions: bool = False) -> list[Any]:
        """One reset per ``{"seed"?, "options"?}``, in order."""
        if await self.batch_limit():
            items = [{"seed": r.get("seed"), "options": r.get("options")} for r in requests]
            return await self._batched("/v1/envs/batch/reset", items, _reset_of, return_exceptions)
        return await self._gather([partial(self.reset, r.get("seed"), r.get("options")) for r in requests],
                                  return_exceptions)

    async def step_many(self, steps: Sequence[tuple[str, dict[str, Any]]], *, return_exceptions: bool = False) -> list[Any]:
        """One step per ``(env_id, action)``, in order (give each env at most one action per batch)."""
        if await self.batch_limit():
            items = [{"env_id": env_id, "action": action} for env_id, action in steps]
            return await self._batched("/v1/envs/batch/step", items, _step_of, return_exceptions)
        return await self._gather([partial(self.step, *s) for s in steps], return_exceptions)

    async def batch_limit(self) -> int:
        """Items per batch request, 0 for one request per env; the server is asked once."""
        if self._batch_limit is None:
            served = 0 if self.batch is False else await self._served_batch_limit()
            if self.batch and not served:
                raise RuntimeError(f"{self.base_url} has no /v1/envs/batch routes (an older server?); "
                                   "use batch=None or batch=False")
            self._batch_limit = min(served, self.batch_size or served)
        return self._batch_limit

    async def _served_batch_limit(self) -> int:
        """The server's largest batch from its OpenAPI schema; 0 when it has no batch routes."""
        try:
            response = await self._http.get("/openapi.json")
            schema = response.json() if response.is_success else {}
            body = schema["components"]["schemas"]["BatchStepRequest"]["properties"]["items"]
            has_routes = {"/v1/envs/batch/reset", "/v1/envs/batch/step"} <= set(schema["paths"])
        except (httpx.TransportError, ValueError, KeyError, TypeError):
            return 0
        return int(body.get("maxItems", 1)) if has_routes else 0

    async def _batched(
        self, path: str, items: list[dict[str, Any]], decode: Callable[[dict[str, Any], dict[str, Any]], Any],
        return_exceptions: bool,
    ) -> list[Any]:
        size = await self.batch_limit()
        chunks = [items[k:k + size] for k in range(0, len(items), size)]
        replay_safe = path.endswith("/reset")  # as the single routes: a step is never sent twice

        async def send(chunk: list[dict[str, Any]]) -> list[Any]:
            data = await self._send("POST", path, {"items": chunk}, replay_safe=replay_safe)
            return [_outcome(item, outcome, decode) for item, outcome in zip(chunk, data["results"], strict=True)]

        answers = await self._gather([partial(send, chunk) for chunk in chunks], return_exceptions=True)
        results: list[Any] = []
        for chunk, answer in zip(chunks, answers, strict=True):
            results.extend(answer if isinstance(answer, list) else [answer] * len(chunk))
        if not return_exceptions:
            failed = next((r for r in results if isinstance(r, BaseException)), None)
            if failed is not None:
                raise failed
        return results

    async def close_many(self, env_ids: Sequence[str], *, return_exceptions: bool = False) -> list[Any]:
        return await self._gather([partial(self.close_env, e) for e in env_ids], return_exceptions)

    async def _gather(self, jobs: Sequence[Callable[[], Awaitable[T]]], return_exceptions: bool) -> list[Any]:
        results: list[Any] = [None] * len(jobs)

        async def run(k: int, job: Callable[[], Awaitable[T]]) -> None:
            try:
                results[k] = await job()
            except (RolloutError, httpx.HTTPError) as exc:
                results[k] = exc

        async with anyio.create_task_group() as group:
            for k, job in enumerate(jobs):
                group.start_soon(run, k, job)
        if not return_exceptions:
            failed = next((r for r in results if isinstance(r, BaseException)), None)
            if failed is not None:
                raise failed
        return results

    # -- transport ------------------------------------------------------------------------

    async def _send(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None,
        *,
        replay_safe: bool,
        unprocessable: type[RolloutError] = ActionError,
    ) -> dict[str, Any]:
        delay = self.backoff_s
        # pydantic-core encodes a batch body in a third of the stdlib's time and parses an answer in half.
        content = None if body is None else to_json(body)
        headers = None if body is None else JSON_HEADERS
        if self._limit is None:
            self._limit = anyio.Semaphore(self.concurrency)
        async with self._limit:
            for attempt in range(self.retries + 1):
                last = attempt == self.retries
                try:
                    response = await self._http.request(method, path, content=content, headers=headers)
                except UNSENT_ERRORS:
                    if last:
                        raise
                except httpx.TransportError:
                    if last or not replay_safe:
                        raise
                else:
                    if response.status_code not in RETRY_STATUS or last:
                        return _decode(response, unprocessable)
                await anyio.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")  # pragma: no cover


def _reset_of(item: dict[str, Any], result: dict[str, Any]) -> EnvReset:
    return EnvReset(result["env_id"], result["observation"], result["info"])


def _step_of(item: dict[str, Any], result: dict[str, Any]) -> EnvStep:
    return EnvStep(item["env_id"], result["observation"], float(result["reward"]), bool(result["terminated"]),
                   bool(result["truncated"]), result["info"])


def _outcome(
    item: dict[str, Any], outcome: dict[str, Any], decode: Callable[[dict[str, Any], dict[str, Any]], Any]
) -> Any:
    """One batch entry as the single route's client would give it: a result or the exception."""
    if outcome["result"] is not None:
        return decode(item, outcome["result"])
    detail = outcome["error"]["detail"]
    unprocessable = OptionsError if "env_id" not in item else ActionError
    error = _error_for(outcome["status"], detail if isinstance(detail, str) else str(detail), unprocessable)
    return error or RuntimeError(f"the server failed on this batch item ({outcome['status']}): {detail}")


def _error_for(status: int, detail: str, unprocessable: type[RolloutError]) -> RolloutError | None:
    if status in (401, 403):
        return AdminTokenError(detail)
    kinds: dict[int, type[RolloutError]] = {404: UnknownEnvError, 409: EpisodeFinishedError, 422: unprocessable,
                                            429: TooManyEnvsError}
    kind = kinds.get(status)
    return kind(detail) if kind else None


def _decode(response: httpx.Response, unprocessable: type[RolloutError]) -> dict[str, Any]:
    if response.status_code == 204:
        return {}
    if response.is_success:
        return dict(from_json(response.content))
    error = _error_for(response.status_code, _detail(response), unprocessable)
    if error is not None:
        raise error
    response.raise_for_status()
    raise AssertionError("unreachable")  # pragma: no cover


def _detail(response: httpx.Response) -> str:
    try:
        detail = response.json().get("detail")
    except ValueError:
        return response.text
    return detail if isinstance(detail, str) else str(detail)
