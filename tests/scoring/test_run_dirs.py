"""Run directories of ``toolenv eval`` scored with the offline engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from env_server.scoring.models import GoldSession, PredictedStep
from env_server.scoring.qaoa import session_to_qaoa
from env_server.scoring.report_files import write_reports
from env_server.scoring.runs import score_run_dir, steps_from_events
from tests.scoring.synthetic import oracle_steps, session_a


def transcript(session: GoldSession) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for t in session.tasks:
        events.append({"type": "message", "role": "user", "task": t.position, "kind": "task", "content": f"q{t.position}"})
        for k, step in enumerate(oracle_steps(t)):
            if step.calls:
                for n, c in enumerate(step.calls):
                    events.append({"type": "tool_call", "task": t.position, "step_id": f"{t.position}-{k}",
                                   "call_id": f"c{n}", "name": c.name, "arguments": json.loads(c.arguments)})
                    events.append({"type": "tool_result", "task": t.position, "step_id": f"{t.position}-{k}",
                                   "call_id": f"c{n}", "name": c.name, "is_error": False, "content": "{}"})
            else:
                events.append({"type": "message", "role": "assistant", "task": t.position, "content": step.content})
    return events


def write_run(root: Path) -> Path:
    gold = session_a("s0")
    (root / "sessions").mkdir(parents=True)
    (root / "config.json").write_text(json.dumps({"run": "oracle", "scenarios": ["s0", "s1"]}))
    lines = [{"type": "session", "scenario_id": "s0", "env_info": "2024-05-06", "task_count": 4}, *transcript(gold),
             {"type": "calls", "calls": []}, {"type": "result", "tasks": []}]
    (root / "sessions" / "s0.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    crashed = [{"type": "session", "scenario_id": "s1", "task_count": 4}, {"type": "error", "message": "boom"}]
    (root / "sessions" / "s1.jsonl").write_text("".join(json.dumps(x) + "\n" for x in crashed))
    return root


def test_transcript_events_rebuild_the_model_steps() -> None:
    gold = session_a("s0")
    steps = steps_from_events(transcript(gold), 4)
    def shape(step: PredictedStep) -> tuple[Any, ...]:
        return step.content, [(c.name, c.arguments) for c in step.calls]

    assert [[shape(s) for s in task] for task in steps] == [[shape(s) for s in oracle_steps(t)] for t in gold.tasks]


def test_run_directory_scores_and_reports_like_an_official_file(tmp_path: Path) -> None:
    golds = {"s0": session_a("s0"), "s1": session_a("s1")}
    run = score_run_dir(write_run(tmp_path / "run"), golds.get)
    assert run.name == "oracle"
    assert run.report["total_info"]["task"] == {"accuracy": 1.0, "correct_count": 4, "total_count": 4}
    assert run.report["total_info"]["session"]["total_count"] == 2  # the crashed session counts as failed
    assert run.query("s0", 2) == "q2"
    paths = write_reports(run, tmp_path / "out")
    assert "boom" in paths["summary"].read_text()
    item = session_to_qaoa(run, run.sessions[0])
    assert item is not None and item["system"].startswith("Current Date: 2024-05-06")


def test_run_reports_carry_unitoolcall_metrics_with_the_breakdown(tmp_path: Path) -> None:
    golds = {"s0": session_a("s0"), "s1": session_a("s1")}
    paths = write_reports(score_run_dir(write_run(tmp_path / "run"), golds.get), tmp_path / "out")
    utc = json.loads(paths["metrics"].read_text())["unitoolcall"]
    assert utc["turn"]["units"] == 4 and utc["conversation"]["units"] == 1  # the crashed session is left out
    # the oracle: every turn with calls is exact; the chat turn has none and scores 0, as in the published code
    assert utc["turn"]["SPA"] == 0.75 and utc["conversation"]["SP"] == 1.0
    assert set(utc["breakdown"]) == {"single-hop", "multi-hop", "single-turn", "multi-turn"}
    assert utc["breakdown"]["multi-turn"]["SP"] == 1.0
    assert "UniToolCall metrics" in paths["summary"].read_text()
    assert "UniToolCall metrics" in paths["html"].read_text()
