"""Reports of a scored run: ``metrics.json``, ``summary.md``, ``report.html`` and run comparisons.

A :class:`ScoredRun` is what every loader produces: the session scores, and when known the gold
sessions (for observations and user replies in the drill-down), the user message of each task
and the environment text of each session. ``report_files.write_reports`` writes the three files; ``report_files.write_comparison`` writes
a side-by-side table of several runs.

``metrics.json`` holds the official keys first (doc 5.5, current definitions), then our labelled
extras, each documented in :data:`EXTRA_KEYS`. Nothing official is renamed or recomputed.

Instruction transitions (the paper's Figure 7): for the task at position i of a session with task
labels t_0..t_i, the transition count is the number of j in 1..i with category(t_j) !=
category(t_{j-1}), i.e. the type changes the user made up to and including the switch into this
task. ``by_category`` uses the paper's four groups (single, multi, clarify, chat: the three
multi-tool labels are one group); ``by_label`` uses the six labels. Crashed sessions are skipped,
as for every task bucket.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from env_server.scoring.metrics import DIGITS, compute_report
from env_server.scoring.models import GoldSession, GoldTask, TaskType
from env_server.scoring.recovery import Recovery, total_recovery
from env_server.scoring.scorer import SessionScore, TaskScore
from env_server.scoring.utc_runs import run_unitoolcall, utc_table

METRICS_FILE = "metrics.json"
SUMMARY_FILE = "summary.md"
HTML_FILE = "report.html"
COMPARISON_MD = "comparison.md"
COMPARISON_HTML = "comparison.html"
COMPARISON_JSON = "comparison.json"

EXTRA_KEYS: dict[str, str] = {
    "paper_definitions": "OP/AP as the paper-era scorer defined them (doc 6.3); not the official numbers",
    "error_taxonomy": "shares of the paper's 9 error columns over failed tasks, plus fine-grained reasons (doc 6.4)",
    "instruction_transitions": "task accuracy by the number of task-type changes up to the task (paper Figure 7)",
    "task_labels": "one entry per scored task: correctness, labels and the taxonomy label of a failure",
    "fault_recovery": "injected faults (session fault options): faulted calls, the share recovered by a later "
                      "identical call that succeeded in the same task, by fault code; faulted calls are never scored",
    "unitoolcall": "UniToolCall SP/FP/SPA/FPA per call, turn and conversation, the hop/turn breakdown, macro "
                   "averages and prefix survival (sessions as dialogues, tasks as turns)",
    "extra_keys": "this legend",
}

CATEGORY_OF: dict[TaskType, str] = {
    TaskType.SINGLE: "single",
    TaskType.PARALLEL: "multi",
    TaskType.SEQUENTIAL: "multi",
    TaskType.MIXED: "multi",
    TaskType.CLARIFY: "clarify",
    TaskType.CHAT: "chat",
}


@dataclass(frozen=True, kw_only=True)
class ScoredRun:
    """One scored run, ready for reporting."""

    name: str
    sessions: tuple[SessionScore, ...]
    gold: Mapping[str, GoldSession] = field(default_factory=dict)
    queries: Mapping[str, Sequence[str]] = field(default_factory=dict)
    env_info: Mapping[str, str] = field(default_factory=dict)
    tools: Mapping[str, Sequence[dict[str, Any]]] = field(default_factory=dict)  # offered, per session, if recorded
    recovery: Mapping[str, Recovery] = field(default_factory=dict)  # injected faults, per session (run dirs only)
    source: str = ""

    @cached_property
    def report(self) -> dict[str, Any]:
        """``compute_report`` output (official layout plus paper definitions and taxonomy)."""
        return compute_report(self.sessions, self.name)

    def gold_task(self, session_id: str, position: int) -> GoldTask | None:
        session = self.gold.get(session_id)
        if session is None or position >= len(session.tasks):
            return None
        return session.tasks[position]

    def query(self, session_id: str, position: int) -> str | None:
        texts = self.queries.get(session_id)
        return texts[position] if texts is not None and position < len(texts) else None


def transition_counts(task_types: Sequence[TaskType], category: Callable[[TaskType], str] = CATEGORY_OF.__getitem__) -> list[int]:
    """Number of category changes up to each task (0 for the first task)."""
    counts: list[int] = []
    changes = 0
    for i, kind in enumerate(task_types):
        if i and category(kind) != category(task_types[i - 1]):
            changes += 1
        counts.append(changes)
    return counts


def _accuracy_by_transitions(sessions: Sequence[SessionScore], category: Callable[[TaskType], str]) -> dict[str, Any]:
    cells: dict[int, list[int]] = {}
    for session in sessions:
        if session.failed:
            continue
        counts = transition_counts([t.task_type for t in session.tasks], category)
        for task, n in zip(session.tasks, counts, strict=True):
            cell = cells.setdefault(n, [0, 0])
            cell[0] += task.correct
            cell[1] += 1
    return {
        str(n): {"accuracy": round(c / t, DIGITS) if t else 0.0, "correct_count": c, "total_count": t}
        for n, (c, t) in sorted(cells.items())
    }


def compute_transitions(sessions: Sequence[SessionScore]) -> dict[str, Any]:
    return {
        "definition": "changes of task type between consecutive tasks, counted up to and including the task",
        "by_category": _accuracy_by_transitions(sessions, CATEGORY_OF.__getitem__),
        "by_label": _accuracy_by_transitions(sessions, lambda kind: kind.value),
    }


def task_label_rows(sessions: Sequence[SessionScore]) -> list[dict[str, Any]]:
    rows = []
    for session in sessions:
        for task in session.tasks:
            rows.append({
                "session_id": session.session_id,
                "position": task.position,
                "task_type": task.task_type.value,
                "turn_subtype": task.turn_subtype.value if task.turn_subtype else None,
                "correct": task.correct,
                "action_name_ok": task.grade.action_name_ok,
                "arguments_ok": task.grade.arguments_ok,
                "is_optimal": task.grade.is_optimal,
                "error_column": task.error.column.value if task.error else None,
                "error_reason": task.error.reason.value if task.error else None,
                "error_detail": task.error.detail if task.error else None,
            })
    return rows


def metrics_document(run: ScoredRun) -> dict[str, Any]:
    """Official keys first, then the labelled extras of :data:`EXTRA_KEYS`."""
    doc = dict(run.report)
    doc["instruction_transitions"] = compute_transitions(run.sessions)
    doc["task_labels"] = task_label_rows(run.sessions)
    doc["fault_recovery"] = total_recovery(run.recovery).as_dict()
    doc["unitoolcall"] = run_unitoolcall(run)
    doc["extra_keys"] = EXTRA_KEYS
    return doc


# --- tables shared by the Markdown, HTML and console renderers --------------------------------

Table = tuple[list[str], list[list[str]]]


def _pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def bucket_table(buckets: Mapping[str, Mapping[str, Any]], first: str = "bucket") -> Table:
    rows = []
    for name, cell in buckets.items():
        values = list(cell.values())
        rows.append([name, _pct(values[0]), str(values[1]), str(values[2])])
    if "rate" in next(iter(buckets.values()), {}):
        return [first, "rate", "complete steps", "total steps"], rows
    return [first, "accuracy", "correct", "total"], rows


def taxonomy_table(taxonomy: Mapping[str, Any]) -> Table:
    rows = [[name, _pct(cell["share"]), str(cell["count"])] for name, cell in taxonomy["columns"].items()]
    return ["error column", "share of failed tasks", "count"], rows


def recovery_table(recovery: Mapping[str, Any]) -> Table:
    def row(name: str, cell: Mapping[str, Any], faulted: str, recovered: str, rate: str) -> list[str]:
        return [name, str(cell[faulted]), str(cell[recovered]), "—" if cell[rate] is None else _pct(cell[rate])]

    rows = [row(code, cell, "faulted", "recovered", "recovery") for code, cell in recovery["by_code"].items()]
    rows.append(row("all faults", recovery, "faulted_calls", "recovered", "recovery"))
    return ["fault", "faulted calls", "recovered", "recovery"], rows


def report_sections(doc: Mapping[str, Any]) -> list[tuple[str, Table]]:
    """(title, table) pairs in display order, for one run's metrics document."""
    paper = doc.get("paper_definitions", {})
    sections = [
        ("Overall", bucket_table(doc["total_info"], "unit")),
        ("By task type", bucket_table(doc["task_type_info"], "task type")),
        ("By position", bucket_table(doc["layer_info"], "position")),
        ("By hidden intent (subtype)", bucket_table(doc["turn_subtype_info"], "subtype")),
        ("OP rate (current definition)", bucket_table(doc["optimal_info"])),
        ("AP rate (current definition)", bucket_table(doc["progress_info"])),
    ]
    if paper:
        sections.append(("OP rate (paper definition)", bucket_table(paper["optimal_info"])))
        sections.append(("AP rate (paper definition)", bucket_table(paper["progress_info"])))
    if "error_taxonomy" in doc:
        sections.append((f"Error taxonomy ({doc['error_taxonomy']['failed_tasks']} failed tasks)",
                         taxonomy_table(doc["error_taxonomy"])))
    if "instruction_transitions" in doc:
        sections.append(("Accuracy by instruction transitions (category)",
                         bucket_table(doc["instruction_transitions"]["by_category"], "transitions")))
    recovery = doc.get("fault_recovery") or {}
    if recovery.get("faulted_calls"):
        sections.append(("Fault recovery (injected faults, never scored)", recovery_table(recovery)))
    if "unitoolcall" in doc:
        sections.append(("UniToolCall metrics (levels and hop/turn breakdown)", utc_table(doc["unitoolcall"])))
    return sections


def markdown_table(table: Table) -> str:
    header, rows = table

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    align = ["---"] + ["---:"] * (len(header) - 1)
    return "\n".join([line(header), "| " + " | ".join(align) + " |", *(line(r) for r in rows)])


MAX_FAILED_LISTED = 200


def failed_tasks(run: ScoredRun) -> list[tuple[SessionScore, TaskScore]]:
    return [(s, t) for s in run.sessions if not s.failed for t in s.tasks if not t.correct]


def render_markdown(run: ScoredRun, doc: Mapping[str, Any] | None = None) -> str:
    doc = doc if doc is not None else metrics_document(run)
    total = doc["total_info"]
    parts = [f"# Scoring report: {run.name}", ""]
    if run.source:
        parts += [f"Source: `{run.source}`", ""]
    parts += [
        f"Task accuracy **{_pct(total['task']['accuracy'])}** ({total['task']['correct_count']}/"
        f"{total['task']['total_count']}), session accuracy **{_pct(total['session']['accuracy'])}** "
        f"({total['session']['correct_count']}/{total['session']['total_count']}).",
        "",
        "Official numbers use the current definitions; the paper definitions, the error taxonomy and "
        "the transition table are our labelled extras (see `extra_keys` in metrics.json).",
    ]
    for title, table in report_sections(doc):
        parts += ["", f"## {title}", "", markdown_table(table)]
    crashed = [s for s in run.sessions if s.failed]
    if crashed:
        parts += ["", "## Crashed sessions", ""]
        parts += [f"- `{s.session_id}`: {s.failure}" for s in crashed]
    failed = failed_tasks(run)
    if failed:
        rows = [[s.session_id, str(t.position), t.task_type.value, t.error.column.value if t.error else "",
                 (t.error.reason.value + (f" ({t.error.detail})" if t.error.detail else "")) if t.error else ""]
                for s, t in failed[:MAX_FAILED_LISTED]]
        parts += ["", "## Failed tasks", "", markdown_table((["session", "position", "type", "column", "reason"], rows))]
        if len(failed) > MAX_FAILED_LISTED:
            parts.append(f"\n... and {len(failed) - MAX_FAILED_LISTED} more (all are in metrics.json `task_labels`).")
    return "\n".join(parts) + "\n"


# --- comparison of several runs ---------------------------------------------------------------


def _reader(*path: str) -> Callable[[Mapping[str, Any]], float]:
    """A getter of the value at ``path`` in a report document."""
    def read(doc: Mapping[str, Any]) -> float:
        value: Any = doc
        for key in path:
            value = value[key]
        return value
    return read


def comparison_rows(docs: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[float | None]]]:
    """(metric label, one value per run) rows; a value is a ratio, or None when a run lacks it."""
    specs: list[tuple[str, Callable[[Mapping[str, Any]], float]]] = [
        ("Task accuracy", _reader("total_info", "task", "accuracy")),
        ("Session accuracy", _reader("total_info", "session", "accuracy")),
    ]
    for key, label in (("task_type_info", "type"), ("layer_info", "position"), ("turn_subtype_info", "subtype")):
        for bucket in docs[0][key]:
            specs.append((f"{label}: {bucket}", _reader(key, bucket, "accuracy")))
    specs.append(("OP (current)", _reader("optimal_info", "Total", "accuracy")))
    specs.append(("AP (current)", _reader("progress_info", "Total", "rate")))
    specs.append(("OP (paper)", _reader("paper_definitions", "optimal_info", "Total", "accuracy")))
    specs.append(("AP (paper)", _reader("paper_definitions", "progress_info", "Total", "rate")))
    if "error_taxonomy" in docs[0]:
        for column in docs[0]["error_taxonomy"]["columns"]:
            specs.append((f"error share: {column}", _reader("error_taxonomy", "columns", column, "share")))
    rows = []
    for label, get in specs:
        values: list[float | None] = []
        for doc in docs:
            try:
                values.append(float(get(doc)))
            except (KeyError, TypeError):
                values.append(None)
        rows.append((label, values))
    return rows


def comparison_table(names: Sequence[str], docs: Sequence[Mapping[str, Any]]) -> Table:
    rows = [[label, *("—" if v is None else _pct(v) for v in values)] for label, values in comparison_rows(docs)]
    return ["metric", *names], rows


def unique_names(runs: Sequence[ScoredRun]) -> list[str]:
    """Run names made unique (``name``, ``name (2)``, ...) for columns and directories."""
    seen: dict[str, int] = {}
    out = []
    for run in runs:
        base = run.name or "run"
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base} ({seen[base]})")
    return out
