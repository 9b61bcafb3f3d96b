"""From judged steps to a task grade: argument checks, labels, optimality and AP credit.

:func:`grade_steps` follows the official post-pass (doc 5.1): walk the steps, check the calls of
each matched tool step against the matched gold actions (paired as in 5.3 for ``strict``, greedily
by score for ``paper``), stop at the first argument error and delete the one step after it. It
also computes the paper-era AP credit and topology class (doc 6.3) so both definitions can be
reported side by side.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from env_server.scoring.args_paper import PaperError, pair_calls_paper
from env_server.scoring.args_strict import OFFICIAL, ArgErrorKind, StrictQuirks, check_call_strict, parse_arguments
from env_server.scoring.matching import StepRecord
from env_server.scoring.models import PSEUDO_ACTIONS, GoldTask, PredictedCall
from env_server.scoring.rules import check_call_native, pair_native


class ArgsMode(str, Enum):
    """Which argument checker decides a task's argument label."""

    STRICT = "strict"
    PAPER = "paper"


class Topology(str, Enum):
    """Paper-era orchestration class computed from the gold list (doc 6.3)."""

    NONE = "none"
    SERIAL = "serial"
    COMBINE = "combine"
    MIXED = "cs"


@dataclass(frozen=True, slots=True)
class CallCheck:
    """One predicted call checked against its paired gold call."""

    step_index: int
    name: str
    pred_arguments: str
    gold_arguments: str | None
    ok: bool
    message: str
    strict_kind: ArgErrorKind | None = None
    paper_errors: tuple[PaperError, ...] = ()
    score: float = 1.0


@dataclass(frozen=True, slots=True)
class TaskGrade:
    """Labels of one task after the argument pass."""

    label: bool
    action_name_ok: bool
    arguments_ok: bool | None
    is_optimal: bool
    complete_step: int
    total_step: int
    topology: Topology
    paper_ap_credit: int
    checks: tuple[CallCheck, ...]
    first_failed: CallCheck | None
    deleted_step: int | None

    @property
    def failed_on_arguments(self) -> bool:
        return self.arguments_ok is False


def classify_topology(task: GoldTask) -> Topology:
    """Group real-tool nodes in list order; a node depending on the current group opens a new one."""
    groups: list[set[int]] = []
    for node in task.nodes:
        if node.name in PSEUDO_ACTIONS:
            continue
        if not groups or groups[-1] & set(node.dependencies):
            groups.append({node.index})
        else:
            groups[-1].add(node.index)
    serial = len(groups) > 1
    combine = any(len(g) > 1 for g in groups)
    if serial and combine:
        return Topology.MIXED
    return Topology.SERIAL if serial else Topology.COMBINE if combine else Topology.NONE


def _canonical(raw: str) -> str:
    ok, value = parse_arguments(raw)
    return json.dumps(value, ensure_ascii=False) if ok else raw


def check_step_calls(
    record: StepRecord, parameters: dict[str, dict[str, Any]], mode: ArgsMode, quirks: StrictQuirks = OFFICIAL
) -> list[CallCheck]:
    """Check every call of a matched tool step against the matched gold actions."""
    calls: Sequence[PredictedCall] = record.step.calls
    if mode is ArgsMode.PAPER:
        predicted = [(c.name, c.arguments) for c in calls]
        out = []
        for pi, gi, score in pair_calls_paper(parameters, predicted, record.gold_actions):
            gold = record.gold_actions[gi][1] if gi is not None else None
            errors = ", ".join(e.value for e in score.errors) or "correct"
            out.append(
                CallCheck(record.index, calls[pi].name, calls[pi].arguments, gold, score.ok, errors,
                          paper_errors=score.errors, score=score.score)
            )
        return out
    if record.graded_natively:
        return check_step_natively(record, parameters, quirks)
    key = (lambda c: (c.name, c.arguments)) if quirks.pair_by_raw_strings else (lambda c: (c.name, _canonical(c.arguments)))
    preds = sorted(calls, key=key)
    golds = sorted(record.gold_actions)
    out = []
    for call, (_, gold_args) in zip(preds, golds, strict=False):
        result = check_call_strict(parameters.get(call.name), call.arguments, gold_args, quirks)
        out.append(CallCheck(record.index, call.name, call.arguments, gold_args, result.ok, result.message,
                             strict_kind=result.kind, score=1.0 if result.ok else 0.0))
    return out


def check_step_natively(
    record: StepRecord, parameters: dict[str, dict[str, Any]], quirks: StrictQuirks = OFFICIAL
) -> list[CallCheck]:
    """Native grading: the match rules apply, and parallel calls pair in whatever order passes."""
    golds = [(name, args, rules or {}) for (name, args), rules in zip(record.gold_actions, record.gold_rules, strict=False)]
    calls = [(c.name, c.arguments) for c in record.step.calls]
    pairing = pair_native(calls, golds, parameters, quirks)
    order = sorted(range(len(calls)), key=lambda i: (calls[i][0], _canonical(calls[i][1])))
    if pairing is None:  # no pairing passes: report the one the official checker would use
        gold_order = sorted(range(len(golds)), key=lambda j: golds[j][:2])
        pairs = list(zip(order, gold_order, strict=False))
    else:
        pairs = [(i, pairing[i]) for i in order]
    out = []
    for i, j in pairs:
        name, raw = calls[i]
        result = check_call_native(parameters.get(name), raw, golds[j][1], golds[j][2], quirks)
        out.append(CallCheck(record.index, name, raw, golds[j][1], result.ok, result.message,
                             strict_kind=result.kind, score=1.0 if result.ok else 0.0))
    return out


def grade_steps(
    task: GoldTask,
    records: Sequence[StepRecord],
    *,
    names_ok: bool,
    names_optimal: bool,
    mode: ArgsMode = ArgsMode.STRICT,
    quirks: StrictQuirks = OFFICIAL,
    parameters: dict[str, dict[str, Any]] | None = None,
) -> TaskGrade:
    """Apply the argument pass to a task's judged steps (``names_ok``: the name label)."""
    parameters = parameters if parameters is not None else task.tool_parameters()
    checks: list[CallCheck] = []
    first_failed: CallCheck | None = None
    kept = len(records)
    deleted: int | None = None
    action_ok = names_ok
    for pos, record in enumerate(records):
        if first_failed is not None:
            action_ok = True  # the official pass attributes the failure to arguments
            if quirks.delete_one_step_after_arg_error:
                kept, deleted = kept - 1, pos
            else:
                kept, deleted = first_failed.step_index + 1, pos
            break
        if not record.name_ok:
            break
        if record.gold_is_pseudo or not record.is_tool_step:
            continue
        step_checks = check_step_calls(record, parameters, mode, quirks)
        checks.extend(step_checks)
        first_failed = next((c for c in step_checks if not c.ok), None)
    arguments_ok: bool | None = (first_failed is None) if action_ok else None
    label = action_ok and arguments_ok is True
    is_optimal = names_optimal and arguments_ok is True
    return TaskGrade(
        label=label,
        action_name_ok=action_ok,
        arguments_ok=arguments_ok,
        is_optimal=is_optimal,
        complete_step=kept,
        total_step=task.total_step,
        topology=classify_topology(task),
        paper_ap_credit=paper_ap_credit(task, records, label, first_failed is not None),
        checks=tuple(checks),
        first_failed=first_failed,
        deleted_step=deleted,
    )


def paper_ap_credit(task: GoldTask, records: Sequence[StepRecord], label: bool, args_failure: bool) -> int:
    """Paper-era AP credit (doc 6.3): full node count when correct, else the steps before the end."""
    if label:
        return task.total_step
    sizes = [len(r.step.calls) or 1 for r in records]
    if not sizes:
        return 0
    return sum(sizes[:-1]) + (sizes[-1] if args_failure else 0)
