"""Self-contained ``report.html`` (and ``comparison.html``): tables, inline SVG charts, drill-down.

One file, inline CSS, no scripts and no external resources. Sections: overview, the metric
tables of :func:`report.report_sections`, the error-taxonomy bar chart, accuracy against
instruction transitions (paper Figure 7), and one collapsible block per session (failed sessions
first) with the transcript of each task: the user message, each model step, each call marked as
in :mod:`env_server.scoring.transcript` with its reason, the observation fed back, and the user's
reply to a clarifying question.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from env_server.scoring.report import (
    ScoredRun,
    Table,
    comparison_rows,
    comparison_table,
    metrics_document,
    report_sections,
)
from env_server.scoring.scorer import SessionScore, TaskScore
from env_server.scoring.svg import hbar_chart, line_chart
from env_server.scoring.transcript import StepView, task_steps

MAX_TEXT = 800
CSS = """
body{font-family:system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#222;line-height:1.4}
h1{font-size:1.6em}h2{border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:32px}
table{border-collapse:collapse;margin:8px 0 16px}th,td{border:1px solid #ddd;padding:3px 8px;vertical-align:top}
th{background:#f4f4f4;text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}
.grid{display:flex;flex-wrap:wrap;gap:24px}.grid>div{flex:1 1 320px}
details.session{border:1px solid #ccc;border-radius:4px;margin:6px 0;padding:4px 8px}
details.session>summary{cursor:pointer;font-weight:600}
.ok{color:#1a7f37}.bad{color:#c62828}.muted{color:#777}
.task{margin:10px 0 14px 8px}.query{background:#f1f6ff;padding:4px 8px;border-left:3px solid #4c72b0}
pre{margin:0;white-space:pre-wrap;word-break:break-word;font-size:12px}
tr.mark-matched td.mark{background:#e6f4ea}tr.mark-argument-error td.mark{background:#fdecea}
tr.mark-mismatched td.mark{background:#fff0d6}tr.mark-not-graded td.mark{background:#f0f0f0}
tr.text-ok td.mark{background:#e6f4ea}tr.text-bad td.mark{background:#fff0d6}
nav a{margin-right:12px}
"""


def _clip(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + f" ... [{len(text) - MAX_TEXT} more chars]"


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower()).strip("-")


def html_table(table: Table, cls: str = "") -> str:
    header, rows = table
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    cell = ("<td>{}</td>", "<td class='num'>{}</td>")
    body = "".join(
        "<tr>" + "".join(cell[k > 0].format(escape(c)) for k, c in enumerate(row)) + "</tr>" for row in rows
    )
    return f"<table class='{cls}'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def taxonomy_chart(doc: Mapping[str, Any]) -> str:
    taxonomy = doc["error_taxonomy"]
    items = [(name, float(cell["share"]), f"({cell['count']})") for name, cell in taxonomy["columns"].items()]
    top = max((v for _, v, _ in items), default=0.0)
    return hbar_chart(items, title=f"Error taxonomy: share of {taxonomy['failed_tasks']} failed tasks",
                      max_value=max(top, 0.05))


def transitions_chart(doc: Mapping[str, Any]) -> str:
    buckets = doc["instruction_transitions"]["by_category"]
    points = [(n, float(c["accuracy"]), int(c["total_count"])) for n, c in buckets.items()]
    return line_chart(points, title="Task accuracy vs. instruction transitions",
                      x_label="task-type changes up to the task (single / multi / clarify / chat)")


def _step_rows(steps: Sequence[StepView]) -> str:
    rows = []
    for view in steps:
        if view.text and view.calls:
            rows.append(f"<tr class='text'><td class='num'>{view.index}</td><td>text</td>"
                        f"<td colspan='4'><pre>{escape(_clip(view.text))}</pre></td></tr>")
        for call in view.calls:
            mark = call.mark.value
            obs = escape(_clip(call.observation)) if call.has_observation else "<span class='muted'>none</span>"
            rows.append(
                f"<tr class='call mark-{_slug(mark)}' data-mark='{escape(mark, quote=True)}'>"
                f"<td class='num'>{view.index}</td><td>call</td>"
                f"<td><b>{escape(call.name)}</b><pre>{escape(_clip(call.arguments))}</pre></td>"
                f"<td class='mark'>{escape(mark)}</td><td>{escape(call.reason)}</td><td><pre>{obs}</pre></td></tr>"
            )
        if not view.calls:
            ok = view.status.name_ok
            text = escape(_clip(view.text)) if view.text else "<span class='muted'>(empty reply)</span>"
            rows.append(
                f"<tr class='text text-{'ok' if ok else 'bad'}' data-mark='{escape(view.status.value, quote=True)}'>"
                f"<td class='num'>{view.index}</td><td>text</td><td><pre>{text}</pre></td>"
                f"<td class='mark'>{escape(view.status.value)}</td><td>{escape(view.reason)}</td><td></td></tr>"
            )
        if view.user_reply is not None:
            rows.append(f"<tr class='reply'><td></td><td>user</td><td colspan='4'><pre>{escape(_clip(view.user_reply))}"
                        f"</pre></td></tr>")
    head = "<tr><th>step</th><th>kind</th><th>content</th><th>verdict</th><th>reason</th><th>observation</th></tr>"
    return f"<table class='steps'><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"


def _task_block(run: ScoredRun, session: SessionScore, task: TaskScore) -> str:
    verdict = "<span class='ok'>correct</span>" if task.correct else "<span class='bad'>failed</span>"
    bits = [task.task_type.value]
    if task.turn_subtype:
        bits.append(task.turn_subtype.value)
    if task.task_type.value in ("Parallel Multi-Tool", "Mixed Multi-Tool"):
        bits.append("optimal" if task.grade.is_optimal else "not optimal")
    error = ""
    if task.error is not None:
        detail = f": {escape(task.error.detail)}" if task.error.detail else ""
        error = f"<div class='bad'>{escape(task.error.column.value)} ({escape(task.error.reason.value)}){detail}</div>"
    query = run.query(session.session_id, task.position)
    query_html = f"<div class='query'>{escape(_clip(query))}</div>" if query else ""
    steps = task_steps(task, run.gold_task(session.session_id, task.position))
    return (f"<div class='task' data-position='{task.position}'><div><b>Task {task.position}</b> "
            f"({escape(', '.join(bits))}): {verdict}</div>{error}{query_html}{_step_rows(steps)}</div>")


def session_block(run: ScoredRun, session: SessionScore) -> str:
    sid = escape(session.session_id, quote=True)
    if session.failed:
        return (f"<details class='session' data-session='{sid}' data-correct='false'><summary class='bad'>"
                f"{escape(session.session_id)}: crashed</summary><pre>{escape(session.failure)}</pre></details>")
    good = sum(t.correct for t in session.tasks)
    cls = "ok" if session.correct else "bad"
    tasks = "".join(_task_block(run, session, t) for t in session.tasks)
    return (f"<details class='session' id='s-{_slug(session.session_id)}' data-session='{sid}' "
            f"data-correct='{str(session.correct).lower()}'><summary class='{cls}'>{escape(session.session_id)}: "
            f"{good}/{len(session.tasks)} tasks correct</summary>{tasks}</details>")


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title>"
            f"<style>{CSS}</style></head><body>{body}</body></html>\n")


def render_html(run: ScoredRun, doc: Mapping[str, Any] | None = None) -> str:
    doc = doc if doc is not None else metrics_document(run)
    total = doc["total_info"]
    overview = (
        f"<p>Task accuracy <b>{total['task']['accuracy'] * 100:.1f}%</b> ({total['task']['correct_count']}/"
        f"{total['task']['total_count']}), session accuracy <b>{total['session']['accuracy'] * 100:.1f}%</b> "
        f"({total['session']['correct_count']}/{total['session']['total_count']}).</p>"
        "<p class='muted'>Official numbers use the current definitions. Paper definitions, the error taxonomy "
        "and the transition chart are labelled extras.</p>"
    )
    recovery = doc.get("fault_recovery") or {}
    if recovery.get("faulted_calls"):
        overview += (f"<p id='fault-recovery'>Injected faults: {recovery['faulted_calls']} calls (never scored); "
                     f"recovery <b>{recovery['recovery'] * 100:.1f}%</b> ({recovery['recovered']} retried to success)."
                     "</p>")
    if run.source:
        overview += f"<p class='muted'>Source: {escape(run.source)}</p>"
    tables = "".join(
        f"<div><h3>{escape(title)}</h3>{html_table(table, _slug(title))}</div>" for title, table in report_sections(doc)
    )
    charts = (f"<h2 id='taxonomy'>Error taxonomy</h2><div class='figure' id='taxonomy-chart'>{taxonomy_chart(doc)}</div>"
              f"<h2 id='transitions'>Instruction transitions</h2><div class='figure' id='transitions-chart'>"
              f"{transitions_chart(doc)}</div>")
    ordered = sorted(run.sessions, key=lambda s: s.correct)  # failed sessions first, stable otherwise
    drill = "".join(session_block(run, s) for s in ordered)
    nav = ("<nav><a href='#tables'>tables</a><a href='#taxonomy'>taxonomy</a><a href='#transitions'>transitions</a>"
           "<a href='#sessions'>sessions</a></nav>")
    body = (f"<h1>Scoring report: {escape(run.name)}</h1>{nav}{overview}<h2 id='tables'>Tables</h2>"
            f"<div class='grid'>{tables}</div>{charts}<h2 id='sessions'>Sessions ({len(run.sessions)}, failed first)"
            f"</h2><div id='drilldown'>{drill}</div>")
    return _page(f"Scoring report: {run.name}", body)


def render_comparison_html(names: Sequence[str], docs: Sequence[Mapping[str, Any]], links: Mapping[str, str]) -> str:
    rows = comparison_rows(docs)
    head = [(f"{name} task", v) for label, values in rows[:1] for name, v in zip(names, values, strict=True)]
    items = [(label, value or 0.0, "") for label, value in head]
    link_html = "".join(f"<li><a href='{escape(links[n], quote=True)}'>{escape(n)}</a></li>" for n in names)
    body = (f"<h1>Run comparison</h1><ul>{link_html}</ul><div class='figure'>"
            f"{hbar_chart(items, title='Task accuracy by run')}</div>"
            f"{html_table(comparison_table(names, docs), 'comparison')}")
    return _page("Run comparison", body)
