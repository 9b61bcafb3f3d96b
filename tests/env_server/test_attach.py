"""``ToolEnvironment.attach``/``detach``: the one way a session gets a call hook or an extension."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from env_server.catalog.models import Operation, ProfileSpec, SourceFormat, ToolSpec
from env_server.config import FREE_SESSION
from env_server.environment import ToolEnvironment
from env_server.errors import SessionConflictError, SessionError, UnknownSessionError
from env_server.session_types import CallOutcome

SEARCH = "ticketmaster_search_shows"


class Recorder:
    """A call hook that refuses one tool and records what it saw."""

    def __init__(self, refuse: str | None = None) -> None:
        self.refuse = refuse
        self.before: list[str] = []
        self.after: list[tuple[str, bool]] = []

    def before_call(self, name: str, arguments: dict[str, Any], meta: Mapping[str, Any] | None) -> str | None:
        self.before.append(name)
        return "not now" if name == self.refuse else None

    def after_call(self, name: str, arguments: dict[str, Any], outcome: CallOutcome) -> None:
        self.after.append((name, outcome.is_error))


class Echo:
    """An extension offering one tool, ``echo``."""

    instructions = "Say hello."
    tools: Mapping[str, ToolSpec] = {"echo": ToolSpec(
        name="echo", description="Echo a word.", category="Meta", provider="test", source=SourceFormat.NATIVE,
        origin="test", input_schema={"type": "object", "properties": {"word": {"type": "string"}},
                                     "required": ["word"]},
        output_schema={"type": "object", "properties": {"echo": {"type": "string"}}},
        profile=ProfileSpec(operation=Operation.ACTION, entity="word"))}

    def serve_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return {"echo": arguments["word"]}


def _session(env: ToolEnvironment, sid: str = "attached") -> str:
    env.create_session(tools=[SEARCH], seed=3, session_id=sid)
    return sid


def test_an_attached_hook_sees_and_may_refuse_calls_and_an_extension_adds_its_tools(env: ToolEnvironment):
    sid = _session(env)
    hook = Recorder(refuse="echo_not_here")
    env.attach(sid, hook=hook)
    env.attach(sid, extension=Echo())  # attaching an extension keeps the hook

    assert env.hook_for(sid) is hook and isinstance(env.extension_for(sid), Echo)
    assert not env.call_tool(sid, SEARCH, {"city": "Las Vegas", "size": 2}).is_error
    refused = env.call_tool(sid, "echo_not_here", {})
    echoed = env.call_tool(sid, "echo", {"word": "hi"})

    assert refused.is_error and refused.message == "not now"
    assert echoed.result == {"echo": "hi"}
    assert hook.before == [SEARCH, "echo_not_here"]  # extension tools never reach the hook
    assert hook.after == [(SEARCH, False)]
    assert env.listed_names(env.view(sid)) == [SEARCH, "echo"]


def test_detach_removes_both_and_the_session_keeps_working(env: ToolEnvironment):
    sid = _session(env)
    hook = Recorder()
    env.attach(sid, hook=hook, extension=Echo())
    env.detach(sid)

    assert env.hook_for(sid) is None and env.extension_for(sid) is None
    env.call_tool(sid, SEARCH, {"city": "Las Vegas"})
    assert hook.before == []
    with pytest.raises(SessionError, match="Unknown tool: echo"):
        env.call_tool(sid, "echo", {"word": "hi"})


def test_releasing_a_session_drops_what_was_attached_and_held_counts_shows_it(env: ToolEnvironment):
    baseline = env.held_counts()["call_hooks"]
    sid = _session(env)
    env.attach(sid, hook=Recorder(), extension=Echo())
    assert env.held_counts()["call_hooks"] == baseline + 1

    env.release_session(sid)

    assert env.hook_for(sid) is None and env.extension_for(sid) is None
    assert env.held_counts()["call_hooks"] == baseline


def test_a_hooked_session_is_ended_by_its_owner_not_deleted(env: ToolEnvironment):
    sid = _session(env)
    env.attach(sid, hook=Recorder())
    with pytest.raises(SessionConflictError, match="end it through its owner"):
        env.delete_session(sid)
    env.detach(sid)
    env.delete_session(sid)


def test_attach_refuses_unknown_and_free_play_sessions(env: ToolEnvironment):
    with pytest.raises(UnknownSessionError):
        env.attach("nobody", hook=Recorder())
    with pytest.raises(SessionError, match="free-play"):
        env.attach(FREE_SESSION, extension=Echo())
    assert env.held_counts()["call_hooks"] == 0


def test_the_registries_are_private(env: ToolEnvironment):
    assert not hasattr(env, "call_hooks") and not hasattr(env, "extensions")
