"""Write the report files of one run, or of several runs with a comparison table.

Layout for one run: ``OUT/metrics.json``, ``OUT/summary.md``, ``OUT/report.html``. For several
runs: each run's three files in ``OUT/<run name>/``, plus ``OUT/comparison.md``,
``OUT/comparison.json`` and ``OUT/comparison.html`` (which links to each run's report).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from env_server.scoring.report import (
    COMPARISON_HTML,
    COMPARISON_JSON,
    COMPARISON_MD,
    HTML_FILE,
    METRICS_FILE,
    SUMMARY_FILE,
    ScoredRun,
    comparison_rows,
    comparison_table,
    markdown_table,
    metrics_document,
    render_markdown,
    unique_names,
)
from env_server.scoring.report_html import render_comparison_html, render_html


def write_reports(run: ScoredRun, out_dir: str | Path) -> dict[str, Path]:
    """Write metrics.json, summary.md and report.html into ``out_dir``; return their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    doc = metrics_document(run)
    paths = {"metrics": out / METRICS_FILE, "summary": out / SUMMARY_FILE, "html": out / HTML_FILE}
    paths["metrics"].write_text(json.dumps(doc, indent=4, ensure_ascii=False), encoding="utf-8")
    paths["summary"].write_text(render_markdown(run, doc), encoding="utf-8")
    paths["html"].write_text(render_html(run, doc), encoding="utf-8")
    return paths


def dir_names(names: Sequence[str]) -> list[str]:
    """File-system-safe, distinct directory names for the runs."""
    out: list[str] = []
    for name in names:
        base = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "run"
        candidate, k = base, 1
        while candidate in out:
            k += 1
            candidate = f"{base}-{k}"
        out.append(candidate)
    return out


def write_comparison(runs: Sequence[ScoredRun], out_dir: str | Path) -> dict[str, Path]:
    """Each run's reports in ``out_dir/<name>/``, plus comparison.{md,html,json} in ``out_dir``."""
    out = Path(out_dir)
    names = unique_names(runs)
    docs = []
    paths: dict[str, Path] = {}
    dirs = dir_names(names)
    for name, sub, run in zip(names, dirs, runs, strict=True):
        written = write_reports(run, out / sub)
        paths[f"{name}/html"] = written["html"]
        docs.append(json.loads(written["metrics"].read_text(encoding="utf-8")))
    table = comparison_table(names, docs)
    paths["comparison_md"] = out / COMPARISON_MD
    paths["comparison_md"].write_text(f"# Run comparison\n\n{markdown_table(table)}\n", encoding="utf-8")
    paths["comparison_json"] = out / COMPARISON_JSON
    paths["comparison_json"].write_text(
        json.dumps({"runs": names, "rows": [{"metric": m, "values": v} for m, v in comparison_rows(docs)]},
                   indent=2, ensure_ascii=False),
        encoding="utf-8",
    )
    paths["comparison_html"] = out / COMPARISON_HTML
    links = {name: f"{sub}/{HTML_FILE}" for name, sub in zip(names, dirs, strict=True)}
    paths["comparison_html"].write_text(render_comparison_html(names, docs, links), encoding="utf-8")
    return paths
