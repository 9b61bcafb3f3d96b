"""REST control plane of live scenario sessions (an ``APIRouter`` included by ``app.py``).

* ``POST /v1/scenario-sessions`` ``{scenario_id, seed?, max_steps?}`` -> ``{session_id,
  mcp_path, user_message, task_index}``; the agent then calls tools at ``mcp_path``.
* ``POST /v1/scenario-sessions/{id}/reply`` ``{content}``: the agent's text (an answer or a
  clarifying question) -> the user's next turn (``UserTurn``; ``done`` once every task ended).
* ``GET  /v1/scenario-sessions/{id}/result``: per-task labels and reasons, live.
* ``GET  /v1/scenario-sessions/{id}/calls``: the calls as the orchestrator matched them.

Unknown sessions or scenarios are 404; a reply after the session ended is 409. Routes are
``async`` so they run on the event loop, serialized with the MCP handlers.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from env_server.environment import ToolEnvironment
from env_server.orchestrator.errors import LiveSessionError, SessionFinishedError, UnknownScenarioSessionError
from env_server.orchestrator.reports import CallEntry, SessionResult, UserTurn
from env_server.orchestrator.sessions import ScenarioSessions, registry_for

PREFIX = "/v1/scenario-sessions"


class ScenarioSessionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scenario_id: str
    seed: int | None = Field(default=None, description="Defaults to the scenario's own seed.")
    max_steps: int | None = Field(default=None, ge=1, description="Tool calls allowed per task (default 16).")


class ScenarioSessionCreated(BaseModel):
    session_id: str
    scenario_id: str
    mcp_path: str
    user_message: str
    task_index: int
    task_count: int
    env_info: str = Field(description="Environment text; agents use it as 'Current Date: <env_info>'.")


class ReplyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    content: str = Field(description="The agent's text: a final answer or a clarifying question.")


def _http_error(exc: LiveSessionError) -> HTTPException:
    if isinstance(exc, UnknownScenarioSessionError):
        return HTTPException(404, str(exc))
    if isinstance(exc, SessionFinishedError):
        return HTTPException(409, str(exc))
    return HTTPException(422, str(exc))


def build_scenario_router(env: ToolEnvironment, registry: ScenarioSessions | None = None) -> APIRouter:
    sessions = registry or registry_for(env)
    router = APIRouter(prefix=PREFIX, tags=["scenario sessions"])

    @router.post("", status_code=201)
    async def create(body: ScenarioSessionRequest) -> ScenarioSessionCreated:
        try:
            session, turn = sessions.create(body.scenario_id, seed=body.seed, max_steps=body.max_steps)
        except LiveSessionError as exc:
            raise _http_error(exc) from None
        return ScenarioSessionCreated(
            session_id=session.session_id,
            scenario_id=session.spec.id,
            mcp_path=f"/sessions/{session.session_id}/mcp",
            user_message=turn.content or "",
            task_index=turn.task_index,
            task_count=len(session.tasks),
            env_info=session.spec.env_info,
        )

    @router.post("/{session_id}/reply")
    async def reply(session_id: str, body: ReplyRequest) -> UserTurn:
        try:
            return sessions.get(session_id).reply(body.content)
        except LiveSessionError as exc:
            raise _http_error(exc) from None

    @router.get("/{session_id}/result")
    async def result(session_id: str) -> SessionResult:
        try:
            return sessions.get(session_id).result()
        except LiveSessionError as exc:
            raise _http_error(exc) from None

    @router.get("/{session_id}/calls")
    async def calls(session_id: str) -> list[CallEntry]:
        try:
            session = sessions.get(session_id)
        except LiveSessionError as exc:
            raise _http_error(exc) from None
        return [entry.model_copy() for entry in session.entries]

    return router
