"""Session lifecycle of the tool environment: create, look up, attach, fork, reset, release, delete, retire.

``SessionLifecycle`` is a mixin of ``ToolEnvironment`` (``environment.py``), which sets the
attributes declared here in its ``__init__``; the call path stays in ``environment.py``.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable
from typing import Literal

from env_server.catalog import Catalog
from env_server.config import FREE_SESSION, ServerSettings
from env_server.errors import SessionConflictError, SessionError, UnknownSessionError
from env_server.faults import FaultInjector, FaultOptions
from env_server.session_types import CallHook, SessionExtension, SessionView
from state import CallLog, SessionRecord, SessionStore
from state.store import StateStore
from state.world import World


class SessionLifecycle:
    """Creating, finding and ending sessions, and attaching hooks and extensions to them."""

    catalog: Catalog
    settings: ServerSettings
    log: CallLog
    store: StateStore
    sessions: SessionStore
    release_listeners: list[Callable[[str], None]]
    _clock: Callable[[], dt.datetime]  # the call log's clock (see ``state.stamps``)
    _free: SessionView
    _views: dict[str, SessionView]
    _call_hooks: dict[str, CallHook]
    _extensions: dict[str, SessionExtension]
    _faults: dict[str, FaultInjector]  # sessions created with fault options (``env_server.faults``)

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
        faults: FaultOptions | None = None,
    ) -> SessionView:
        """Create a session over a tool subset (names or a catalog group). Raises ``SessionError``.

        ``gold_guarded`` marks a session that plays an evaluation-split scenario (see
        ``SessionRecord.gold_guarded``); its forks inherit the mark. ``faults`` makes its tools
        fail like real APIs, seeded (``env_server.faults``; held in memory, inherited by forks).
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
            created_at=self._clock().isoformat(),
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
        if faults is not None and faults.active:
            self._faults[sid] = FaultInjector(faults)
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
        injector = self._faults.get(session_id)
        if injector is not None:  # the fork continues the same fault sequence
            self._faults[fork.session_id] = injector.copy()
        return fork

    def fault_options(self, session_id: str) -> FaultOptions | None:
        """The fault options a session was created with (None: its tools never fault)."""
        injector = self._faults.get(session_id)
        return injector.options if injector is not None else None

    def release_session(self, session_id: str) -> None:
        """Drop a session's in-memory state (world, view, call hook, record and call-log caches).

        Its records stay in the database, except under ephemeral durability, where the session
        is gone for good.
        """
        self.detach(session_id)
        self._faults.pop(session_id, None)
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
        self.sessions.retire(session_id, self._clock().isoformat())  # first: nothing can load it again meanwhile
        self.release_session(session_id)

    def held_counts(self) -> dict[str, int]:
        """In-memory per-session entries (views, call hooks, worlds, records, log counters): for leak checks."""
        return {"views": len(self._views), "call_hooks": len(self._call_hooks), "worlds": self.store.held(),
                "records": self.sessions.cached(), "log_counters": self.log.tracked(),
                "fault_injectors": len(self._faults)}
