"""The tool environment: catalog + sessions + simulators + call log, without any transport.

``ToolEnvironment.call_tool`` is the one path every tool call takes, whether it arrives
over streamable HTTP, stdio or in-process: resolve the session and tool, validate the
arguments, simulate, and append the call to the log before returning. The MCP handlers in
``server.py`` only translate its outcome to the wire.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from env_server.catalog import Catalog
from env_server.catalog.models import Operation, ProfileSpec, SourceFormat, ToolSpec
from env_server.config import FREE_SESSION, ServerSettings
from env_server.errors import (
    ArgumentError,
    SessionConflictError,
    SessionError,
    ToolCallError,
    UnknownSessionError,
)
from env_server.limits import limit_problems, within_limits
from env_server.search import ToolSearchIndex
from env_server.simulators import CatalogRules, SimContext, StateHandle, simulate
from env_server.simulators.base import session_now
from env_server.simulators.generate import canonical_args
from env_server.validation import ArgumentValidator
from state import CallLog, CallRecord, Database, ErrorKind, SessionRecord, SessionStore
from state.call_log import bounded_json
from state.encoding import encode_canonical, encode_text
from state.stamps import elapsed_ms_text, utc_now_iso
from state.store import StateStore
from state.world import World

logger = logging.getLogger(__name__)

SEARCH_TOOL = ToolSpec(
    name="search_tools",
    description=(
        "Find tools in this catalog for a task described in plain words. Returns the best "
        "matching tool names with their descriptions, most relevant first."
    ),
    category="Meta",
    provider="toolenv",
    source=SourceFormat.NATIVE,
    origin="builtin",
    input_schema={
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What you want to do, e.g. 'air quality in Paris'."},
            "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10, "description": "Max results."},
        },
        "required": ["query"],
    },
    output_schema={
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "results": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "description": {"type": "string"},
                        "category": {"type": "string"},
                        "provider": {"type": "string"},
                        "score": {"type": "number"},
                    },
                    "required": ["name", "description", "score"],
                },
            },
        },
        "required": ["query", "results"],
    },
    profile=ProfileSpec(operation=Operation.SEARCH, entity="tool", collection="results"),
)


class UnknownToolError(SessionError):
    """The session has no tool by that name (answered as a JSON-RPC error)."""

    def __init__(self, name: str, suggestions: list[str]) -> None:
        hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"Unknown tool: {name}.{hint}")
        self.suggestions = suggestions


@dataclass(frozen=True)
class SessionView:
    """A session as the server sees it: exposed name -> catalog name, plus its settings."""

    record: SessionRecord
    names: dict[str, str]
    listing_key: str
    # A field, not a property of ``record``: it is read several times on every call.
    session_id: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "session_id", self.record.session_id)


@dataclass(frozen=True)
class CallOutcome:
    result: dict[str, Any] | None
    is_error: bool
    message: str | None
    error_kind: ErrorKind | None
    seq: int
    result_json: str | None = None  # the result as logged, when the log encoded it already

    def result_text(self) -> str:
        """The result as JSON text (the MCP text content), encoded once per call."""
        if self.result_json is not None:
            return self.result_json
        return encode_text(self.result)


class CallHook(Protocol):
    """Per-session observer of tool calls (scenario sessions and RL envs attach one).

    ``before_call`` sees every call first, with the request's ``_meta``; it may pin an
    observation for the call, or return a message that answers the call as an error
    instead of running it. ``after_call`` sees the outcome of calls that ran.
    """

    def before_call(self, name: str, arguments: dict[str, Any], meta: Mapping[str, Any] | None) -> str | None: ...

    def after_call(self, name: str, arguments: dict[str, Any], outcome: CallOutcome) -> None: ...


class SessionExtension(Protocol):
    """Tools (and MCP instructions) a session offers besides its catalog tools: the user channel.

    ``tools`` (exposed name -> spec) are listed after the catalog tools. A call to one is
    served by ``serve_tool`` instead of a simulator: it is logged like any call but never
    shown to the session's call hook. ``serve_tool`` may raise ``ToolCallError``.
    """

    @property
    def tools(self) -> Mapping[str, ToolSpec]: ...

    @property
    def instructions(self) -> str | None: ...

    def serve_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]: ...


class ToolEnvironment:
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
        # Timestamps as text; the default reads the wall clock without datetime (see stamps).
        self._timestamp: Callable[[], str] = (lambda: clock().isoformat()) if clock is not None else utc_now_iso
        self._search_index: ToolSearchIndex | None = None
        self._search_validator = ArgumentValidator(SEARCH_TOOL.name, SEARCH_TOOL.input_schema)
        self._views: dict[str, SessionView] = {}
        # Per-session behaviour, set through ``attach``; a call reads each with one dict lookup.
        self._call_hooks: dict[str, CallHook] = {}
        self._extensions: dict[str, SessionExtension] = {}
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

    # -- sessions -------------------------------------------------------------------------

    def create_session(
        self,
        *,
        tools: list[str] | None = None,
        group: str | None = None,
        seed: int = 0,
        today: dt.date | None = None,
        session_id: str | None = None,
        label: str | None = None,
        pairs: list[tuple[str, str]] | None = None,
        base_world: Literal["seeded", "empty"] = "seeded",
        gold_guarded: bool = False,
    ) -> SessionView:
        """Create a session over a tool subset (names or a catalog group). Raises ``SessionError``.

        ``gold_guarded`` marks a session that plays an evaluation-split scenario (see
        ``SessionRecord.gold_guarded``); its forks inherit the mark.
        """
        pairs = list(pairs or [])
        if group is not None:
            if group not in self.catalog.groups:
                close = self.catalog.suggest(group, among=list(self.catalog.groups))
                raise SessionError(f"unknown tool group '{group}'" + (f"; did you mean {close}?" if close else ""))
            pairs += self.catalog.groups[group]
        for name in tools or []:
            if name not in self.catalog:
                close = self.catalog.suggest(name)
                raise SessionError(f"unknown tool '{name}'" + (f"; did you mean {close}?" if close else ""))
            pairs.append((name, name))
        exposed = [p[0] for p in pairs]
        if len(set(exposed)) != len(exposed):
            dupes = sorted({n for n in exposed if exposed.count(n) > 1})
            raise SessionError(f"a session cannot expose two tools named {dupes}")
        sid = session_id or f"s_{secrets.token_hex(8)}"
        if sid == FREE_SESSION or not sid.replace("_", "").replace("-", "").isalnum():
            raise SessionError(f"invalid session id '{sid}'")
        record = SessionRecord(
            session_id=sid,
            seed=seed,
            today=today or self.settings.today,
            tools=pairs,
            label=label,
            created_at=self._timestamp(),
            base_world=base_world,
            gold_guarded=gold_guarded,
        )
        try:
            self.sessions.create(record)
        except KeyError:
            raise SessionConflictError(f"session '{sid}' already exists") from None
        # A new session has no rows and no calls yet: skip the database lookups.
        self.store.adopt(World(session_id=sid, seed=seed))
        self.log.start(sid)
        return self._hold_view(record)

    def view(self, session_id: str) -> SessionView:
        if session_id == FREE_SESSION:
            return self._free
        hit = self._views.get(session_id)
        if hit is not None:
            return hit
        record = self.sessions.get(session_id)
        if record is None:
            raise UnknownSessionError(f"unknown session '{session_id}'")
        self.store.flush()  # a released session's queued calls must be in DuckDB before its log is read
        return self._hold_view(record)

    def _hold_view(self, record: SessionRecord) -> SessionView:
        session_id = record.session_id
        names = {exposed: name for exposed, name in record.tools} if record.tools else {
            n: n for n in self.catalog.tools
        }
        missing = sorted(n for n in names.values() if n not in self.catalog)
        if missing:
            raise SessionError(f"session '{session_id}' uses tools not in the loaded catalog: {missing[:5]}")
        view = SessionView(record=record, names=names, listing_key=session_id if record.tools else "all")
        self._views[session_id] = view
        return view

    # -- per-session hooks and extensions --------------------------------------------------

    def attach(
        self, session_id: str, *, hook: CallHook | None = None, extension: SessionExtension | None = None
    ) -> None:
        """Give a session a call hook and/or an extension (each replaces the session's previous one).

        Only what is passed changes: attaching an extension keeps the session's hook. Both stay
        until ``detach`` or until the session is released, retired or deleted. A session with a
        hook is driven by its owner: ``delete_session`` refuses it. Raises ``UnknownSessionError``
        for an unknown session and ``SessionError`` for the free-play session.
        """
        if session_id == FREE_SESSION:
            raise SessionError("the free-play session takes no call hook or extension")
        self.view(session_id)
        if hook is not None:
            self._call_hooks[session_id] = hook
        if extension is not None:
            self._extensions[session_id] = extension

    def detach(self, session_id: str) -> None:
        """Remove a session's call hook and extension, if any (the session itself stays)."""
        self._call_hooks.pop(session_id, None)
        self._extensions.pop(session_id, None)

    def hook_for(self, session_id: str) -> CallHook | None:
        """The call hook attached to a session, or None."""
        return self._call_hooks.get(session_id)

    def extension_for(self, session_id: str) -> SessionExtension | None:
        """The extension attached to a session, or None."""
        return self._extensions.get(session_id)

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
        )
        return simulate(spec, args, ctx)

    def _search(self, view: SessionView, args: dict[str, Any]) -> dict[str, Any]:
        problems = self._search_validator.problems(args)
        if problems:
            raise _argument_error(SEARCH_TOOL.name, problems)
        allowed = None if view is self._free else frozenset(view.names.values())
        if self._search_index is None:
            self._search_index = _search_index_for(self.catalog)
        hits = self._search_index.search(args["query"], int(args.get("limit", 10)), allowed)
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
            kind, elapsed_ms_text(started), self._timestamp(),
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

    def reset_session(self, session_id: str) -> None:
        """Back to the session's base world; the call log is kept."""
        view = self.view(session_id)
        self.store.reset(view.session_id, view.record.seed)

    def fork_session(self, session_id: str, new_id: str | None = None) -> SessionView:
        """A new session with the same tools, seed, clock, state and call-log prefix."""
        view = self.view(session_id)
        if view is self._free:
            raise SessionError("the free-play session cannot be forked; create a session first")
        fork = self.create_session(
            tools=None,
            session_id=new_id,
            seed=view.record.seed,
            today=view.record.today,
            label=f"fork of {session_id}",
            pairs=view.record.tools,
            base_world=view.record.base_world,
            gold_guarded=view.record.gold_guarded,
        )
        self.store.fork(view.session_id, view.record.seed, fork.session_id,
                        extra=[CallLog.copy_op(view.session_id, fork.session_id)])
        self.log.inherit(view.session_id, fork.session_id)
        return fork

    def release_session(self, session_id: str) -> None:
        """Drop a session's in-memory state (world, view, call hook, record and call-log caches).

        Its records stay in the database, except under ephemeral durability, where the session
        is gone for good.
        """
        self.detach(session_id)
        self._views.pop(session_id, None)
        self.store.evict(session_id, flush=False)
        self.sessions.forget(session_id)
        self.log.forget(session_id)
        for listener in self.release_listeners:
            listener(session_id)

    def delete_session(self, session_id: str) -> None:
        """Delete a session for good: its world, record and call log, in memory and in DuckDB.

        Its id then answers as unknown (and may be used again). Forks made from it keep their
        own copies. Raises ``SessionError`` for an unknown id and ``SessionConflictError`` for
        the free-play session and for sessions a scenario session or RL env drives (those are
        ended through their owner).
        """
        if session_id == FREE_SESSION:
            raise SessionConflictError("the free-play session cannot be deleted")
        view = self.view(session_id)
        if session_id in self._call_hooks:
            raise SessionConflictError(f"session '{session_id}' is driven by a scenario session or an RL env; "
                                       "end it through its owner")
        self.store.drop(session_id, view.record.seed, extra=[CallLog.delete_op(session_id)])
        self.release_session(session_id)
        self.sessions.delete(session_id)

    def retire_session(self, session_id: str) -> None:
        """Release a session and delete it for good: no lookup finds it again, not even after a
        restart on the same database (its call log stays there for audit)."""
        self.sessions.retire(session_id, self._timestamp())  # first: nothing can load it again meanwhile
        self.release_session(session_id)

    def held_counts(self) -> dict[str, int]:
        """In-memory per-session entries (views, call hooks, worlds, records, log counters): for leak checks."""
        return {"views": len(self._views), "call_hooks": len(self._call_hooks), "worlds": self.store.held(),
                "records": self.sessions.cached(), "log_counters": self.log.tracked()}

    def pin_observation(self, session_id: str, tool: str, arguments: dict[str, Any], observation: Any) -> None:
        """Make ``tool(arguments)`` return exactly ``observation`` in this session."""
        view = self.view(session_id)
        spec = self.tool_spec(view, tool)
        if spec is None:
            raise UnknownToolError(tool, self.catalog.suggest(tool, among=list(view.names)))
        self.store.pin(self.store.world(view.session_id, view.record.seed), spec.name, arguments, observation)


# Derived, read-only views of a catalog, shared by every environment built on it.
_DERIVED: dict[int, tuple[Catalog, CatalogRules, list[ToolSearchIndex]]] = {}


def _derived(catalog: Catalog) -> tuple[Catalog, CatalogRules, list[ToolSearchIndex]]:
    hit = _DERIVED.get(id(catalog))
    if hit is None or hit[0] is not catalog:
        hit = (catalog, CatalogRules.from_specs(list(catalog.tools.values())), [])
        _DERIVED[id(catalog)] = hit
    return hit


def _rules_for(catalog: Catalog) -> CatalogRules:
    return _derived(catalog)[1]


def _search_index_for(catalog: Catalog) -> ToolSearchIndex:
    cached = _derived(catalog)[2]
    if not cached:
        cached.append(ToolSearchIndex(list(catalog.tools.values())))
    return cached[0]


def _argument_error(name: str, problems: list[str]) -> ArgumentError:
    return ArgumentError(f"Invalid arguments for tool '{name}': " + "; ".join(problems))
