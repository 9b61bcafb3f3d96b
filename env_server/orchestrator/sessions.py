"""The registry of live scenario sessions of one ``ToolEnvironment``.

:func:`registry_for` gives the one registry bound to an environment, so the REST router,
tests and in-process runners all see the same sessions. Session ids are unguessable
(128 random bits): holding one is the capability to drive that session.
"""

from __future__ import annotations

import difflib
import random
import secrets
import threading

from env_server.environment import ToolEnvironment
from env_server.errors import SessionError
from env_server.faults import FaultOptions
from env_server.orchestrator.channel import TALK_TOOL_NAME, UserChannel
from env_server.orchestrator.distractors import pick_distractors, pool_additions
from env_server.orchestrator.errors import LiveSessionError, ScenarioError, UnknownScenarioSessionError
from env_server.orchestrator.gold import gold_session, scenario_tools
from env_server.orchestrator.live import DEFAULT_MAX_STEPS, DEFAULT_OVERLAP_WINDOW_S, ScenarioSession
from env_server.orchestrator.loading import ScenarioLoad, load_scenarios
from env_server.orchestrator.models import ScenarioSpec
from env_server.orchestrator.reports import UserTurn
from env_server.orchestrator.splits import is_test_split


class ScenarioSessions:
    def __init__(
        self,
        env: ToolEnvironment,
        scenarios: ScenarioLoad | None = None,
        *,
        max_steps: int = DEFAULT_MAX_STEPS,
        overlap_window: float = DEFAULT_OVERLAP_WINDOW_S,
    ) -> None:
        self.env = env
        self.max_steps = max_steps
        self.overlap_window = overlap_window
        self._scenarios = scenarios
        self.requested = scenarios  # as given (None: the built-in set, loaded on first use)
        self._sessions: dict[str, ScenarioSession] = {}
        self._lock = threading.Lock()

    @property
    def scenarios(self) -> ScenarioLoad:
        if self._scenarios is None:
            self._scenarios = load_scenarios()
        return self._scenarios

    def scenario(self, scenario_id: str) -> ScenarioSpec:
        spec = self.scenarios.get(scenario_id)
        if spec is None:
            close = difflib.get_close_matches(scenario_id, [s.id for s in self.scenarios.scenarios], n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise UnknownScenarioSessionError(f"unknown scenario '{scenario_id}'{hint}")
        return spec

    def create(
        self,
        scenario_id: str,
        *,
        seed: int | None = None,
        max_steps: int | None = None,
        session_id: str | None = None,
        distractors: int = 0,
        user_channel: bool = False,
        tool_pool: int | None = None,
        faults: FaultOptions | None = None,
    ) -> tuple[ScenarioSession, UserTurn]:
        """Start a scenario session; returns it and task 0's user message.

        ``tool_pool`` (Hybrid-N) lists that many tools in total: the scenario's own tools plus
        distractors (none when the scenario already has as many); ``distractors`` instead adds
        that many (see ``distractors.py``). The listing is then shuffled by the seed so their
        position gives nothing away.
        ``user_channel`` adds the ``talk_to_user`` tool (see ``channel.py``). ``faults`` makes the
        scenario's tools fail like real APIs, seeded (``env_server.faults``); faults are never judged.
        """
        spec = self.scenario(scenario_id)
        try:
            tools = scenario_tools(spec, self.env.catalog)
        except ScenarioError as exc:
            raise LiveSessionError(str(exc)) from None
        distractors = _distractor_count(len(tools), distractors, tool_pool)
        if user_channel and TALK_TOOL_NAME in tools:
            raise LiveSessionError(f"scenario '{spec.id}' already has a tool named {TALK_TOOL_NAME}")
        world_seed = spec.seed if seed is None else seed
        pairs = [(name, tool.name) for name, tool in tools.items()]
        extra = pick_distractors(self.env.catalog, tools, distractors, world_seed)
        if extra:
            pairs += [(name, name) for name in extra if name != TALK_TOOL_NAME]
            random.Random(f"listing:{world_seed}").shuffle(pairs)
        sid = session_id or f"sc_{secrets.token_hex(16)}"
        try:
            self.env.create_session(
                pairs=pairs,
                seed=world_seed,
                today=spec.today,
                session_id=sid,
                label=f"scenario {spec.id}",
                gold_guarded=is_test_split(spec),
                faults=faults,
            )
        except SessionError as exc:
            raise LiveSessionError(str(exc)) from None
        # Distractors are offered tools: calling one is "the wrong function", not a hallucination.
        offered = {**tools, **{name: self.env.catalog.tools[name] for name in extra}}
        session = ScenarioSession(
            sid,
            spec,
            gold_session(spec, offered, self.env.settings.grading),
            self.env,
            max_steps=max_steps or self.max_steps,
            overlap_window=self.overlap_window,
        )
        session.user_channel = user_channel
        session.distractors = extra
        with self._lock:
            self._sessions[sid] = session
        self.env.attach(sid, hook=session)
        turn = session.start()
        if user_channel:
            self.env.attach(sid, extension=UserChannel(session, turn.content or ""))
        return session, turn

    def release(self, session_id: str) -> None:
        """End a session for good: free its in-memory state and delete its record, so no route
        (REST or MCP) serves it again, even after a restart (its call log stays in the database)."""
        with self._lock:
            session = self._sessions.pop(session_id, None)
        if session is None:
            raise UnknownScenarioSessionError(f"unknown scenario session '{session_id}'")
        self.env.retire_session(session_id)

    def get(self, session_id: str) -> ScenarioSession:
        session = self._sessions.get(session_id)
        if session is None:
            raise UnknownScenarioSessionError(f"unknown scenario session '{session_id}'")
        return session


def _distractor_count(scenario_tools: int, distractors: int, tool_pool: int | None) -> int:
    """Distractors to add: ``distractors``, or what fills the list to ``tool_pool`` tools."""
    if distractors < 0 or (tool_pool is not None and tool_pool < 1):
        raise LiveSessionError("distractors must be zero or more, tool_pool one or more")
    if tool_pool is None:
        return distractors
    if distractors:
        raise LiveSessionError("give tool_pool (the total) or distractors (the number added), not both")
    return pool_additions(scenario_tools, tool_pool)


def registry_for(env: ToolEnvironment, scenarios: ScenarioLoad | None = None) -> ScenarioSessions:
    """The scenario-session registry bound to ``env``, created on first use and kept by ``env``.

    ``scenarios`` (default: the built-in set) chooses the registry's scenarios, so it is only
    accepted when the registry is created, or again as the very same ``ScenarioLoad``. Other
    scenarios on a later call raise ``ScenarioError`` rather than being ignored (a generated
    scenario joins a live registry through ``generator.register_generated``).
    """
    registry: ScenarioSessions = env.owned.get("scenario_sessions", lambda: ScenarioSessions(env, scenarios))
    if scenarios is not None and registry.requested is not scenarios:
        raise ScenarioError("this environment's scenario registry already exists with other scenarios; pass "
                            "them on the first registry_for call")
    return registry
