"""The FastAPI app: MCP over streamable HTTP plus the REST control plane.

Routes:

* ``/mcp``                        free play over the whole catalog (+ ``search_tools``);
                                  an ``X-Toolenv-Session`` header selects a session instead
* ``/sessions/{session_id}/mcp``  one session's tool subset
* ``POST /v1/sessions``           create a session (tool names or a catalog group, seed, date, faults)
* ``GET  /v1/sessions/{id}``      the session record
* ``GET  /v1/sessions/{id}/calls`` the session's call log
* ``GET  /v1/sessions/{id}/state``  the world-state digest and row count
* ``POST /v1/sessions/{id}/reset``  back to the base world (the log is kept)
* ``POST /v1/sessions/{id}/fork``   copy state and log prefix into a new session
* ``DELETE /v1/sessions/{id}``      delete the session, its world and its call log (204)
* ``GET  /v1/health``             liveness, counts and versions (no filesystem paths)

Every request enters through the front door (``front_door.py``): a foreign ``Host`` (421)
or ``Origin`` (403) is refused on every route, MCP requests go straight to the MCP chain
(``GET`` and ``DELETE`` there answer 405), and ``/v1/...`` bodies are capped.

``POST /v1/sessions`` with a ``scenario_id`` creates a live scenario session instead (same
body and answer as ``POST /v1/scenario-sessions``, see ``orchestrator/api.py``). Routes that
reveal judgement need ``Authorization: Bearer <settings.admin_token>``; when the settings
carry no token, :func:`build_app` generates one and stores it there. Fork and reset of a
``gold_guarded`` session (one playing an evaluation scenario: a scenario session or an RL env's
session) are such routes: a fork's world holds the gold observations the session was served.

A session that does not exist (never created, or a deleted scenario session) is 404 on every
route, ``/sessions/{id}/mcp`` included (with a JSON-RPC error body the MCP client surfaces).
``settings.rl_plane=False`` leaves out the ``/v1/envs`` router.

Request bodies are capped: ``/v1/...`` at ``max_rest_body_bytes`` (``body_limit.py``), MCP
at ``max_mcp_body_bytes`` (the SDK's own check); both answer 413.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import importlib.metadata
import secrets
from collections.abc import AsyncIterator
from typing import Any, Literal

from fastapi import Body, FastAPI, Header, HTTPException, Response
from mcp.server.streamable_http_manager import (
    StreamableHTTPASGIApp,
    StreamableHTTPSessionManager,
)
from pydantic import BaseModel, ConfigDict, Field, StrictBool
from starlette.types import ASGIApp, Receive, Scope, Send

from env_server.config import FREE_SESSION
from env_server.envelopes import EnvelopeGuard
from env_server.environment import ToolEnvironment
from env_server.errors import SessionConflictError, SessionError
from env_server.faults import FAULTS_HELP, FaultSetting, parse_faults
from env_server.front_door import FrontDoor
from env_server.http_guard import security_settings
from env_server.orchestrator.api import (
    ONE_POOL_SIZE,
    DistractorCount,
    ScenarioSessionCreated,
    ScenarioSessionRequest,
    ToolPoolSize,
    build_scenario_router,
    check_admin,
    create_scenario_session,
)
from env_server.orchestrator.api import PREFIX as SCENARIO_SESSIONS
from env_server.orchestrator.errors import UnknownScenarioSessionError
from env_server.orchestrator.sessions import registry_for
from env_server.rest_contract import (
    APP_ERRORS,
    SESSION_ID_PATTERN,
    AtLeastOne,
    Seed,
    error_responses,
)
from env_server.rl.api import build_env_router
from env_server.server import build_server
from state import CallRecord, SessionRecord

_MCP_VERSION = importlib.metadata.version("mcp")
GUARD_NOTE = "'Bearer <admin token>'; needed when the session plays an evaluation scenario (gold_guarded)."


# A create body is one of two shapes; the schema says which fields each takes, so a body the
# schema admits is one the route accepts (apart from names the catalog lacks: 422).
_TOOL_SESSION_SHAPE: dict[str, Any] = {
    "title": "tool session",
    "properties": {"scenario_id": {"type": "null"}, "distractors": {"const": 0}, "tool_pool": {"type": "null"},
                   "user_channel": {"const": False}, "max_steps": {"type": "null"}},
    "anyOf": [{"required": ["tools"], "properties": {"tools": {"minItems": 1}}},
              {"required": ["group"], "properties": {"group": {"type": "string"}}}],
}
_SCENARIO_SESSION_SHAPE: dict[str, Any] = {
    "title": "scenario session",
    "required": ["scenario_id"],
    "properties": {"scenario_id": {"type": "string"}, "tools": {"maxItems": 0}, "group": {"type": "null"},
                   "today": {"type": "null"}, "session_id": {"enum": [None, ""]}, "label": {"enum": [None, ""]},
                   "base_world": {"const": "seeded"}},
    **ONE_POOL_SIZE,
}


class SessionCreateRequest(BaseModel):
    """A tool session (``tools`` and/or ``group``) or, with ``scenario_id``, a live scenario session."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"oneOf": [_TOOL_SESSION_SHAPE,
                                                                           _SCENARIO_SESSION_SHAPE]})

    tools: list[str] = Field(default_factory=list, json_schema_extra={"uniqueItems": True},
                             description="Catalog tool names the session exposes.")
    group: str | None = Field(default=None, description="A catalog group, e.g. 'wild_tool_bench_3'.")
    seed: Seed | None = Field(default=None,
                              description="World seed (0 for tool sessions; a scenario's own seed).")
    today: dt.date | None = None
    session_id: str | None = Field(default=None, pattern=SESSION_ID_PATTERN,
                                   json_schema_extra={"not": {"const": FREE_SESSION}})
    label: str | None = Field(default=None, max_length=256)
    base_world: Literal["seeded", "empty"] = Field(
        default="seeded", description="'seeded': user-owned collections start with a few rows; 'empty': none.")
    scenario_id: str | None = Field(default=None, description="Create a live scenario session instead.")
    distractors: DistractorCount = Field(default=0, description="Scenario sessions only.")
    tool_pool: ToolPoolSize | None = Field(default=None, description="Scenario sessions only: Hybrid-N total.")
    user_channel: StrictBool = Field(default=False, description="Scenario sessions only: add talk_to_user.")
    max_steps: AtLeastOne | None = Field(default=None, description="Scenario sessions only: calls per task.")
    faults: FaultSetting | None = Field(default=None, description=FAULTS_HELP)


class SessionCreateResult(BaseModel):
    session: SessionRecord
    mcp_path: str
    tool_count: int


class StateResult(BaseModel):
    session_id: str
    digest: str
    rows: int


class ForkRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    session_id: str | None = Field(default=None, pattern=SESSION_ID_PATTERN,
                                   json_schema_extra={"not": {"const": FREE_SESSION}})


# An optional body: none means the defaults; JSON null is not a body.
_OPTIONAL_FORK_BODY = Body(default_factory=ForkRequest)


class ToolenvApp(FastAPI):
    """FastAPI for the REST plane, entered through the front door (``front_door.py``), which
    routes MCP requests around FastAPI's middleware and router."""

    front_door: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.front_door is None:
            await super().__call__(scope, receive, send)
        else:
            await self.front_door(scope, receive, send)

    async def serve_rest(self, scope: Scope, receive: Receive, send: Send) -> None:
        await super().__call__(scope, receive, send)


def build_app(env: ToolEnvironment) -> FastAPI:
    if env.settings.admin_token is None:
        env.settings.admin_token = secrets.token_urlsafe(24)
    server = build_server(env)
    manager = StreamableHTTPSessionManager(app=server, stateless=True, json_response=True,
                                           max_request_body_size=env.settings.max_mcp_body_bytes)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # Mounted sub-apps never get lifespan events, so the manager runs here.
        env.start_flusher()
        try:
            async with manager.run():
                yield
        finally:
            env.close()

    app = ToolenvApp(title="toolenv", version="0.1.0", lifespan=lifespan, responses=APP_ERRORS)
    # Control-plane routes are async on purpose: they run on the event loop, like the MCP
    # handlers, so session state is only ever touched from one thread.
    app.front_door = FrontDoor(
        rest=app.serve_rest,
        mcp=EnvelopeGuard(StreamableHTTPASGIApp(manager), manager.max_request_body_size),
        env=env,
        security=security_settings(env.settings.allowed_hosts, env.settings.allowed_origins),
        max_rest_body_bytes=env.settings.max_rest_body_bytes,
    )
    app.include_router(build_scenario_router(env))
    if env.settings.rl_plane:
        app.include_router(build_env_router(env))

    @app.get("/v1/health")
    async def health() -> dict[str, Any]:
        # Counts and versions only: no filesystem path (catalog, database) in an open route.
        return {"status": "ok", "version": app.version, "mcp_version": _MCP_VERSION, "tools": len(env.catalog),
                "catalogs": len(env.catalog.sources), "groups": len(env.catalog.groups)}

    @app.post("/v1/sessions", status_code=201, responses=error_responses(404, 409, 422))
    async def create_session(body: SessionCreateRequest) -> SessionCreateResult | ScenarioSessionCreated:
        if body.scenario_id is not None:
            if (body.tools or body.group is not None or body.today is not None or body.session_id or body.label
                    or body.base_world != "seeded"):
                raise HTTPException(422, "a scenario session takes only scenario_id, seed, distractors, "
                                         "tool_pool, user_channel and max_steps")
            request = ScenarioSessionRequest(scenario_id=body.scenario_id, seed=body.seed, max_steps=body.max_steps,
                                             distractors=body.distractors, user_channel=body.user_channel,
                                             tool_pool=body.tool_pool, faults=body.faults)
            return create_scenario_session(registry_for(env), request)
        if body.distractors or body.tool_pool is not None or body.user_channel or body.max_steps is not None:
            raise HTTPException(422, "distractors, tool_pool, user_channel and max_steps need a scenario_id")
        if not body.tools and body.group is None:
            raise HTTPException(422, "give 'tools' (catalog names) and/or 'group', or a 'scenario_id'")
        try:
            view = env.create_session(
                tools=body.tools,
                group=body.group,
                seed=body.seed or 0,
                today=body.today,
                session_id=body.session_id,
                label=body.label,
                base_world=body.base_world,
                faults=parse_faults(body.faults) if body.faults is not None else None,
            )
        except SessionConflictError as exc:
            raise HTTPException(409, str(exc)) from None
        except SessionError as exc:
            raise HTTPException(422, str(exc)) from None
        return SessionCreateResult(
            session=view.record, mcp_path=f"/sessions/{view.session_id}/mcp", tool_count=len(view.names)
        )

    @app.get("/v1/sessions/{session_id}", responses=error_responses(404))
    async def get_session(session_id: str) -> SessionRecord:
        try:
            return env.view(session_id).record
        except SessionError as exc:
            raise HTTPException(404, str(exc)) from None

    @app.get("/v1/sessions/{session_id}/calls", responses=error_responses(404))
    async def get_calls(session_id: str) -> list[CallRecord]:
        try:
            return env.calls(session_id)
        except SessionError as exc:
            raise HTTPException(404, str(exc)) from None

    @app.get("/v1/sessions/{session_id}/state", responses=error_responses(404))
    async def get_state(session_id: str) -> StateResult:
        try:
            digest, rows = env.state_summary(session_id)
        except SessionError as exc:
            raise HTTPException(404, str(exc)) from None
        return StateResult(session_id=session_id, digest=digest, rows=rows)

    def admit_branching(session_id: str, authorization: str) -> None:
        """404 for an unknown session; the admin token for a gold-guarded one."""
        try:
            guarded = env.view(session_id).record.gold_guarded
        except SessionError as exc:
            raise HTTPException(404, str(exc)) from None
        if guarded:
            check_admin(env, authorization)

    @app.post("/v1/sessions/{session_id}/reset", responses=error_responses(401, 404))
    async def reset(session_id: str, authorization: str = Header(default="", description=GUARD_NOTE)
                    ) -> StateResult:
        admit_branching(session_id, authorization)
        env.reset_session(session_id)
        return await get_state(session_id)

    @app.delete("/v1/sessions/{session_id}", status_code=204, responses=error_responses(404, 409))
    async def delete_session(session_id: str) -> Response:
        try:
            registry_for(env).get(session_id)
        except UnknownScenarioSessionError:
            pass
        else:
            raise HTTPException(409, f"'{session_id}' is a scenario session: end it with "
                                     f"DELETE {SCENARIO_SESSIONS}/{session_id}")
        try:
            env.delete_session(session_id)
        except SessionConflictError as exc:
            raise HTTPException(409, str(exc)) from None
        except SessionError as exc:
            raise HTTPException(404, str(exc)) from None
        return Response(status_code=204)

    @app.post("/v1/sessions/{session_id}/fork", status_code=201, responses=error_responses(401, 404, 409, 422))
    async def fork(session_id: str, body: ForkRequest = _OPTIONAL_FORK_BODY,
                   authorization: str = Header(default="", description=GUARD_NOTE)) -> SessionCreateResult:
        admit_branching(session_id, authorization)
        try:
            view = env.fork_session(session_id, body.session_id)
        except SessionConflictError as exc:
            raise HTTPException(409, str(exc)) from None
        except SessionError as exc:
            raise HTTPException(422, str(exc)) from None
        return SessionCreateResult(
            session=view.record, mcp_path=f"/sessions/{view.session_id}/mcp", tool_count=len(view.names)
        )

    return app
