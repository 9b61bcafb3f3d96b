"""toolenv as an OpenEnv environment: :class:`ToolenvOpenEnv` and the app that serves it.

``build_openenv_app`` wraps the environment in OpenEnv's own FastAPI app
(``create_fastapi_app``): one environment instance per WebSocket session on ``/ws`` (what
OpenEnv's clients use: ``reset``, ``step``, ``state``), plus its ``/health``, ``/schema`` and
``/metadata`` routes. Its stateless HTTP ``/reset`` and ``/step`` make a fresh instance per
request, so multi-step episodes go over ``/ws``. Serve it with ``toolenv openenv serve``.

Episodes (``reset(seed=None, episode_id=None, **options)``):

* **Scenario** (default): ``env_server.rl.ToolEnv`` over the built-in train split, or a
  generated scenario (``generator={...}``); the options are ToolEnv's ``ResetOptions``
  (``scenario_id``, ``generator``, ``world_seed``, ``max_calls_per_task``, ``faults``). The
  orchestrator plays the user; rewards are ToolEnv's per-step rewards (dense or sparse, a
  server setting). Test-split scenarios are refused: their gold stays behind the admin token of
  ``toolenv serve``.
* **Free play** (``tools=[...]`` and/or ``group=...``; :class:`~clients.openenv_free.FreePlayOptions`):
  a plain tool session, no user, no gold, reward ``None`` (``clients.openenv_free``).

Actions (``clients.openenv_models``): OpenEnv's ``ListToolsAction`` and ``CallToolAction``, the
way its MCP environments expose tools, or a :class:`ToolenvAction` (one assistant message, as
ToolEnv takes it). A tool call is a step of one call. In a scenario, ``list_tools`` adds
``talk_to_user(message)``, the user channel of ``toolenv serve``: calling it sends ``message``
to the user like a text reply, and its result is what the user says next (an empty message
reads the current request and is no step), so a plain MCP client can play a whole scenario.
A parallel step (several calls judged together) needs a message action: as single calls the
same task is still correct, but not on the optimal path.

Errors: an agent's mistake is an observation (an ``is_error`` tool result, or a judged text
step) and costs reward; misusing the protocol (a step before ``reset`` or after the episode
ended, malformed options) raises, which OpenEnv's server answers with an error message that its
client raises as ``RuntimeError``.

Concurrency: each WebSocket session gets its own instance, run by OpenEnv in a thread of its
own; all share one ``ToolEnvironment`` (sessions never touch each other's worlds), so a timeout
fault's wait holds up only its own session. ``state`` is a snapshot taken after each step.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from fastapi import FastAPI
from openenv.core.env_server.http_server import create_fastapi_app
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.mcp_types import (
    CallToolAction,
    ListToolsAction,
    ListToolsObservation,
    Tool,
    ToolError,
    ToolErrorType,
)
from openenv.core.env_server.types import ConcurrencyConfig, EnvironmentMetadata
from pydantic import ValidationError
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from clients.openenv_free import FreePlayEnv, FreePlayOptions
from clients.openenv_models import (
    ToolenvAction,
    ToolenvCallObservation,
    ToolenvObservation,
    ToolenvState,
    mcp_tool,
)
from env_server import ToolEnvironment
from env_server.orchestrator import (
    TALK_TOOL,
    ScenarioLoad,
    ScenarioSpec,
    is_test_split,
    load_scenarios,
    talk_result,
)
from env_server.rl import (
    DEFAULT_MAX_EPISODE_STEPS,
    ActionError,
    OptionsError,
    ResetNeededError,
    RewardFn,
    ToolEnv,
    default_environment,
)

DEFAULT_MAX_SESSIONS = 256
FREE_PLAY_KEYS = frozenset({"tools", "group"})
TALK_MCP_TOOL = Tool(name=TALK_TOOL.name, description=TALK_TOOL.description, input_schema=TALK_TOOL.input_schema)


@dataclass(frozen=True, kw_only=True)
class OpenEnvSettings:
    """What every session of one server shares: the environment, the scenarios and the episode rules."""

    environment: ToolEnvironment
    train: tuple[ScenarioSpec, ...]  # the scenarios a reset may draw or name
    held_out: frozenset[str]  # test-split ids, refused by name
    reward: str | RewardFn = "dense"
    max_steps: int = DEFAULT_MAX_EPISODE_STEPS


def openenv_settings(environment: ToolEnvironment | None = None, *, scenarios: ScenarioLoad | None = None,
                     reward: str | RewardFn = "dense", max_steps: int = DEFAULT_MAX_EPISODE_STEPS) -> OpenEnvSettings:
    """Settings over ``environment`` (default: ``env_server.rl.default_environment()``) and the
    train split of ``scenarios`` (default: the built-in ones)."""
    specs = (scenarios or load_scenarios()).scenarios
    train = tuple(s for s in specs if not is_test_split(s))
    if not train:
        raise OptionsError("no train-split scenarios to play")
    return OpenEnvSettings(environment=environment or default_environment(), train=train,
                           held_out=frozenset(s.id for s in specs if is_test_split(s)), reward=reward,
                           max_steps=max_steps)


class ToolenvOpenEnv(Environment):
    """One OpenEnv session: scenario or free-play episodes, one at a time (see the module docstring)."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, settings: OpenEnvSettings) -> None:
        super().__init__()
        self.settings = settings
        self.scenarios = ToolEnv(settings.environment, reward=settings.reward, max_steps=settings.max_steps,
                                 scenarios=settings.train)
        self.free = FreePlayEnv(settings.environment, max_steps=settings.max_steps)
        self.episode: ToolEnv | FreePlayEnv | None = None
        self.tools: list[Any] = []  # the episode's MCP tools, as list_tools answers them
        self._state = ToolenvState()

    # -- OpenEnv's API --------------------------------------------------------------------

    def reset(self, seed: int | None = None, episode_id: str | None = None, **options: Any) -> ToolenvObservation:
        """Start a scenario episode, or a free-play one when ``options`` name ``tools`` or ``group``."""
        observation: Mapping[str, Any]
        info: Mapping[str, Any]
        if FREE_PLAY_KEYS & options.keys():
            observation, info = self.free.reset(seed=seed, options=_free_play_options(options))
            self.scenarios.close()
            self.episode, extra = self.free, []
        else:
            self._refuse_held_out(options.get("scenario_id"))
            observation, info = self.scenarios.reset(seed=seed, options=options)
            self.free.close()
            self.episode, extra = self.scenarios, [TALK_MCP_TOOL]
        tools = [mcp_tool(t) for t in observation["tools"] or ()]
        self.tools = [*tools, *extra]
        self._state = ToolenvState(episode_id=episode_id or info["session_id"],
                                   mode="free_play" if self.episode is self.free else "scenario",
                                   episode_return=None if self.episode is self.free else 0.0)
        self._record(info, None, steps=0)
        return ToolenvObservation(messages=observation["messages"], tools=tools, info=info)

    def step(self, action: Any, timeout_s: float | None = None, **kwargs: Any) -> Any:
        """Answer an action with its observation (``ListToolsAction`` needs no reset)."""
        if isinstance(action, ListToolsAction):
            return ListToolsObservation(tools=list(self.tools), done=self._done)
        episode = self._episode()
        if isinstance(action, CallToolAction):
            if action.tool_name == TALK_TOOL.name and episode is self.scenarios:
                return self._talk(action)
            return self._call(episode, action)
        if isinstance(action, ToolenvAction):
            observation, reward, terminated, truncated, info = episode.step(action.message)
            self._record(info, reward)
            return ToolenvObservation(messages=observation["messages"], info=info, reward=reward,
                                      done=terminated or truncated, truncated=truncated)
        raise ActionError(f"unsupported action {type(action).__name__}: send list_tools, call_tool or message")

    @property
    def state(self) -> ToolenvState:
        return self._state

    def get_metadata(self) -> Any:
        return EnvironmentMetadata(
            name="toolenv", version=_package_version(),
            description=("Simulated public-API tools with deterministic, stateful simulators: scenario episodes "
                         "with a scripted user and per-step rewards, or free play over a tool subset."))

    def close(self) -> None:
        self.scenarios.close()
        self.free.close()
        self.episode = None

    # -- steps ----------------------------------------------------------------------------

    def _call(self, episode: ToolEnv | FreePlayEnv, action: Any) -> ToolenvCallObservation:
        """One tool call as a step: an assistant message with that one call."""
        step = self._state.step_count + 1
        message = {"role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{step}", "type": "function",
             "function": {"name": action.tool_name, "arguments": action.arguments}}]}
        observation, reward, terminated, truncated, info = episode.step(message)
        self._record(info, reward)
        text = observation["messages"][0]["content"]
        done = terminated or truncated
        if not any(t.name == action.tool_name for t in self.tools):
            error = ToolError(error_type=ToolErrorType.TOOL_NOT_FOUND, message=text)
            return ToolenvCallObservation(tool_name=action.tool_name, error=error, info=info, reward=reward,
                                          done=done, truncated=truncated)
        return ToolenvCallObservation(tool_name=action.tool_name, result=tool_result(text, bool(info["errors"])),
                                      info=info, reward=reward, done=done, truncated=truncated)

    def _talk(self, action: Any) -> ToolenvCallObservation:
        """``talk_to_user``: a text step with the message, or (empty) the current request."""
        session = self.scenarios.session
        assert session is not None  # a scenario episode is running
        message = str(action.arguments.get("message") or "")
        reward: float | None = None
        truncated = False
        info: Mapping[str, Any] = {}
        if message.strip():
            _, reward, _, truncated, info = self.scenarios.step({"role": "assistant", "content": message})
            self._record(info, reward)
        result = talk_result(session.current_turn(), len(session.tasks))
        return ToolenvCallObservation(tool_name=TALK_TOOL.name, result=tool_result(json.dumps(result), False),
                                      info=info, reward=reward, done=self._done, truncated=truncated)

    # -- internals ------------------------------------------------------------------------

    @property
    def _done(self) -> bool:
        return self._state.terminated or self._state.truncated

    def _episode(self) -> ToolEnv | FreePlayEnv:
        if self.episode is None:
            raise ResetNeededError("call reset() before step()")
        return self.episode

    def _refuse_held_out(self, scenario_id: Any) -> None:
        if scenario_id in self.settings.held_out:
            raise OptionsError(
                f"scenario '{scenario_id}' is in the held-out test split; this server plays the "
                f"{len(self.settings.train)} train-split scenarios and generated ones (options: generator)")

    def _record(self, info: Mapping[str, Any], reward: float | None, *, steps: int = 1) -> None:
        """Take the state snapshot ``state`` answers after a reset (``steps=0``) or a step."""
        state = self._state
        episode_return = state.episode_return if reward is None else (state.episode_return or 0.0) + reward
        episode = self.episode
        self._state = state.model_copy(update={
            "step_count": state.step_count + steps,
            "session_id": info.get("session_id"),
            "scenario_id": info.get("scenario_id"),
            "task_index": info.get("task_index", 0),
            "task_count": info.get("task_count", 0),
            "tasks_correct": info.get("tasks_correct", 0),
            "success": bool(info.get("success", False)),
            "terminated": bool(episode and episode.terminated),
            "truncated": bool(episode and episode.truncated),
            "episode_return": episode_return,
            "state_digest": info.get("state_digest"),
        })


def tool_result(text: str, is_error: bool) -> dict[str, Any]:
    """A tool message's text as an MCP tool result, in the field names OpenEnv's MCP environments send."""
    data: Any = text
    if not is_error:
        try:
            data = json.loads(text)
        except ValueError:
            data = text
    return {"content": [{"type": "text", "text": text}],
            "structured_content": data if isinstance(data, dict) else None,
            "meta": None, "data": data, "is_error": is_error}


def build_openenv_app(settings: OpenEnvSettings | None = None, *, max_sessions: int = DEFAULT_MAX_SESSIONS,
                      idle_timeout_s: float | None = None) -> FastAPI:
    """OpenEnv's FastAPI app over :class:`ToolenvOpenEnv` (settings: :func:`openenv_settings`'s defaults).

    ``max_sessions`` WebSocket sessions at once (one more is refused with OpenEnv's capacity
    error); a session idle for ``idle_timeout_s`` seconds is closed (None: never).
    """
    config = ConcurrencyConfig(max_concurrent_envs=max_sessions, session_timeout=idle_timeout_s)
    factory = functools.partial(ToolenvOpenEnv, settings or openenv_settings())
    app: FastAPI = create_fastapi_app(factory, ToolenvAction, ToolenvObservation, concurrency_config=config)
    app.add_middleware(ClosedSocketMiddleware)
    return app


class ClosedSocketMiddleware:
    """Drops the ``WebSocketDisconnect`` OpenEnv's ``/ws`` handler raises when it closes a socket
    its client already closed (its client sends ``close`` and hangs up at once), which uvicorn
    would otherwise log as an ASGI error on almost every disconnect."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except WebSocketDisconnect:
            if scope["type"] != "websocket":
                raise


def _free_play_options(options: dict[str, Any]) -> FreePlayOptions:
    try:
        return FreePlayOptions.model_validate(options)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'options'}: {e['msg']}" for e in exc.errors())
        raise OptionsError(f"malformed free-play options: {problems}") from None


def _package_version() -> str:
    try:
        return version("toolenv")
    except PackageNotFoundError:
        return "unknown"
