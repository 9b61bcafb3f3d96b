"""Batched env routes: many resets or steps in one request, for trainers with thousands of rollouts.

* ``POST /v1/envs/batch/reset`` ``{"items": [{seed?, options?}, ...]}``: one new env per item,
  each as ``POST /v1/envs`` takes it.
* ``POST /v1/envs/batch/step`` ``{"items": [{env_id, action}, ...]}``: one step per item, as
  ``POST /v1/envs/{env_id}/step`` takes it.

Both answer 200 ``{"results": [...]}``, one entry per item in item order: ``{"status", "result",
"error"}``. ``status`` is what the single route would have answered (201 or 200 with ``result``;
else 401, 403, 404, 409, 422 or 429 with ``error``, the single route's ``{"detail": ...}``), so
one unknown env, malformed action, finished episode or missing token never fails the batch.
Items run in order, so an env named twice takes both steps in turn. A body that fails its schema
(an item without ``env_id``, malformed reset options, more than ``settings.max_batch`` items) is
refused whole with 422, as any malformed body is.

A batch is one unit of env work: it runs in the registry's worker thread (``EnvRegistry.run``),
answer encoding included, so the event loop serves MCP, ``/v1/health`` and the other routes
meanwhile; single env requests wait for the batch to finish.
"""

# No ``from __future__ import annotations``: FastAPI reads the route signatures, whose body
# models are built per router (their size limit is a setting), as live objects.
import logging
from collections.abc import Callable, Sequence
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import APIRouter, Header, HTTPException, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import to_json

from env_server.rest_contract import ErrorBody, error_responses
from env_server.rl.errors import RolloutError
from env_server.rl.http_ops import EnvCreated, EnvCreateRequest, EnvOps, StepResult, http_error

logger = logging.getLogger(__name__)
T = TypeVar("T")  # an item model


class BatchStepItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    env_id: str = Field(description="The env to step (from POST /v1/envs or a fork).")
    action: dict[str, Any] = Field(description="One assistant message in OpenAI chat format.")


class ResetOutcome(BaseModel):
    status: int = Field(description="What POST /v1/envs would have answered: 201, or 401/403/404/422/429.")
    result: EnvCreated | None = Field(default=None, description="The new env, when status is 201.")
    error: ErrorBody | None = Field(default=None, description="Why the item failed, when status is not 201.")


class StepOutcome(BaseModel):
    status: int = Field(description="What POST /v1/envs/{env_id}/step would have answered: 200, or 401/403/404/409/422.")
    result: StepResult | None = Field(default=None, description="The step, when status is 200.")
    error: ErrorBody | None = Field(default=None, description="Why the item failed, when status is not 200.")


class BatchResetResult(BaseModel):
    results: list[ResetOutcome] = Field(description="One outcome per item, in item order.")


class BatchStepResult(BaseModel):
    results: list[StepOutcome] = Field(description="One outcome per item, in item order.")


def attempt(work: Callable[[], dict[str, Any]], ok: int) -> dict[str, Any]:
    """One item's outcome (``ResetOutcome`` / ``StepOutcome`` fields); never raises."""
    try:
        return {"status": ok, "result": work(), "error": None}
    except (RolloutError, HTTPException) as exc:
        refused = http_error(exc)
        return {"status": refused.status_code, "result": None, "error": {"detail": refused.detail}}
    except Exception:  # our own failure on one item: the others already ran and must be answered
        logger.exception("batch item failed")
        return {"status": 500, "result": None, "error": {"detail": "internal error on this item; see the server log"}}


def reset_all(ops: EnvOps, items: Sequence[EnvCreateRequest], authorization: str) -> bytes:
    """``BatchResetResult`` as JSON."""
    outcomes = [attempt(lambda: ops.create(item, authorization).model_dump(), 201)  # noqa: B023 (called at once)
                for item in items]
    return to_json({"results": outcomes})


def step_all(ops: EnvOps, items: Sequence[BatchStepItem], authorization: str) -> tuple[bytes, float]:
    """``BatchStepResult`` as JSON: plain dicts through pydantic-core's encoder, about three times
    faster than building the result models (observations and infos are most of the bytes); and the
    longest wait a timeout fault among the items asks for (the batch answers once, after it)."""
    delays = [0.0]

    def one(item: BatchStepItem) -> dict[str, Any]:
        fields, delay_s = ops.step_timed(item.env_id, item.action, authorization)
        delays.append(delay_s)
        return fields

    outcomes = [attempt(lambda: one(item), 200) for item in items]  # noqa: B023 (called at once)
    return to_json({"results": outcomes}), max(delays)


def build_batch_router(ops: EnvOps, max_items: int) -> APIRouter:
    """The two batch routes, taking at most ``max_items`` items a request (``settings.max_batch``)."""
    router = APIRouter(prefix="/batch")
    token_header = Header(default="", description="'Bearer <admin token>'; needed for items over evaluation scenarios.")
    envs = ops.envs

    def within_limit(items: list[T]) -> list[T]:
        if len(items) > max_items:
            raise ValueError(f"a batch takes at most {max_items} items (the server's --max-batch) and this one has "
                             f"{len(items)}: split it")
        return items

    limit = {"maxItems": max_items}

    class BatchResetRequest(BaseModel):
        model_config = ConfigDict(extra="forbid")

        items: Annotated[list[EnvCreateRequest], AfterValidator(within_limit), Field(
            json_schema_extra=limit, description="One reset per item, each as POST /v1/envs takes it.")]

    class BatchStepRequest(BaseModel):
        model_config = ConfigDict(extra="forbid")

        items: Annotated[list[BatchStepItem], AfterValidator(within_limit), Field(
            json_schema_extra=limit, description="One step per item, run in item order.")]

    @router.post("/reset", response_model=BatchResetResult, responses=error_responses(422))
    async def batch_reset(body: BatchResetRequest, authorization: str = token_header) -> Response:
        encoded = await envs.run(lambda: reset_all(ops, body.items, authorization))
        return Response(encoded, media_type="application/json")

    @router.post("/step", response_model=BatchStepResult, responses=error_responses(422))
    async def batch_step(body: BatchStepRequest, authorization: str = token_header) -> Response:
        encoded, delay_s = await envs.run(lambda: step_all(ops, body.items, authorization))
        if delay_s:  # a timeout fault among the items: the batch answers late, off the env worker
            await anyio.sleep(delay_s)
        return Response(encoded, media_type="application/json")

    return router
