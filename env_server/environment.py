"""The tool environment: catalog + sessions + simulators + call log, without any transport.

``ToolEnvironment.call_tool`` is the one path every tool call takes, whether it arrives
over streamable HTTP, stdio or in-process: resolve the session and tool, validate the
arguments, simulate, and append the call to the log before returning. The MCP handlers in
``server.py`` only translate its outcome to the wire.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.catalog import Catalog
from env_server.catalog.models import ToolSpec
from env_server.config import FREE_SESSION, ServerSettings
from env_server.errors import ArgumentError, ToolCallError
from env_server.faults import Fault, FaultInjector
from env_server.limits import limit_problems, within_limits
from env_server.owned import Owned
from env_server.search import SEARCH_TOOL, ToolSearchIndex, ranking_index_for
from env_server.session_lifecycle import SessionLifecycle
from env_server.session_types import CallHook, CallOutcome, SessionExtension, SessionView, UnknownToolError
from env_server.simulators import CatalogRules, SimContext, StateHandle, simulate
from env_server.simulators.base import session_now
from env_server.simulators.generate import canonical_args
from env_server.simulators.plans import plans_of
from env_server.validation import ArgumentValidator
from state import CallLog, CallRecord, Database, ErrorKind, SessionRecord, SessionStore
from state.call_log import bounded_json
from state.encoding import encode_canonical, encode_text
from state.stamps import elapsed_ms, utc_now
from state.store import StateStore
from state.world import World

if TYPE_CHECKING:
    from env_server.search.semantic import HybridSearchIndex

logger = logging.getLogger(__name__)


class ToolEnvironment(SessionLifecycle):
    """Catalog, sessions, simulators and call log; ``call_tool`` runs one call (lifecycle: ``SessionLifecycle``)."""

    def __init__(
        self,
        catalog: Catalog,
        db: Database,
        settings: ServerSettings | None = None,
        *,
        clock: Callable[[], dt.datetime] | None = None,
    ) -> None:
        self.catalog = catalog
        self.settings = settings or ServerSettings()
        self.db = db
        self.log = CallLog(db)
        self.store = StateStore(db, self.settings.durability, fsync=self.settings.fsync)
        # Ephemeral durability (in-process RL) keeps session records in memory and no call log.
        self.sessions = SessionStore(db, persist=self.store.persistent)
        self.rules = _rules_for(catalog)
        # What other parts keep per environment (the scenario registry, the RL env registry
        # and scenario pool): freed with the environment (see ``env_server.owned``).
        self.owned = Owned()
        self._plans = plans_of(catalog)
        self._validators: dict[Any, Any] = catalog.derived.get("container_validators", dict)
        # The call log's clock: each call's timestamp is its reading (see ``state.stamps``).
        self._clock: Callable[[], dt.datetime] = clock or utc_now
        self._search_index: ToolSearchIndex | HybridSearchIndex | None = None
        self._search_validator = ArgumentValidator(SEARCH_TOOL.name, SEARCH_TOOL.input_schema)
        self._views: dict[str, SessionView] = {}
        # Per-session behaviour, set through ``attach``; a call reads each with one dict lookup.
        self._call_hooks: dict[str, CallHook] = {}
        self._extensions: dict[str, SessionExtension] = {}
        self._faults: dict[str, FaultInjector] = {}
        # Called with a session id whenever one is released: caches keyed by session drop it.
        self.release_listeners: list[Callable[[str], None]] = []
        free_names = {n: n for n in catalog.tools}
        free_names[SEARCH_TOOL.name] = SEARCH_TOOL.name
        self._free = SessionView(
            record=SessionRecord(
                session_id=FREE_SESSION,
                seed=self.settings.seed,
                today=self.settings.today,
                created_at="",
            ),
            names=free_names,
            listing_key=FREE_SESSION,
        )

    # -- lifecycle: the store's background writes ------------------------------------------

    def start_flusher(self) -> None:
        """Start applying journaled calls to DuckDB in the background (a serving process calls
        this once; without it, writes reach DuckDB when the queue fills or on ``flush``)."""
        self.store.start_flusher()

    def flush(self) -> None:
        """Write every queued call and state change to DuckDB now."""
        self.store.flush()

    def close(self) -> None:
        """Stop the background writes and write everything still queued (the database stays open)."""
        self.store.close()

    def tool_spec(self, view: SessionView, exposed: str) -> ToolSpec | None:
        name = view.names.get(exposed)
        if name is None:
            extension = self._extensions.get(view.session_id)
            return extension.tools.get(exposed) if extension is not None else None
        return SEARCH_TOOL if name == SEARCH_TOOL.name else self.catalog.tools[name]

    def listed_names(self, view: SessionView) -> list[str]:
        """Exposed tool names in listing order: the session's tools, then its extension's."""
        extension = self._extensions.get(view.session_id)
        extra = [n for n in extension.tools if n not in view.names] if extension is not None else []
        return [*view.names, *extra]

    # -- calls ----------------------------------------------------------------------------

    def call_tool(
        self, session_id: str, name: str, arguments: dict[str, Any] | None, meta: Mapping[str, Any] | None = None
    ) -> CallOutcome:
        """Run one tool call end to end and log it. Raises ``SessionError`` for protocol misuse."""
        view = self._free if session_id == FREE_SESSION else self._views.get(session_id) or self.view(session_id)
        args = dict(arguments or {})
        started = time.perf_counter_ns()
        # Over-long strings and NaN/Infinity anywhere: answered like a schema violation;
        # hooks and the log see a copy without them (see ``env_server.limits``).
        over = limit_problems(args, self.settings.max_arg_chars)
        if over:
            args = within_limits(args, self.settings.max_arg_chars)
        extension = self._extensions.get(view.session_id)
        if extension is not None and name in extension.tools and name not in view.names:
            return self._serve_extension(view, extension, name, args, started, over)
        hook = self._call_hooks.get(view.session_id)
        fault = self._draw_fault(view, name, args)
        if fault is not None:
            return self._serve_fault(view, hook, name, args, meta, fault, started)
        refusal = hook.before_call(name, args, meta) if hook is not None else None
        if refusal is not None:
            seq = self._record(view, name, args, {"error": refusal}, started, ErrorKind.TOOL_ERROR, None)
            return CallOutcome(result=None, is_error=True, message=refusal, error_kind=ErrorKind.TOOL_ERROR, seq=seq)
        target = view.names.get(name)
        # The common case inline; the meta-tool and extension tools go through tool_spec.
        spec = self.catalog.tools.get(target) if target is not None and target != SEARCH_TOOL.name else None
        if spec is None:
            spec = self.tool_spec(view, name)
        if spec is None:
            suggestions = self.catalog.suggest(name, among=list(view.names))
            self._record(view, name, args, None, started, ErrorKind.UNKNOWN_TOOL, None)
            raise UnknownToolError(name, suggestions)
        result: dict[str, Any] | None = None
        message: str | None = None
        kind: ErrorKind | None = None
        world = self.store.world(view.session_id, view.record.seed)
        args_json = encode_canonical(args)  # canonical_args, once, for the call seed and the log row
        result_json: str | None = None
        try:
            if over:
                raise _argument_error(name, over)
            result = self._run(view, spec, name, args, world, args_json)
            # Encoded here once, for both the log row and the agent's text content. A value
            # JSON cannot carry (NaN, Infinity) fails here, as our error, never as bare NaN.
            result_json = encode_text(result)
        except ToolCallError as exc:
            message, kind = str(exc), ErrorKind(exc.kind)
        except Exception:  # boundary: a simulator bug must not crash the server or blame the agent
            logger.exception("simulator failed for %s in session %s", spec.name, view.session_id)
            message, kind = "Internal simulator error; this call is not counted against you.", ErrorKind.INFRA_ERROR
            result = None
        seq = self._record(view, name, args, result if kind is None else {"error": message}, started, kind, world,
                           result_json=result_json, args_json=args_json)
        outcome = CallOutcome(result=result, is_error=kind is not None, message=message, error_kind=kind, seq=seq,
                              result_json=result_json)
        if hook is not None:
            hook.after_call(name, args, outcome)
        return outcome

    def _draw_fault(self, view: SessionView, name: str, args: dict[str, Any]) -> Fault | None:
        """The injected fault for this call to one of the session's tools, if it has fault options."""
        injector = self._faults.get(view.session_id)
        if injector is None or name not in view.names:
            return None
        return injector.draw(name, encode_canonical(args))

    def _serve_fault(
        self, view: SessionView, hook: CallHook | None, name: str, args: dict[str, Any],
        meta: Mapping[str, Any] | None, fault: Fault, started: int,
    ) -> CallOutcome:
        """Answer a call with an injected fault: nothing runs, no state changes, logged as ``fault``."""
        refusal = hook.before_fault(name, args, meta, fault) if hook is not None else None
        if refusal is not None:
            seq = self._record(view, name, args, {"error": refusal}, started, ErrorKind.TOOL_ERROR, None)
            return CallOutcome(result=None, is_error=True, message=refusal, error_kind=ErrorKind.TOOL_ERROR, seq=seq)
        body = fault.body()
        text = encode_text(body)
        seq = self._record(view, name, args, body, started, ErrorKind.FAULT, None, result_json=text)
        outcome = CallOutcome(result=None, is_error=True, message=text, error_kind=ErrorKind.FAULT, seq=seq,
                              fault=fault)
        if hook is not None:
            hook.after_call(name, args, outcome)
        return outcome

    def _serve_extension(
        self, view: SessionView, extension: SessionExtension, name: str, args: dict[str, Any], started: int,
        over: list[str],
    ) -> CallOutcome:
        result: dict[str, Any] | None = None
        result_json: str | None = None
        message: str | None = None
        kind: ErrorKind | None = None
        try:
            problems = over or ArgumentValidator(name, extension.tools[name].input_schema).problems(args)
            if problems:
                raise _argument_error(name, problems)
            result = extension.serve_tool(name, args)
            result_json = encode_text(result)
        except ToolCallError as exc:
            message, kind = str(exc), ErrorKind(exc.kind)
        except ValueError:  # boundary: a result JSON cannot carry (NaN) is our failure
            logger.exception("extension tool %s returned a value JSON cannot carry", name)
            message, kind = "Internal error; this call is not counted against you.", ErrorKind.INFRA_ERROR
            result = None
        seq = self._record(view, name, args, result if kind is None else {"error": message}, started, kind, None,
                           result_json=result_json)
        return CallOutcome(result=result, is_error=kind is not None, message=message, error_kind=kind, seq=seq,
                           result_json=result_json)

    def _run(
        self, view: SessionView, spec: ToolSpec, name: str, args: dict[str, Any], world: World, args_json: str
    ) -> dict[str, Any]:
        if spec is SEARCH_TOOL:
            return self._search(view, args)
        problems = self.catalog.validators[spec.name].problems(args)
        if problems:
            raise _argument_error(name, problems)
        ctx = SimContext(
            session_id=view.session_id,
            seed=view.record.seed,
            today=view.record.today,
            state=StateHandle(world, self.rules, seeded=view.record.base_world == "seeded"),
            args_json=args_json,
            now=session_now(view.record.today, world.created),
            plans=self._plans,
            validators=self._validators,
        )
        return simulate(spec, args, ctx)

    def _search(self, view: SessionView, args: dict[str, Any]) -> dict[str, Any]:
        problems = self._search_validator.problems(args)
        if problems:
            raise _argument_error(SEARCH_TOOL.name, problems)
        allowed = None if view is self._free else frozenset(view.names.values())
        if self._search_index is None:
            self._search_index = ranking_index_for(self.catalog, self.settings.search_ranking)
        category = _known_category(self._search_index, args.get("category"))
        hits = self._search_index.search(args["query"], int(args.get("limit", 10)), allowed, category)
        results = []
        for hit in hits:
            spec = self.catalog.tools[hit.name]
            results.append(
                {
                    "name": hit.name,
                    "description": spec.description,
                    "category": spec.category,
                    "provider": spec.provider,
                    "score": hit.score,
                }
            )
        return {"query": args["query"], "results": results}

    def _record(
        self,
        view: SessionView,
        name: str,
        args: dict[str, Any],
        result: Any,
        started: int,
        kind: ErrorKind | None,
        world: World | None,
        *,
        result_json: str | None = None,
        args_json: str | None = None,
    ) -> int:
        seq = self.log.next_seq(view.session_id)
        if not self.store.persistent:  # ephemeral: no call log; only drop the world's pending changes
            if world is not None:
                self.store.commit(world)
            return seq
        cap = self.settings.max_logged_json_chars
        op = CallLog.call_op(
            view.session_id, seq, name, bounded_json(args_json if args_json is not None else canonical_args(args), cap),
            bounded_json(result_json if result_json is not None else encode_text(result), cap),
            kind, elapsed_ms(started), self._clock().isoformat(),
        )
        # The call's state changes and its log row commit in one transaction.
        if world is None:
            self.store.commit_ops([op])
        else:
            self.store.commit(world, [op])
        return seq

    # -- world state ----------------------------------------------------------------------

    def calls(self, session_id: str) -> list[CallRecord]:
        self.view(session_id)
        self.store.flush()
        return self.log.calls(session_id)

    def state_digest(self, session_id: str) -> str:
        """The session's world-state digest (equal digests, equal worlds). Raises ``SessionError``."""
        view = self.view(session_id)
        return self.store.world(view.session_id, view.record.seed).digest()

    def state_summary(self, session_id: str) -> tuple[str, int]:
        """The session's world-state digest and how many rows its world holds (deleted rows
        count, as their tombstones do). Raises ``SessionError`` for an unknown session."""
        view = self.view(session_id)
        world = self.store.world(view.session_id, view.record.seed)
        return world.digest(), len(world.rows)

    def pin_observation(self, session_id: str, tool: str, arguments: dict[str, Any], observation: Any) -> None:
        """Make ``tool(arguments)`` return exactly ``observation`` in this session."""
        view = self.view(session_id)
        spec = self.tool_spec(view, tool)
        if spec is None:
            raise UnknownToolError(tool, self.catalog.suggest(tool, among=list(view.names)))
        self.store.pin(self.store.world(view.session_id, view.record.seed), spec.name, arguments, observation)


def _rules_for(catalog: Catalog) -> CatalogRules:
    """The catalog's rules, shared by every environment built on it (kept by the catalog)."""
    return catalog.derived.get("rules", lambda: CatalogRules.from_specs(list(catalog.tools.values())))


def _known_category(index: ToolSearchIndex | HybridSearchIndex, category: str | None) -> str | None:
    """The catalog's spelling of ``category`` (any letter case); an unknown one names the known ones."""
    if category is None:
        return None
    known = index.categories
    if category.lower() not in known:
        choices = ", ".join(sorted(known.values()))
        raise _argument_error(SEARCH_TOOL.name, [f"unknown category {category!r}; known categories: {choices}"])
    return known[category.lower()]


def _argument_error(name: str, problems: list[str]) -> ArgumentError:
    return ArgumentError(f"Invalid arguments for tool '{name}': " + "; ".join(problems))
