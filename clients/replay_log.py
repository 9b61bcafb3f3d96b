"""What the replay runner logs per step, shaped field for field as the official inference log (doc 3.4).

* :func:`answer_log` gives ``inference_answer``: the matched candidate on a correct step, every
  candidate on a name error. A candidate is its gold ``action`` list (name-sorted, arguments as
  JSON strings); only the pseudo-actions add ``observation`` (an ask: its question, plus
  ``user_input``; a final answer: its text, not wrapped in a list). Tool candidates carry none.
* On a name error the official list has one entry per remaining gold path, so the same step
  shows up once for every path through it; :func:`official_candidates` rebuilds that list,
  duplicates included, from our lazy path states (prefix multiplicity times completion count).
* :func:`sdk_message` puts a model reply's tool calls in the openai SDK's field order, the order
  the official runner logs and resends after ``response.json()``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import islice
from typing import Any

from env_server.scoring import ASK, PREPARE, GoldTask, PathEngine, PathState, StepRecord, StepStatus, TaskMatcher

LOG_CANDIDATE_CAP = 4096
"""A guard only: wide independent sets have tens of thousands of paths (doc 4.1)."""


def candidate_entry(task: GoldTask, nodes: Sequence[int]) -> dict[str, Any]:
    """A logged candidate: its actions; an ask adds its question and user reply, a final answer its text."""
    ordered = sorted(nodes, key=lambda i: task.nodes[i].name)
    entry: dict[str, Any] = {"action": [{"arguments": task.nodes[i].arguments_json(), "name": task.nodes[i].name}
                                        for i in ordered]}
    for i in ordered:
        node = task.nodes[i]
        if node.name == ASK:
            entry["observation"] = node.observation
            entry["user_input"] = node.user_input
        elif node.name == PREPARE:
            entry["observation"] = node.observation
    return entry


def _prefix_states(engine: PathEngine, history: Sequence[StepRecord], state: PathState) -> Iterator[PathState]:
    """One state per path prefix consistent with the steps so far, in path enumeration order."""
    if not history:
        yield state
        return
    record, rest = history[0], history[1:]
    for move in engine.moves(state):
        if record.status is StepStatus.CALLS_MATCHED and set(move.step) != set(record.gold_nodes):
            continue  # a matched tool step prunes the path set; an ask step does not
        yield from _prefix_states(engine, rest, move.after)


def official_candidates(matcher: TaskMatcher) -> Iterator[tuple[int, ...]]:
    """The candidate steps of the failing (last) step, one per remaining path, in path order."""
    engine = matcher.cursor.engine

    @cache
    def paths_from(state: PathState) -> int:
        return 1 if engine.is_complete(state) else sum(paths_from(m.after) for m in engine.moves(state))

    for state in _prefix_states(engine, matcher.records[:-1], PathState()):
        for move in engine.moves(state):
            for _ in range(paths_from(move.after)):
                yield move.step


def answer_log(matcher: TaskMatcher, record: StepRecord) -> dict[str, Any] | None:
    """``inference_answer`` of one step, or None where the official log has none."""
    if record.name_ok:
        return {"candidate_0_answer_function_list": candidate_entry(matcher.task, record.gold_nodes)}
    if record.status is not StepStatus.NAME_MISMATCH:
        return None  # empty output, parse failure, no candidate entry: the official log has none
    steps = list(islice(official_candidates(matcher), LOG_CANDIDATE_CAP))
    if not steps:
        return None
    return {f"candidate_{i}_answer_function_list": candidate_entry(matcher.task, s) for i, s in enumerate(steps)}


def sdk_message(message: dict[str, Any]) -> dict[str, Any]:
    """A reply's tool calls in the openai SDK's field order: ``id``, ``function`` (``arguments``,
    ``name``), ``type``; other keys keep their place after those."""
    calls = message.get("tool_calls")
    if not isinstance(calls, list):
        return message
    return {**message, "tool_calls": [_sdk_call(c) if isinstance(c, dict) else c for c in calls]}


def _sdk_call(call: dict[str, Any]) -> dict[str, Any]:
    fn = call.get("function")
    if isinstance(fn, dict):
        fn = {**{k: fn[k] for k in ("arguments", "name") if k in fn}, **fn}
    head: dict[str, Any] = {k: (fn if k == "function" else call[k]) for k in ("id", "function", "type") if k in call}
    return {**head, **{k: v for k, v in call.items() if k not in head}}
