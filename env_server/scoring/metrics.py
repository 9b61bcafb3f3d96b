"""WildToolBench metrics in the official metric-JSON layout (doc 5.4-5.5), plus labelled extras.

:func:`compute_official_metrics` returns exactly the official keys, in the official order.
:func:`compute_report` adds, under separate keys, the paper-era OP/AP definitions (doc 6.3) and
the error taxonomy (doc 6.4); the extra keys are labelled so nobody mistakes them for the
official numbers.

Resolved details: ratios are the plain quotient ``correct / total`` (never rounded, as the official
metric file writes them; ``DIGITS`` is only for display); a session whose inference crashed is skipped for every task bucket but counts, as incorrect, in the
session denominator (what the patched S2 scorer did: 1,008 tasks but 256 sessions).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from env_server.scoring.grading import Topology
from env_server.scoring.models import TaskType, TurnSubtype
from env_server.scoring.scorer import SessionScore, TaskScore
from env_server.scoring.taxonomy import summarize_errors

DIGITS = 4
MULTI_TOOL = "Multi-Tool"
FIRST_TURN = "First Turn"
SUBSEQUENT_TURN = "Subsequent Turn"
TOTAL = "Total"
TYPE_BUCKETS = (
    TaskType.SINGLE.value, MULTI_TOOL, TaskType.PARALLEL.value, TaskType.SEQUENTIAL.value,
    TaskType.MIXED.value, TaskType.CLARIFY.value, TaskType.CHAT.value,
)
SUBTYPE_BUCKETS = (FIRST_TURN, SUBSEQUENT_TURN, *(s.value for s in TurnSubtype))
POSITIONS = ("0", "1", "2", "3")


def _ratio(num: int, den: int) -> float:
    return num / den if den else 0.0


class _Counts:
    """Ordered correct/total counters that render as official buckets."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.counts: dict[str, list[int]] = {k: [0, 0] for k in keys}

    def add(self, key: str, hit: bool, weight: int = 1, total: int = 1) -> None:
        cell = self.counts.setdefault(key, [0, 0])
        cell[0] += weight if hit else 0
        cell[1] += total

    def add_amount(self, key: str, amount: int, total: int) -> None:
        cell = self.counts.setdefault(key, [0, 0])
        cell[0] += amount
        cell[1] += total

    def accuracy(self) -> dict[str, dict[str, Any]]:
        return {k: {"accuracy": _ratio(c, t), "correct_count": c, "total_count": t} for k, (c, t) in self.counts.items()}

    def rate(self) -> dict[str, dict[str, Any]]:
        return {k: {"rate": _ratio(c, t), "complete_step": c, "total_step": t} for k, (c, t) in self.counts.items()}


def _tasks(sessions: Sequence[SessionScore]) -> list[TaskScore]:
    return [t for s in sessions if not s.failed for t in s.tasks]


def compute_official_metrics(sessions: Sequence[SessionScore], model_name: str) -> dict[str, Any]:
    """The official metric JSON (current definitions)."""
    tasks = _tasks(sessions)
    total = _Counts(("task", "session"))
    types = _Counts(TYPE_BUCKETS)
    layers = _Counts(POSITIONS)
    subtypes = _Counts(SUBTYPE_BUCKETS)
    optimal = _Counts((TOTAL, TaskType.PARALLEL.value, TaskType.MIXED.value))
    progress = _Counts((TOTAL, TaskType.SEQUENTIAL.value, TaskType.MIXED.value))
    for session in sessions:
        total.add("session", session.correct)
    for t in tasks:
        ok = t.correct
        total.add("task", ok)
        types.add(t.task_type.value, ok)
        if t.task_type.is_multi_tool:
            types.add(MULTI_TOOL, ok)
        layers.add(str(t.position), ok)
        if t.position == 0:
            subtypes.add(FIRST_TURN, ok)
        else:
            subtypes.add(SUBSEQUENT_TURN, ok)
            if t.turn_subtype is not None:
                subtypes.add(t.turn_subtype.value, ok)
        if t.task_type in (TaskType.PARALLEL, TaskType.MIXED):
            optimal.add(TOTAL, t.grade.is_optimal)
            optimal.add(t.task_type.value, t.grade.is_optimal)
        if t.task_type in (TaskType.SEQUENTIAL, TaskType.MIXED):
            progress.add_amount(TOTAL, t.grade.complete_step, t.grade.total_step)
            progress.add_amount(t.task_type.value, t.grade.complete_step, t.grade.total_step)
    return {
        "model_name": model_name,
        "total_info": total.accuracy(),
        "task_type_info": types.accuracy(),
        "layer_info": layers.accuracy(),
        "turn_subtype_info": subtypes.accuracy(),
        "optimal_info": optimal.accuracy(),
        "progress_info": progress.rate(),
    }


def compute_paper_definitions(sessions: Sequence[SessionScore]) -> dict[str, Any]:
    """OP and AP as the paper-era scorer defined them: classes from the gold DAG (doc 6.3)."""
    optimal = _Counts((TOTAL, "P", "S+P"))
    progress = _Counts((TOTAL, "S", "S+P"))
    for t in _tasks(sessions):
        topo = t.grade.topology
        if topo in (Topology.COMBINE, Topology.MIXED):
            hit = t.grade.is_optimal
            optimal.add(TOTAL, hit)
            optimal.add("P" if topo is Topology.COMBINE else "S+P", hit)
        if topo in (Topology.SERIAL, Topology.MIXED):
            progress.add_amount(TOTAL, t.grade.paper_ap_credit, t.grade.total_step)
            progress.add_amount("S" if topo is Topology.SERIAL else "S+P", t.grade.paper_ap_credit, t.grade.total_step)
    return {
        "definition": "paper (ICLR 2026 era scorer): classes from gold dependencies; AP credits steps before the failure",
        "optimal_info": optimal.accuracy(),
        "progress_info": progress.rate(),
    }


def compute_error_taxonomy(sessions: Sequence[SessionScore]) -> dict[str, Any]:
    """Shares of the 9 paper columns over failed tasks, plus fine-grained reason counts."""
    failed = [t for t in _tasks(sessions) if not t.correct and t.error is not None]
    reasons: dict[str, int] = {}
    for t in failed:
        assert t.error is not None
        reasons[t.error.reason.value] = reasons.get(t.error.reason.value, 0) + 1
    return {"failed_tasks": len(failed), "columns": summarize_errors(t.error for t in failed if t.error), "reasons": reasons}


def compute_report(sessions: Sequence[SessionScore], model_name: str) -> dict[str, Any]:
    """Official layout plus labelled extras: ``paper_definitions`` and ``error_taxonomy``."""
    report = compute_official_metrics(sessions, model_name)
    report["paper_definitions"] = compute_paper_definitions(sessions)
    report["error_taxonomy"] = compute_error_taxonomy(sessions)
    return report
