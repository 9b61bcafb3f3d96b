"""Scenario sessions for the RL env: cached per scenario, created without the REST registry.

The REST registry (``orchestrator.sessions``) keeps every session it ever made; RL envs open
and drop thousands per minute, so :class:`ScenarioPool` builds the same
:class:`ScenarioSession` itself, caches what is per scenario (tools, gold, the tool list), and
releases a session's in-memory state when its env moves on.

Generated scenarios (``reset(options={"generator": {...}})``) come from
``generator.generate_scenario`` and are kept in a bounded LRU (``max_generated`` entries,
keyed by the generated scenario id, which encodes seed and settings). An env holds its own
entry, so eviction never breaks an episode, and a long run of fresh seeds does not grow memory.
"""

from __future__ import annotations

import copy
import difflib
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from env_server.environment import ToolEnvironment
from env_server.faults import FaultOptions
from env_server.generator import GeneratorError, GeneratorSettings, generate_scenario, scenario_id
from env_server.orchestrator.errors import ScenarioError
from env_server.orchestrator.gold import function_tools, gold_session, scenario_tools
from env_server.orchestrator.live import DEFAULT_MAX_STEPS, ScenarioSession
from env_server.orchestrator.loading import ScenarioLoad, load_scenarios
from env_server.orchestrator.models import ScenarioSpec
from env_server.orchestrator.splits import is_test_split
from env_server.rl.errors import OptionsError
from env_server.scoring import GoldSession

DEFAULT_MAX_GENERATED = 256


@dataclass(frozen=True)
class ScenarioEntry:
    spec: ScenarioSpec
    pairs: list[tuple[str, str]]
    gold: GoldSession
    tools: list[dict[str, Any]]  # OpenAI function format, as the observation sends it


class ScenarioPool:
    """The scenarios an env may play, by id, in a fixed (sorted) order for seeded draws."""

    def __init__(
        self,
        environment: ToolEnvironment,
        scenarios: ScenarioLoad | list[ScenarioSpec] | None = None,
        *,
        max_generated: int = DEFAULT_MAX_GENERATED,
    ) -> None:
        self.environment = environment
        specs = scenarios.scenarios if isinstance(scenarios, ScenarioLoad) else scenarios
        if specs is None:
            specs = _builtin().scenarios
        self.specs = {s.id: s for s in sorted(specs, key=lambda s: s.id)}
        self.ids = list(self.specs)
        if not self.ids:
            raise OptionsError("no scenarios to play")
        self.max_generated = max_generated
        self._entries: dict[str, ScenarioEntry] = {}
        self._generated: OrderedDict[str, ScenarioEntry] = OrderedDict()
        self._lock = threading.Lock()

    def entry(self, scenario_id: str) -> ScenarioEntry:
        hit = self._entries.get(scenario_id)
        if hit is not None:
            return hit
        spec = self.specs.get(scenario_id)
        if spec is None:
            close = difflib.get_close_matches(scenario_id, self.ids, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise OptionsError(f"unknown scenario '{scenario_id}'{hint}")
        entry = self._build(spec)
        with self._lock:
            self._entries[scenario_id] = entry
        return entry

    def generated(self, seed: int, settings: GeneratorSettings) -> ScenarioEntry:
        """The generated scenario of ``seed`` and ``settings`` (made once, then LRU-cached)."""
        key = scenario_id(seed, settings)
        with self._lock:
            hit = self._generated.get(key)
            if hit is not None:
                self._generated.move_to_end(key)
                return hit
        try:
            spec = generate_scenario(seed, settings, self.environment.catalog)
        except GeneratorError as exc:
            raise OptionsError(f"generator: {exc}") from None
        entry = self._build(spec)
        with self._lock:
            self._generated[key] = entry
            while len(self._generated) > self.max_generated:
                self._generated.popitem(last=False)
        return entry

    def generated_count(self) -> int:
        return len(self._generated)

    def _build(self, spec: ScenarioSpec) -> ScenarioEntry:
        try:
            tools = scenario_tools(spec, self.environment.catalog)
        except ScenarioError as exc:
            raise OptionsError(str(exc)) from None
        return ScenarioEntry(spec, [(n, t.name) for n, t in tools.items()], gold_session(spec, tools, self.environment.settings.grading),
                             function_tools(tools))

    def open(self, entry: ScenarioEntry, *, world_seed: int | None, max_calls: int | None,
             faults: FaultOptions | None = None) -> ScenarioSession:
        """A new scenario session (task 0 not started yet); ``faults``: see ``env_server.faults``."""
        spec = entry.spec
        sid = f"rl_{secrets.token_hex(16)}"
        self.environment.create_session(pairs=entry.pairs, seed=spec.seed if world_seed is None else world_seed,
                                        today=spec.today, session_id=sid, label=f"rl {spec.id}",
                                        gold_guarded=is_test_split(spec), faults=faults)
        session = ScenarioSession(sid, spec, entry.gold, self.environment, max_steps=max_calls or DEFAULT_MAX_STEPS)
        self.environment.attach(sid, hook=session)
        return session

    def fork(self, session: ScenarioSession) -> ScenarioSession:
        """A copy of ``session`` (state, call log, matcher state) under a new session id."""
        sid = f"rl_{secrets.token_hex(16)}"
        self.environment.fork_session(session.session_id, sid)
        clone = clone_session(session, sid)
        self.environment.attach(sid, hook=clone)
        return clone

    def release(self, session: ScenarioSession) -> None:
        self.environment.release_session(session.session_id)


def clone_session(session: ScenarioSession, session_id: str) -> ScenarioSession:
    """Deep-copy the orchestrator and matcher state; share what is read-only (env, spec, gold, engines)."""
    memo: dict[int, Any] = {id(session.env): session.env, id(session.spec): session.spec,
                            id(session._clock): session._clock, id(session._lock): type(session._lock)()}
    for task in session.tasks:
        memo[id(task.gold)] = task.gold
        memo[id(task.matcher.task)] = task.matcher.task
        memo[id(task.matcher.engine)] = task.matcher.engine
    clone = copy.deepcopy(session, memo)
    clone.session_id = session_id
    return clone


_BUILTIN: ScenarioLoad | None = None


def _builtin() -> ScenarioLoad:
    global _BUILTIN
    if _BUILTIN is None:
        _BUILTIN = load_scenarios()
    return _BUILTIN
