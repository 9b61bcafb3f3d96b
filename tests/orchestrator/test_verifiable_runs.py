"""``toolenv verify`` on a real oracle run of two built-in scenarios (in process, uvicorn + MCP)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clients.eval_cli import eval_app
from clients.run_chain import MANIFEST, chain_records, head_of, run_head, strip_chain
from clients.verify_cli import verify_app

SCENARIOS = ("airport_ride_home", "kanban_bug_triage")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs")
    args = ["--agent", "oracle", "--out", str(out)] + [a for s in SCENARIOS for a in ("--scenario", s)]
    result = CliRunner().invoke(eval_app, args)
    assert result.exit_code == 0, result.output
    return out / "oracle"


@pytest.fixture
def run(recorded: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(recorded, copy)
    return copy


def _lines(path: Path) -> list[dict]:
    return [json.loads(t) for t in path.read_text().splitlines()]


def _write(path: Path, lines: list[dict]) -> None:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def _verify(run: Path) -> tuple[int, str]:
    result = CliRunner().invoke(verify_app, [str(run)])
    return result.exit_code, result.output


def test_an_untouched_run_verifies_and_the_manifest_records_its_inputs(run: Path) -> None:
    manifest = json.loads((run / MANIFEST).read_text())
    assert sorted(manifest["scenarios"]) == list(SCENARIOS)
    assert manifest["scenarios"]["airport_ride_home"]["seed"] == 17 and manifest["catalog"]["tools"] > 1000
    for name in SCENARIOS:
        lines = _lines(run / "sessions" / f"{name}.jsonl")
        assert manifest["chains"][name] == lines[-1]["hash"] and lines[0]["prev_hash"] == "0" * 64
    code, output = _verify(run)
    assert code == 0, output
    assert "2 sessions" in output and "OK: chain intact" in output


def test_an_edited_observation_fails_naming_its_record(run: Path) -> None:
    path = run / "sessions" / "airport_ride_home.jsonl"
    lines = _lines(path)
    number = next(i for i, line in enumerate(lines, start=1) if line["type"] == "tool_result")
    lines[number - 1]["content"] = lines[number - 1]["content"].replace('"', "'", 2)
    _write(path, lines)
    code, output = _verify(run)
    assert code == 1
    assert f"sessions/airport_ride_home.jsonl line {number} (tool_result record): content changed" in output
    assert f"line {number}: tool result" in output and "differs: recorded" in output  # the replay says what differs


def test_a_changed_catalog_digest_is_named(run: Path) -> None:
    manifest = json.loads((run / MANIFEST).read_text())
    manifest["catalog"]["digest"] = "f" * 64
    (run / MANIFEST).write_text(json.dumps(manifest))
    code, output = _verify(run)
    assert code == 1 and f"catalog: digest differs: manifest {'f' * 64}" in output


# Under the slow mark (CI runs it too): a server process or 300 environments, 4-7 s of the default run.
@pytest.mark.slow
def test_a_removed_record_is_named_in_the_middle_and_at_the_end(run: Path) -> None:
    path = run / "sessions" / "kanban_bug_triage.jsonl"
    lines = _lines(path)
    _write(path, lines[:4] + lines[5:])
    code, output = _verify(run)
    assert code == 1
    assert "kanban_bug_triage.jsonl line 5 (" in output and "prev_hash does not match the hash of line 4" in output
    _write(path, lines[:-1])
    code, output = _verify(run)
    assert code == 1 and f"ends at line {len(lines) - 1}" in output and "records were removed" in output


def test_a_forged_call_record_with_a_rebuilt_chain_is_caught_by_the_replay(run: Path) -> None:
    path = run / "sessions" / "airport_ride_home.jsonl"
    lines = [strip_chain(line) for line in _lines(path)]
    calls = next(line for line in lines if line["type"] == "calls")
    calls["calls"][0]["result"] = {"forged": True}
    chained = chain_records(lines)
    _write(path, chained)
    manifest = json.loads((run / MANIFEST).read_text())
    manifest["chains"]["airport_ride_home"] = head_of(chained)
    manifest["chain_head"] = run_head(manifest["chains"])
    (run / MANIFEST).write_text(json.dumps(manifest))
    code, output = _verify(run)
    assert code == 1 and "content changed" not in output
    assert "airport_ride_home.jsonl: call record 0 differs in result" in output


def test_a_run_with_seeded_faults_replays_the_same_faults_and_verifies(tmp_path: Path) -> None:
    faults = '{"seed": 3, "rate_limit": 0.3, "server_error": 0.2}'
    args = ["--agent", "oracle", "--scenario", SCENARIOS[0], "--faults", faults, "--out", str(tmp_path)]
    result = CliRunner().invoke(eval_app, args)
    assert result.exit_code == 0, result.output
    run = tmp_path / "oracle"
    assert json.loads((run / MANIFEST).read_text())["config"]["faults"]["rate_limit"] == 0.3
    assert '"faulted_calls": 0' not in (run / "summary.json").read_text()
    code, output = _verify(run)
    assert code == 0, output
