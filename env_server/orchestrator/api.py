"""REST control plane of live scenario sessions (``APIRouter``s included by ``app.py``).

Driving a session needs only its id (unguessable; holding it is the capability):

* ``GET  /v1/scenarios``: ids, titles and task types of the loaded scenarios (no gold).
* ``POST /v1/scenario-sessions`` ``{scenario_id, seed?, max_steps?, distractors? | tool_pool?,
  user_channel?, faults?}`` -> ``{session_id, mcp_path, user_message, task_index, ...}``; the agent
  then calls tools at ``mcp_path``. ``POST /v1/sessions`` with a ``scenario_id`` does the same.
* ``POST /v1/scenario-sessions/{id}/reply`` ``{content}``: the agent's text (an answer or a
  clarifying question) -> the user's next turn (``UserTurn``; ``done`` once every task ended).
* ``GET  /v1/scenario-sessions/{id}``: progress and transcript (``SessionStatus``).
* ``DELETE /v1/scenario-sessions/{id}``: end it for good (204): every route of the session,
  REST and ``/sessions/{id}/mcp``, answers 404 from then on, also after a restart.

Judging needs the admin token (``Authorization: Bearer <token>``, see ``toolenv serve
--admin-token``); missing is 401, wrong is 403:

* ``GET  /v1/scenario-sessions/{id}/result``: per-task labels and reasons, live.
* ``GET  /v1/scenario-sessions/{id}/calls``: the calls as the orchestrator matched them.
* ``POST /v1/sessions/{id}/fork`` and ``/reset`` of a scenario session (``app.py``): a fork's
  world holds the gold observations the session was served.

Unknown sessions or scenarios are 404; a reply after the session ended is 409. Routes are
``async`` so they run on the event loop, serialized with the MCP handlers.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, HTTPException, Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool

from env_server.environment import ToolEnvironment
from env_server.faults import FAULTS_HELP, FaultOptions, FaultSetting, parse_faults
from env_server.orchestrator.errors import (
    LiveSessionError,
    SessionFinishedError,
    UnknownScenarioSessionError,
)
from env_server.orchestrator.reports import (
    CallEntry,
    ScenarioSummary,
    SessionResult,
    SessionStatus,
    UserTurn,
)
from env_server.orchestrator.sessions import ScenarioSessions, registry_for
from env_server.rest_contract import AtLeastOne, Seed, error_responses, json_integer

PREFIX = "/v1/scenario-sessions"
MAX_DISTRACTORS = 200


DistractorCount = Annotated[int, Field(ge=0, le=MAX_DISTRACTORS), BeforeValidator(json_integer)]
ToolPoolSize = Annotated[int, Field(ge=1, le=MAX_DISTRACTORS), BeforeValidator(json_integer)]


# tool_pool (the total) and distractors (the number added) are two ways to size one list: one at a time.
ONE_POOL_SIZE: dict[str, Any] = {"anyOf": [{"properties": {"tool_pool": {"type": "null"}}},
                                           {"properties": {"distractors": {"const": 0}}}]}


class ScenarioSessionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra=ONE_POOL_SIZE)

    scenario_id: str
    seed: Seed | None = Field(default=None, description="Defaults to the scenario's own seed.")
    max_steps: AtLeastOne | None = Field(default=None, description="Tool calls allowed per task (default 16).")
    distractors: DistractorCount = Field(default=0, description="Catalog tools added to the list.")
    tool_pool: ToolPoolSize | None = Field(
        default=None, description="Hybrid-N: tools listed in total, the scenario's own included (similar tools, "
                                  "then random ones); not with distractors.")
    user_channel: StrictBool = Field(default=False, description="Add the talk_to_user(message) tool.")
    faults: FaultSetting | None = Field(default=None, description=FAULTS_HELP)


class ScenarioSessionCreated(BaseModel):
    session_id: str
    scenario_id: str
    mcp_path: str
    user_message: str
    task_index: int
    task_count: int
    tool_count: int
    user_channel: bool
    env_info: str = Field(description="Environment text; agents use it as 'Current Date: <env_info>'.")
    faults: FaultOptions | None = Field(default=None, description="The session's fault options, profile resolved.")


class ReplyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    content: str = Field(description="The agent's text: a final answer or a clarifying question.")


def _http_error(exc: LiveSessionError) -> HTTPException:
    if isinstance(exc, UnknownScenarioSessionError):
        return HTTPException(404, str(exc))
    if isinstance(exc, SessionFinishedError):
        return HTTPException(409, str(exc))
    return HTTPException(422, str(exc))


def create_scenario_session(sessions: ScenarioSessions, body: ScenarioSessionRequest) -> ScenarioSessionCreated:
    """Create a session from a request; raises ``HTTPException`` (404 unknown scenario, 422)."""
    faults = parse_faults(body.faults) if body.faults is not None else None
    try:
        session, turn = sessions.create(body.scenario_id, seed=body.seed, max_steps=body.max_steps,
                                        distractors=body.distractors, user_channel=body.user_channel,
                                        tool_pool=body.tool_pool, faults=faults)
    except LiveSessionError as exc:
        raise _http_error(exc) from None
    status = session.status()
    return ScenarioSessionCreated(
        session_id=session.session_id,
        scenario_id=session.spec.id,
        mcp_path=f"/sessions/{session.session_id}/mcp",
        user_message=turn.content or "",
        task_index=turn.task_index,
        task_count=status.task_count,
        tool_count=status.tool_count,
        user_channel=body.user_channel,
        env_info=session.spec.env_info,
        faults=faults,
    )


def check_admin(env: ToolEnvironment, authorization: str | None) -> None:
    """Admit only ``Authorization: Bearer <settings.admin_token>``: missing or malformed is 401,
    wrong is 403 (``HTTPException``). Routes that guard only some resources call this directly."""
    if not authorization:
        raise HTTPException(
            401, "this route reveals gold-derived results of an evaluation scenario and needs the admin token: send "
            "'Authorization: Bearer <token>' (printed by 'toolenv serve', or set with --admin-token)",
            headers={"WWW-Authenticate": "Bearer"})
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(401, "malformed Authorization header: expected 'Bearer <admin token>'",
                            headers={"WWW-Authenticate": "Bearer"})
    expected = env.settings.admin_token
    if expected is None or not secrets.compare_digest(token.strip().encode(), expected.encode()):
        raise HTTPException(403, "the admin token is wrong")


def admin_guard(env: ToolEnvironment) -> Callable[..., Awaitable[None]]:
    """A dependency that admits only ``Authorization: Bearer <settings.admin_token>``."""

    async def require_admin(authorization: str = Header(default="")) -> None:
        check_admin(env, authorization)

    return require_admin


def build_scenario_router(env: ToolEnvironment, registry: ScenarioSessions | None = None) -> APIRouter:
    sessions = registry or registry_for(env)
    router = APIRouter(tags=["scenario sessions"])
    admin = [Depends(admin_guard(env))]

    @router.get("/v1/scenarios")
    async def scenarios() -> list[ScenarioSummary]:
        return [
            ScenarioSummary(id=s.id, title=s.title, task_count=len(s.tasks),
                            task_types=[t.task_type.value for t in s.tasks])
            for s in sessions.scenarios.scenarios
        ]

    @router.post(PREFIX, status_code=201, responses=error_responses(404, 422))
    async def create(body: ScenarioSessionRequest) -> ScenarioSessionCreated:
        return create_scenario_session(sessions, body)

    @router.get(PREFIX + "/{session_id}", responses=error_responses(404))
    async def status(session_id: str) -> SessionStatus:
        try:
            return sessions.get(session_id).status()
        except LiveSessionError as exc:
            raise _http_error(exc) from None

    @router.delete(PREFIX + "/{session_id}", status_code=204, responses=error_responses(404))
    async def delete(session_id: str) -> Response:
        try:
            sessions.release(session_id)
        except LiveSessionError as exc:
            raise _http_error(exc) from None
        return Response(status_code=204)

    @router.post(PREFIX + "/{session_id}/reply", responses=error_responses(404, 409, 422))
    async def reply(session_id: str, body: ReplyRequest) -> UserTurn:
        try:
            return sessions.get(session_id).reply(body.content)
        except LiveSessionError as exc:
            raise _http_error(exc) from None

    @router.get(PREFIX + "/{session_id}/result", dependencies=admin, responses=error_responses(401, 404))
    async def result(session_id: str) -> SessionResult:
        try:
            return sessions.get(session_id).result()
        except LiveSessionError as exc:
            raise _http_error(exc) from None

    @router.get(PREFIX + "/{session_id}/calls", dependencies=admin, responses=error_responses(401, 404))
    async def calls(session_id: str) -> list[CallEntry]:
        try:
            session = sessions.get(session_id)
        except LiveSessionError as exc:
            raise _http_error(exc) from None
        return [entry.model_copy() for entry in session.entries]

    return router
