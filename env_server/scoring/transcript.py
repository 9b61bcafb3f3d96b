"""A readable view of one scored task: each model step, each call marked, observations attached.

The report drill-down and the QAOA exporter both read this view, so a call is described the same
way everywhere. A call is

* ``matched``: its name matched a gold step and its arguments passed the selected checker;
* ``argument error``: its name matched but the argument check failed (the checker's reason);
* ``not graded``: its name matched, but the argument pass had already stopped at an earlier
  argument error or name failure, so this call was never checked;
* ``mismatched``: the step failed name matching (wrong name, unparsable call, no step left).

Observations are the gold ones the agent was fed (doc 3.2, step 3): the matched gold nodes when the
live matcher recorded them, else the gold nodes recovered from the logged gold actions (official
result files log (name, arguments) only). A call gets the observation of a matched node with its
name, preferring one whose arguments are the same JSON; this is a display pairing, not the
official id pairing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from env_server.scoring.grading import CallCheck
from env_server.scoring.matching import StepRecord, StepStatus
from env_server.scoring.models import ASK, GoldTask, PredictedCall
from env_server.scoring.scorer import TaskScore


class CallMark(str, Enum):
    """The verdict shown next to one predicted call."""

    MATCHED = "matched"
    ARGUMENT_ERROR = "argument error"
    NOT_GRADED = "not graded"
    MISMATCHED = "mismatched"


@dataclass(frozen=True, slots=True)
class CallView:
    name: str
    arguments: str
    mark: CallMark
    reason: str
    observation: Any = None
    has_observation: bool = False

    def arguments_object(self) -> Any:
        """Parsed arguments when they are valid JSON, else the raw text."""
        try:
            return json.loads(self.arguments) if self.arguments.strip() else {}
        except ValueError:
            return self.arguments


@dataclass(frozen=True, slots=True)
class StepView:
    index: int
    status: StepStatus
    text: str | None
    calls: tuple[CallView, ...]
    reason: str
    user_reply: str | None = None

    @property
    def ok(self) -> bool:
        return self.status.name_ok and all(c.mark in (CallMark.MATCHED, CallMark.NOT_GRADED) for c in self.calls)


def _canonical(raw: str) -> str:
    try:
        return json.dumps(json.loads(raw), ensure_ascii=False, sort_keys=True)
    except ValueError:
        return raw


def _matched_nodes(record: StepRecord, gold: GoldTask | None) -> list[int]:
    if record.gold_nodes or gold is None:
        return list(record.gold_nodes)
    free = list(range(len(gold.nodes)))
    out = []
    for name, args in record.gold_actions:
        want = _canonical(args)
        same = [i for i in free if gold.nodes[i].name == name]
        pick = next((i for i in same if _canonical(gold.nodes[i].arguments_json()) == want), same[0] if same else None)
        if pick is not None:
            free.remove(pick)
            out.append(pick)
    return out


def _find_check(checks: list[CallCheck], record: StepRecord, call: PredictedCall) -> CallCheck | None:
    for k, check in enumerate(checks):
        if check.step_index == record.index and check.name == call.name and check.pred_arguments == call.arguments:
            return checks.pop(k)
    return None


def _observations(calls: Sequence[PredictedCall], nodes: list[int], gold: GoldTask | None) -> list[tuple[bool, Any]]:
    if gold is None:
        return [(False, None)] * len(calls)
    free = list(nodes)
    out: list[tuple[bool, Any]] = []
    for call in calls:
        same = [i for i in free if gold.nodes[i].name == call.name]
        want = _canonical(call.arguments)
        pick = next((i for i in same if _canonical(gold.nodes[i].arguments_json()) == want), same[0] if same else None)
        if pick is None:
            out.append((False, None))
        else:
            free.remove(pick)
            out.append((True, gold.nodes[pick].observation))
    return out


def _user_reply(record: StepRecord, gold: GoldTask | None, asks_seen: int) -> str | None:
    if gold is None:
        return None
    if record.gold_nodes:
        return gold.nodes[record.gold_nodes[0]].user_input
    asks = [n for n in gold.nodes if n.name == ASK]
    return asks[asks_seen].user_input if asks_seen < len(asks) else None


def _mismatch_reason(record: StepRecord) -> str:
    reason = record.reason or record.status.value
    if record.candidates:
        expected = sorted({" + ".join(c) for c in record.candidates})
        reason += "; expected one of: " + " | ".join(expected[:8]) + (" | ..." if len(expected) > 8 else "")
    return reason


def task_steps(score: TaskScore, gold: GoldTask | None = None) -> list[StepView]:
    """The steps of one scored task with every call marked (see the module docstring)."""
    checks = list(score.grade.checks)
    views: list[StepView] = []
    asks_seen = 0
    for record in score.records:
        step = record.step
        if record.status is StepStatus.CALLS_MATCHED:
            observed = _observations(step.calls, _matched_nodes(record, gold), gold)
            calls = []
            for call, (has_obs, obs) in zip(step.calls, observed, strict=True):
                check = _find_check(checks, record, call)
                if check is None:
                    mark, reason = CallMark.NOT_GRADED, "name matched; arguments not graded after an earlier failure"
                elif check.ok:
                    mark, reason = CallMark.MATCHED, check.message or "correct"
                else:
                    mark, reason = CallMark.ARGUMENT_ERROR, check.message
                calls.append(CallView(call.name, call.arguments, mark, reason, obs, has_obs))
            views.append(StepView(record.index, record.status, step.content, tuple(calls), "name matched"))
        elif record.status.name_ok:
            reply = None
            if record.status is StepStatus.ASKED:
                reply = _user_reply(record, gold, asks_seen)
                asks_seen += 1
            views.append(StepView(record.index, record.status, step.content, (), record.status.value, reply))
        else:
            reason = _mismatch_reason(record)
            mismatched = tuple(CallView(c.name, c.arguments, CallMark.MISMATCHED, reason) for c in step.calls)
            views.append(StepView(record.index, record.status, step.content, mismatched, reason))
    return views
