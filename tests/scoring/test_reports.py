"""Reports (metrics.json, summary.md, report.html), instruction transitions, run comparison."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from env_server.scoring.cli import score_app
from env_server.scoring.models import GoldSession, GoldTask, PredictedStep, TaskType
from env_server.scoring.report import ScoredRun, comparison_rows, compute_transitions, transition_counts
from env_server.scoring.report_files import write_comparison, write_reports
from env_server.scoring.report_html import render_html
from env_server.scoring.runs import load_official_run
from env_server.scoring.taxonomy import ErrorColumn
from tests.scoring.synthetic import (
    call,
    chat_task,
    oracle_steps,
    parallel_task,
    run_session,
    sequential_task,
    session_a,
    session_b,
    single_task,
)
from tests.scoring.test_official import official_tree  # noqa: F401  (fixture)

OFFICIAL_KEYS = ["model_name", "total_info", "task_type_info", "layer_info", "turn_subtype_info", "optimal_info",
                 "progress_info"]


class _Html(HTMLParser):
    """Collects the elements the tests look at, with the ids of their enclosing figures."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.bars: dict[str, list[dict[str, str]]] = {}
        self.points: list[dict[str, str]] = []
        self.rows: list[dict[str, str]] = []
        self.sessions: list[dict[str, str]] = []
        self.svg_count = 0
        self.external: list[str] = []
        self._row: dict[str, str] | None = None

    def _figure(self) -> str:
        return next((a.get("id", "") for t, a in reversed(self.stack) if a.get("class") == "figure"), "")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag not in ("br", "meta", "line", "polyline"):
            self.stack.append((tag, a))
        if tag in ("script", "link", "img") or a.get("src") or (a.get("href", "").startswith("http")):
            self.external.append(tag)
        if tag == "svg":
            self.svg_count += 1
        if tag == "rect" and a.get("class") == "bar":
            self.bars.setdefault(self._figure(), []).append(a)
        if tag == "circle" and a.get("class") == "point":
            self.points.append(a)
        if tag == "details" and "session" in a.get("class", ""):
            self.sessions.append(a)
        if tag == "tr" and "data-mark" in a:
            self._row = {"mark": a["data-mark"], "text": "", "session": self.sessions[-1]["data-session"]}
            self.rows.append(self._row)

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break
        if tag == "tr":
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._row is not None:
            self._row["text"] += data


def parse(html: str) -> _Html:
    parser = _Html()
    parser.feed(html)
    return parser


def wrong_value_agent(gold: GoldTask) -> list[PredictedStep]:
    if gold.task_type is TaskType.SINGLE:
        return [PredictedStep.tools(call("getWeather", city="Bergen", days=3)), PredictedStep.text("Cold.")]
    return oracle_steps(gold)


def test_official_run_writes_metrics_summary_and_html(official_tree: Path, tmp_path: Path) -> None:  # noqa: F811
    paths = write_reports(load_official_run(official_tree), tmp_path / "out")
    metrics = json.loads(paths["metrics"].read_text())
    assert list(metrics)[:7] == OFFICIAL_KEYS
    assert set(metrics["extra_keys"]) <= set(metrics)
    assert metrics["error_taxonomy"]["columns"]["Wrong Refusal"]["count"] == 1
    assert len(metrics["task_labels"]) == 8
    summary = paths["summary"].read_text()
    for heading in ("## By task type", "## By position", "## By hidden intent (subtype)", "## Error taxonomy"):
        assert heading in summary
    assert "| Chat | 50.0% | 1 | 2 |" in summary
    page = parse(paths["html"].read_text())
    assert page.external == []
    bars = page.bars["taxonomy-chart"]
    assert [b["data-label"] for b in bars] == [c.value for c in ErrorColumn]
    assert {b["data-label"]: float(b["data-value"]) for b in bars}["Wrong Refusal"] == 1.0
    assert [p["data-label"] for p in page.points] == list(metrics["instruction_transitions"]["by_category"])
    chat_rows = [r for r in page.rows if r["session"] == "wild_tool_bench_1" and r["mark"] == "mismatched"]
    assert len(chat_rows) == 1 and "getWeather" in chat_rows[0]["text"]
    assert "action name not in candidate_answer_function_list" in chat_rows[0]["text"]
    assert [s["data-session"] for s in page.sessions][:2] == ["wild_tool_bench_1", "wild_tool_bench_2"]  # failed first


def test_drilldown_marks_an_argument_error_with_the_checker_reason() -> None:
    gold = session_b()
    run = ScoredRun(name="m", sessions=(run_session(gold, wrong_value_agent),), gold={gold.session_id: gold})
    page = parse(render_html(run))
    marks = [r["mark"] for r in page.rows]
    assert marks.count("argument error") == 1
    bad = next(r for r in page.rows if r["mark"] == "argument error")
    assert "Bergen" in bad["text"] and "city" in bad["text"]
    assert "matched" in marks and "answered" in marks
    assert page.svg_count == 2


def test_transition_counts_count_category_changes_up_to_each_task() -> None:
    kinds = [TaskType.PARALLEL, TaskType.MIXED, TaskType.CHAT, TaskType.CHAT, TaskType.SINGLE]
    assert transition_counts(kinds) == [0, 0, 1, 1, 2]
    assert transition_counts(kinds, lambda k: k.value) == [0, 1, 2, 2, 3]
    assert transition_counts([]) == []


def test_transition_accuracy_buckets_hand_made_sessions() -> None:
    same = GoldSession(session_id="s", tasks=[single_task(0), single_task(1), single_task(2)])
    mixed = GoldSession(session_id="m", tasks=[parallel_task(0), chat_task(1), sequential_task(2)])

    def fail_chat(gold: GoldTask) -> list[PredictedStep]:
        return [PredictedStep.tools(call("getAQI", city="Oslo"))] if gold.task_type is TaskType.CHAT else oracle_steps(gold)

    result = compute_transitions([run_session(same, oracle_steps), run_session(mixed, fail_chat)])
    by_category = result["by_category"]
    assert by_category["0"] == {"accuracy": 1.0, "correct_count": 4, "total_count": 4}
    assert by_category["1"] == {"accuracy": 0.0, "correct_count": 0, "total_count": 1}
    assert by_category["2"] == {"accuracy": 1.0, "correct_count": 1, "total_count": 1}


def _run(name: str, agent: Any) -> ScoredRun:
    sessions = [session_a("a"), session_b("b")]
    return ScoredRun(name=name, sessions=tuple(run_session(s, agent) for s in sessions),
                     gold={s.session_id: s for s in sessions})


def test_comparison_of_two_runs_has_one_column_per_run(tmp_path: Path) -> None:
    runs = [_run("oracle", oracle_steps), _run("oracle", wrong_value_agent)]
    paths = write_comparison(runs, tmp_path)
    data = json.loads(paths["comparison_json"].read_text())
    assert data["runs"] == ["oracle", "oracle (2)"]
    rows = {row["metric"]: row["values"] for row in data["rows"]}
    assert rows["Task accuracy"] == [1.0, 0.875]
    assert rows["type: Single-Tool"] == [1.0, 0.0]
    assert rows["error share: Param Value Error"] == [0.0, 1.0]
    assert "| Task accuracy | 100.0% | 87.5% |" in paths["comparison_md"].read_text()
    assert (tmp_path / "oracle" / "report.html").exists() and (tmp_path / "oracle_2" / "report.html").exists()
    page = parse(paths["comparison_html"].read_text())
    assert [float(b["data-value"]) for bars in page.bars.values() for b in bars] == [1.0, 0.875]
    assert len(comparison_rows([json.loads((tmp_path / "oracle" / "metrics.json").read_text())])[0][1]) == 1


def test_cli_report_writes_files_and_prints_a_comparison_for_two_inputs(official_tree: Path, tmp_path: Path) -> None:  # noqa: F811
    one = CliRunner().invoke(score_app, ["report", str(official_tree), "--out", str(tmp_path / "one")])
    assert one.exit_code == 0, one.output
    assert (tmp_path / "one" / "report.html").exists() and "By task type" in one.output
    two = CliRunner().invoke(score_app, ["report", str(official_tree), str(official_tree), "--out", str(tmp_path / "two"),
                                         "--mode", "paper"])
    assert two.exit_code == 0, two.output
    assert "Run comparison" in two.output and (tmp_path / "two" / "comparison.html").exists()
