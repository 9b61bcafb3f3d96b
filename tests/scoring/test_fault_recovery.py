"""Recovery from injected faults, and faulted calls left out of offline scoring."""

from __future__ import annotations

from typing import Any

from env_server.scoring.recovery import CallTrace, recovery_of, total_recovery
from env_server.scoring.runs import fault_traces, steps_from_events


def _call(call_id: str, step: str, name: str, arguments: dict[str, Any], task: int = 0) -> dict[str, Any]:
    return {"type": "tool_call", "task": task, "step_id": step, "call_id": call_id, "name": name,
            "arguments": arguments}


def _result(call_id: str, *, fault: str | None = None, error: bool = False, task: int = 0) -> dict[str, Any]:
    event = {"type": "tool_result", "task": task, "call_id": call_id, "is_error": error or fault is not None,
             "content": "{}"}
    if fault:
        event["fault"] = fault
    return event


def test_a_later_identical_success_in_the_same_task_recovers_every_fault_before_it() -> None:
    calls = [
        CallTrace(0, "weather", '{"city":"Oslo"}', "rate_limited", ok=False),
        CallTrace(0, "weather", '{"city":"Oslo"}', "timeout", ok=False),
        CallTrace(0, "weather", '{"city":"Oslo"}', None, ok=True),
        CallTrace(0, "weather", '{"city":"Bergen"}', "service_unavailable", ok=False),
        CallTrace(0, "weather", '{"city":"Bergen"}', None, ok=False),  # ran, but failed: not a recovery
        CallTrace(1, "weather", '{"city":"Rome"}', "rate_limited", ok=False),
        CallTrace(2, "weather", '{"city":"Rome"}', None, ok=True),  # another task: too late
    ]
    recovery = recovery_of(calls)
    assert (recovery.faulted, recovery.recovered) == (4, 2) and recovery.rate == 0.5
    assert recovery.as_dict()["by_code"]["rate_limited"] == {"faulted": 2, "recovered": 1, "recovery": 0.5}
    assert total_recovery([recovery, recovery_of([])]).faulted == 4 and recovery_of([]).rate is None


def test_faulted_calls_are_not_scored_and_a_retry_joins_the_faulted_calls_step() -> None:
    events = [
        _call("a", "s0", "weather", {"city": "Oslo"}), _call("b", "s0", "weather", {"city": "Bergen"}),
        _result("a"), _result("b", fault="rate_limited"),
        _call("c", "s1", "weather", {"city": "Bergen"}), _result("c"),  # the retry, in a step of its own
        _call("d", "s2", "hotels", {"city": "Bergen"}), _result("d"),
        {"type": "message", "role": "assistant", "task": 0, "content": "Done."},
    ]
    [steps] = steps_from_events(events, 1)
    assert [[c.call_id for c in s.calls] for s in steps] == [["a", "c"], ["d"], []]
    assert steps[2].content == "Done."
    traces = fault_traces(events)
    assert [t.fault for t in traces] == [None, "rate_limited", None, None]
    assert recovery_of(traces).rate == 1.0
