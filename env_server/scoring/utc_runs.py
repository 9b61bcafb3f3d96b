"""UniToolCall metrics of a scored WildToolBench-style run (``score run`` / ``score report``).

Each session is one UniToolCall dialogue and each task one turn: the predicted calls are every
call the model made in the task, the gold calls are the task's real-tool nodes (pseudo-actions
left out), and the schemas are the task's tool parameters, so schema defaults apply. Sessions
whose inference crashed, or whose gold is unknown, are left out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from env_server.scoring.unitoolcall import METRICS, UtcCall, UtcConversation, UtcTurn, compute_unitoolcall_metrics

if TYPE_CHECKING:
    from env_server.scoring.report import ScoredRun

Table = tuple[list[str], list[list[str]]]


def _arguments(raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def run_conversations(run: ScoredRun) -> list[UtcConversation]:
    """One dialogue per scored session with known gold."""
    out = []
    for session in run.sessions:
        gold = run.gold.get(session.session_id)
        if session.failed or gold is None:
            continue
        turns, schemas = [], {}
        for task, gold_task in zip(session.tasks, gold.tasks, strict=False):
            predicted = [UtcCall(name=c.name, arguments=_arguments(c.arguments)) for r in task.records for c in r.step.calls]
            expected = [UtcCall(name=n.name, arguments=dict(n.arguments)) for n in gold_task.nodes if not n.is_pseudo]
            turns.append(UtcTurn(predicted=predicted, gold=expected))
            schemas.update(gold_task.tool_parameters())
        out.append(UtcConversation(conversation_id=session.session_id, turns=turns, schemas=schemas))
    return out


def run_unitoolcall(run: ScoredRun) -> dict[str, Any]:
    return compute_unitoolcall_metrics(run_conversations(run))


def utc_table(utc: Mapping[str, Any]) -> Table:
    """Rows per level and per breakdown bucket: SP, FP, SPA, FPA and the unit count."""
    rows: list[list[str]] = []
    groups: Sequence[tuple[str, Mapping[str, Any]]] = [
        *((level, utc[level]) for level in ("call", "turn", "conversation")),
        *utc.get("breakdown", {}).items(),
    ]
    for name, cell in groups:
        rows.append([name, *(f"{cell[m] * 100:.1f}%" for m in METRICS), str(cell["units"])])
    return ["unit", *METRICS, "units"], rows
