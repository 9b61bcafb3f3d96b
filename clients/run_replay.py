"""Replay one recorded session file against a fresh in-process environment.

The session is recreated with the recorded session id, the manifest's seed and options, and
the scenario's date; the agent's tool calls and replies are sent again in the order the server
processed them (each step's calls in call-log order, replies in transcript order). The replay
then compares what the agent saw (user messages and tool results), the orchestrator's call
records, the final world-state digest and the scored result with the recorded ones, and names
the first difference of each kind.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from clients.agent_runner import STEP_META_KEY
from clients.run_chain import canonical
from env_server import FaultOptions, ServerSettings, ToolEnvironment, UnknownToolError, parse_faults
from env_server.catalog import Catalog
from env_server.orchestrator import ScenarioLoad, registry_for
from state import Database


@dataclass
class Replayed:
    """What one session's replay found."""

    scenario_id: str
    calls: int = 0
    problems: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None


def replay_session(name: str, lines: list[dict[str, Any]], catalog: Catalog, scenarios: ScenarioLoad,
                   options: dict[str, Any]) -> Replayed:
    """Replay the session file ``name`` (its lines, chain keys stripped); ``options`` are the
    manifest's ``config`` (seed, max_steps, distractors, tool_pool, faults)."""
    head = lines[0]
    done = Replayed(head.get("scenario_id", name))
    env = ToolEnvironment(catalog, Database(), ServerSettings(admin_token=secrets.token_urlsafe(16)))
    try:
        session, turn = registry_for(env, scenarios).create(
            done.scenario_id, seed=options.get("seed"), max_steps=options.get("max_steps"),
            session_id=head["session_id"], distractors=options.get("distractors") or 0,
            tool_pool=options.get("tool_pool"), faults=_faults(options.get("faults")))
        listed = [t["function"]["name"] for t in head.get("tools", [])]
        if listed and listed != env.listed_names(env.view(session.session_id)):
            done.problems.append(f"{name}: the tool listing differs from the recorded one")
        seen = _drive(env, session, lines, done, [turn.content])
        _compare_all(env, session, lines, seen, done, name)
    finally:
        env.close()
    return done


def _drive(env: ToolEnvironment, session: Any, lines: list[dict[str, Any]], done: Replayed,
           messages: list[str | None]) -> dict[str, Any]:
    """Send the recorded calls and replies again; returns what the agent would have seen."""
    order = {(e.get("step_id"), e["name"], canonical(e.get("arguments", {}))): i
             for i, e in reversed(list(enumerate(_recorded_calls(lines))))}
    steps: dict[str | None, list[dict[str, Any]]] = defaultdict(list)
    for line in lines:
        if line.get("type") == "tool_call":
            steps[line.get("step_id")].append(line)
    results: dict[str, list[tuple[bool, str]]] = defaultdict(list)
    for line in lines:
        kind = line.get("type")
        if kind == "tool_call" and line.get("step_id") in steps:
            calls = steps.pop(line.get("step_id"))
            calls.sort(key=lambda c: order.get((c.get("step_id"), c["name"], canonical(c["arguments"])), len(order)))
            for call in calls:
                results[_key(call)].append(_call(env, session, call))
                done.calls += 1
        elif kind == "message" and line.get("role") == "assistant":
            messages.append(session.reply(line["content"]).content)
    return {"messages": [m for m in messages if m is not None], "results": results}


def _call(env: ToolEnvironment, session: Any, call: dict[str, Any]) -> tuple[bool, str]:
    try:
        outcome = env.call_tool(session.session_id, call["name"], call["arguments"],
                                {STEP_META_KEY: call.get("step_id")})
    except UnknownToolError as exc:  # answered as a JSON-RPC error, which the agent saw as its text
        return True, str(exc)
    return outcome.is_error, (outcome.message or "") if outcome.is_error else outcome.result_text()


def _key(call: dict[str, Any]) -> str:
    return canonical([call.get("step_id"), call["name"], call.get("arguments", {})])


def _recorded_calls(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return next((list(line.get("calls", [])) for line in lines if line.get("type") == "calls"), [])


def _compare_all(env: ToolEnvironment, session: Any, lines: list[dict[str, Any]], seen: dict[str, Any],
                 done: Replayed, name: str) -> None:
    found = [
        _compare_messages(lines, seen["messages"]),
        _compare_results(lines, seen["results"]),
        _first_difference("call record", _recorded_calls(lines),
                          [e.model_dump(mode="json") for e in session.entries]),
        _compare_state(lines, env.state_digest(session.session_id)),
    ]
    done.result = session.result().model_dump(mode="json")
    recorded = next(({k: v for k, v in line.items() if k != "type"} for line in lines if line.get("type") == "result"),
                    None)
    found.append(_first_difference("result", [recorded], [done.result]))
    done.problems += [f"{name}: {problem}" for problem in found if problem]


def _compare_messages(lines: list[dict[str, Any]], replayed: list[str]) -> str | None:
    recorded = [line["content"] for line in lines if line.get("type") == "message" and line.get("role") == "user"]
    for i, (old, new) in enumerate(zip(recorded, replayed, strict=False)):
        if old != new:
            return f"user message {i} differs: recorded {_short(old)}, replayed {_short(new)}"
    if len(recorded) != len(replayed):
        return f"{len(recorded)} user messages recorded, {len(replayed)} replayed"
    return None


def _compare_results(lines: list[dict[str, Any]], replayed: dict[str, list[tuple[bool, str]]]) -> str | None:
    calls = {line["call_id"]: line for line in lines if line.get("type") == "tool_call"}
    for number, line in enumerate(lines, start=1):
        if line.get("type") != "tool_result" or line.get("call_id") not in calls:
            continue
        queue = replayed.get(_key(calls[line["call_id"]]), [])
        if not queue:
            return f"line {number}: tool result {line['call_id']} has no replayed call"
        is_error, text = queue.pop(0)
        if (bool(line.get("is_error")), line.get("content")) != (is_error, text):
            return (f"line {number}: tool result {line['call_id']} ({line.get('name')}) differs: recorded "
                    f"{_short(line.get('content'))}, replayed {_short(text)}")
    return None


def _compare_state(lines: list[dict[str, Any]], digest: str) -> str | None:
    recorded = next((line.get("digest") for line in lines if line.get("type") == "state"), None)
    if recorded != digest:
        return f"world-state digest differs: recorded {recorded}, replayed {digest}"
    return None


def _first_difference(what: str, recorded: list[Any], replayed: list[Any]) -> str | None:
    for i, (old, new) in enumerate(zip(recorded, replayed, strict=False)):
        if old != new:
            keys = sorted(k for k in set(old or {}) | set(new or {}) if (old or {}).get(k) != (new or {}).get(k))
            return f"{what} {i} differs in {', '.join(keys) or 'its content'}"
    if len(recorded) != len(replayed):
        return f"{len(recorded)} {what}s recorded, {len(replayed)} replayed"
    return None


def _short(value: Any, limit: int = 80) -> str:
    text = value if isinstance(value, str) else canonical(value)
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _faults(options: dict[str, Any] | None) -> FaultOptions | None:
    """The run's fault options, so the replay faults the calls the run faulted."""
    return None if options is None else parse_faults(options)
