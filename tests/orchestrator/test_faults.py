"""Seeded fault injection over the real server: REST options, MCP results, the call log, scoring."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from typer.testing import CliRunner

from clients.agent_runner import RunConfig, run_eval
from clients.agents import OracleAgent
from clients.eval_cli import eval_app
from env_server.orchestrator.gold import gold_session
from env_server.orchestrator.validate import resolve_tools
from env_server.runner import serve_in_thread
from env_server.scoring.report_files import write_reports
from env_server.scoring.runs import score_run_dir
from state import ErrorKind

SHOWS = ["ticketmaster_search_shows", "ticketmaster_book_tickets", "ticketmaster_list_bookings"]
# Single, parallel calls of one tool, mixed, sequential and clarification tasks between them.
SAMPLE = ["airport_ride_home", "oslo_bergen_trip_weather", "reading_list_authors", "film_club_schedule"]
# Enough faults that every sample session meets some, fast timeouts.
HEAVY = {"seed": 2, "rate_limit": 0.25, "timeout": 0.1, "server_error": 0.15, "slow_ms": 5}


@pytest.fixture
def server(live):
    env, _ = live
    with serve_in_thread(env) as base:
        yield base


def _tool_session(base: str, faults: Any) -> dict[str, Any]:
    created = httpx.post(f"{base}/v1/sessions", json={"tools": SHOWS, "seed": 3, "faults": faults})
    assert created.status_code == 201, created.text
    return created.json()


@pytest.mark.parametrize(("faults", "named"), [
    ({"rate_limit": 1.5}, "rate_limit"),
    ({"timeout": -0.1}, "timeout"),
    ({"seed": 1, "retries": 2}, "retries"),
    ("sometimes", "sometimes"),
    ({"profile": "chaotic"}, "profile"),
    ({"slow_ms": 10**9}, "slow_ms"),
])
def test_bad_fault_options_are_refused_with_422_naming_the_problem(server, faults, named):
    for body in ({"scenario_id": "airport_ride_home", "faults": faults}, {"tools": SHOWS, "faults": faults}):
        answer = httpx.post(f"{server}/v1/sessions", json=body)
        assert answer.status_code == 422, answer.text
        assert named in answer.text


def test_a_profile_name_is_resolved_and_echoed_on_create(server):
    created = httpx.post(f"{server}/v1/scenario-sessions",
                         json={"scenario_id": "airport_ride_home", "faults": {"profile": "flaky", "seed": 4}})
    assert created.status_code == 201, created.text
    assert created.json()["faults"] == {"profile": "flaky", "seed": 4, "rate_limit": 0.1, "timeout": 0.05,
                                        "server_error": 0.05, "slow_ms": 200, "max_retry_after": 3}


def test_a_faulted_write_changes_no_state_and_is_logged_as_a_fault(live, server):
    env, _ = live
    sid = _tool_session(server, {"rate_limit": 1.0, "max_retry_after": 2})["session"]["session_id"]
    plain = _tool_session(server, None)["session"]["session_id"]  # same seed, same world, no faults
    before = env.state_digest(sid)

    async def book(session_id: str, show_id: str) -> Any:
        async with Client(f"{server}/sessions/{session_id}/mcp") as client:
            return await client.call_tool("ticketmaster_book_tickets", {
                "show_id": show_id, "quantity": 2, "customer_name": "Ana Diaz", "customer_email": "ana@example.com"})

    async def first_show() -> str:
        async with Client(f"{server}/sessions/{plain}/mcp") as client:
            shows = await client.call_tool("ticketmaster_search_shows", {"city": "Las Vegas", "size": 2})
            return str(shows.structured_content["shows"][0]["show_id"])

    show_id = anyio.run(first_show)
    result = anyio.run(book, sid, show_id)

    assert result.is_error and result.meta is not None and result.meta["toolenv/fault"] == "rate_limited"
    body = json.loads(result.content[0].text)
    assert body["error"]["status"] == 429 and body["error"]["code"] == "rate_limited"
    assert body["error"]["retry_after"] in (1, 2)
    assert env.state_digest(sid) == before
    [record] = env.calls(sid)
    assert record.error_kind is ErrorKind.FAULT and record.result == body
    # The same call without faults is a write: it does change the world.
    plain_before = env.state_digest(plain)
    assert not anyio.run(book, plain, show_id).is_error
    assert env.state_digest(plain) != plain_before


def test_a_timeout_answers_after_slow_ms_while_the_server_keeps_serving(server):
    sid = _tool_session(server, {"timeout": 1.0, "slow_ms": 600})["session"]["session_id"]
    finished: dict[str, float] = {}

    async def main() -> None:
        async with Client(f"{server}/sessions/{sid}/mcp") as client:
            async def call() -> None:
                result = await client.call_tool("ticketmaster_list_bookings", {})
                assert json.loads(result.content[0].text)["error"] == {
                    "status": 504, "code": "timeout", "timeout_ms": 600,
                    "message": "The API did not answer within 600 ms; the request timed out."}
                finished["call"] = time.monotonic()

            async def health() -> None:
                await anyio.sleep(0.1)
                async with httpx.AsyncClient() as http:
                    assert (await http.get(f"{server}/v1/health")).status_code == 200
                finished["health"] = time.monotonic()

            start = time.monotonic()
            async with anyio.create_task_group() as group:
                group.start_soon(call)
                group.start_soon(health)
            assert finished["call"] - start >= 0.6
            assert finished["health"] < finished["call"] - 0.2  # the wait did not hold the event loop

    anyio.run(main)


def _faulted_calls(run_dir: Path) -> list[tuple[str, str, str, str]]:
    out = []
    for path in sorted((run_dir / "sessions").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if record["type"] == "calls":
                out += [(path.stem, c["name"], json.dumps(c["arguments"], sort_keys=True), c["fault"])
                        for c in record["calls"] if c["fault"]]
    return out


def _run(base: str, env: Any, scenarios: list[Any], agent: Any, faults: dict[str, Any], run_dir: Path) -> dict:
    config = RunConfig(agent="oracle", concurrency=2, faults=faults, admin_token=env.settings.admin_token)
    return anyio.run(run_eval, base, scenarios, agent, config, run_dir)


def test_same_fault_seed_faults_the_same_calls_and_the_oracle_still_scores_every_task(
        live, server, builtin_scenarios, tmp_path):
    env, _ = live
    chosen = [builtin_scenarios.get(s) for s in SAMPLE]
    first = _run(server, env, chosen, OracleAgent, HEAVY, tmp_path / "a")
    again = _run(server, env, chosen, OracleAgent, HEAVY, tmp_path / "b")
    other = _run(server, env, chosen, OracleAgent, {**HEAVY, "seed": 3}, tmp_path / "c")

    faulted = _faulted_calls(tmp_path / "a")
    assert len({f[0] for f in faulted}) == len(SAMPLE)  # every session met faults
    assert {f[3] for f in faulted} == {"rate_limited", "timeout", "service_unavailable"}
    assert _faulted_calls(tmp_path / "b") == faulted
    assert _faulted_calls(tmp_path / "c") != faulted
    for summary in (first, again, other):  # faults are never charged: the retrying oracle is perfect
        assert summary["task_accuracy"] == 1.0 and summary["failed_sessions"] == 0
        assert summary["faults"]["recovery"] == 1.0
    assert first["faults"]["faulted_calls"] == len(faulted)
    results = [json.loads(p.read_text().splitlines()[-1]) for p in (tmp_path / "a" / "sessions").glob("*.jsonl")]
    assert sum(t["faults"] for r in results for t in r["tasks"]) == len(faulted)


def test_recovery_is_reported_in_metrics_and_html_for_an_agent_that_retries_and_one_that_gives_up(
        live, server, builtin_scenarios, tmp_path):
    env, _ = live
    chosen = [builtin_scenarios.get(s) for s in SAMPLE]
    _run(server, env, chosen, OracleAgent, HEAVY, tmp_path / "retries")
    quitter = _run(server, env, chosen, lambda: OracleAgent(max_retries=0), HEAVY, tmp_path / "gives_up")
    assert quitter["faults"]["recovery"] == 0.0 and quitter["task_accuracy"] < 1.0

    catalog = env.catalog
    gold = {s.id: gold_session(s, resolve_tools(s, catalog)[0]) for s in chosen}
    figures = {}
    for name in ("retries", "gives_up"):
        paths = write_reports(score_run_dir(tmp_path / name, gold.get), tmp_path / f"{name}_report")
        metrics = json.loads(paths["metrics"].read_text())
        figures[name] = metrics["fault_recovery"]
        assert f"recovery <b>{metrics['fault_recovery']['recovery'] * 100:.1f}%</b>" in paths["html"].read_text()
    assert figures["retries"]["recovery"] == 1.0 and figures["gives_up"]["recovery"] == 0.0
    assert figures["retries"]["faulted_calls"] > 0 and figures["gives_up"]["faulted_calls"] > 0
    assert set(figures["retries"]["by_code"]) <= {"rate_limited", "timeout", "service_unavailable"}
    # Offline scoring skips the faulted calls too: the retrying oracle's run scores 100%.
    retries = score_run_dir(tmp_path / "retries", gold.get)
    assert retries.report["total_info"]["task"]["accuracy"] == 1.0


def test_eval_takes_a_fault_profile_or_json_and_refuses_bad_values(tmp_path):
    bad = CliRunner().invoke(eval_app, ["--faults", '{"rate_limit": 3}', "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "rate_limit" in bad.output
    unknown = CliRunner().invoke(eval_app, ["--faults", "chaotic", "--out", str(tmp_path)])
    assert unknown.exit_code == 2 and "unknown fault profile 'chaotic'" in unknown.output
    args = ["--scenario", "oslo_bergen_trip_weather", "--faults", '{"profile": "degraded", "seed": 2, "slow_ms": 1}',
            "--out", str(tmp_path)]
    ran = CliRunner().invoke(eval_app, args)
    assert ran.exit_code == 0, ran.output
    config = json.loads((tmp_path / "oracle" / "config.json").read_text())
    assert config["faults"]["profile"] == "degraded" and config["faults"]["rate_limit"] == 0.2
    summary = json.loads((tmp_path / "oracle" / "summary.json").read_text())
    assert summary["faults"]["faulted_calls"] > 0 and summary["task_accuracy"] == 1.0
