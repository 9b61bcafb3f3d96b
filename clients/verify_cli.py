"""``toolenv verify RUN_DIR``: check that a run directory is what its run produced.

Three checks, each reporting its first problem: the hash chain of every session file against
``run_manifest.json`` (:mod:`clients.run_chain`); the catalog and scenario digests against the
catalog and scenarios loadable now; and a replay of every session against a fresh in-process
environment (:mod:`clients.run_replay`) whose observations, call records, world-state digests
and scores must equal the recorded ones, as must the scores in ``summary.json``.
Exit status 0 when all hold, 1 when one fails, 2 when the directory cannot be read.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from clients.agent_runner import SESSIONS_DIR
from clients.run_chain import MANIFEST, catalog_digest, check_chain, read_jsonl, run_head, scenario_digest, strip_chain
from clients.run_replay import replay_session
from env_server.catalog import CatalogError, load_catalog
from env_server.orchestrator import ScenarioLoad, load_scenarios

verify_app = typer.Typer(help=(
    "Verify a run directory written by 'toolenv eval': check every session file's hash chain against "
    "run_manifest.json, the catalog and scenario digests against the ones loadable now, then replay every "
    "session in process and compare observations, call records, world-state digests and scores. "
    "Exit 0 if all hold, 1 naming the first problem of each check, 2 if the directory cannot be read."))
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


class UnreadableRun(Exception):
    """The run directory lacks its manifest or a session file cannot be parsed."""


@dataclass
class Verdict:
    problems: list[str] = field(default_factory=list)
    sessions: int = 0
    records: int = 0
    calls: int = 0

    def add(self, problem: str | None) -> None:
        if problem:
            self.problems.append(problem)


def verify_run(run_dir: Path) -> Verdict:
    """Run every check on ``run_dir``. Raises ``UnreadableRun``."""
    try:
        manifest = json.loads((run_dir / MANIFEST).read_text(encoding="utf-8"))
        files = {p.stem: read_jsonl(p) for p in sorted((run_dir / SESSIONS_DIR).glob("*.jsonl"))}
    except (OSError, ValueError) as exc:
        raise UnreadableRun(f"{run_dir}: {exc}") from None
    verdict = Verdict(sessions=len(files), records=sum(map(len, files.values())))
    _check_chains(manifest, files, verdict)
    catalog, scenarios = _check_digests(manifest, verdict)
    if catalog is None or scenarios is None:
        return verdict
    results: dict[str, Any] = {}
    for name, lines in files.items():
        if not lines or lines[0].get("type") != "session" or name not in manifest.get("scenarios", {}):
            continue
        replayed = replay_session(f"{SESSIONS_DIR}/{name}.jsonl", [strip_chain(x) for x in lines], catalog,
                                  scenarios, manifest.get("config", {}))
        verdict.calls += replayed.calls
        verdict.problems += replayed.problems
        results[name] = replayed.result
    verdict.add(_check_summary(run_dir, results))
    return verdict


def _check_chains(manifest: dict[str, Any], files: dict[str, list[dict[str, Any]]], verdict: Verdict) -> None:
    chains: dict[str, str] = manifest.get("chains", {})
    for name in sorted(set(chains) - set(files)):
        verdict.add(f"{SESSIONS_DIR}/{name}.jsonl: listed in the manifest but missing")
    for name in sorted(set(files) - set(chains)):
        verdict.add(f"{SESSIONS_DIR}/{name}.jsonl: not in the manifest")
    for name, lines in files.items():
        if name in chains:
            verdict.add(check_chain(Path(SESSIONS_DIR) / f"{name}.jsonl", lines, chains[name]))
    if run_head(chains) != manifest.get("chain_head"):
        verdict.add(f"{MANIFEST}: chain_head does not match the session heads it lists")


def _check_digests(manifest: dict[str, Any], verdict: Verdict) -> tuple[Any, ScenarioLoad | None]:
    recorded = manifest.get("catalog", {})
    try:
        catalog = load_catalog([Path(p) for p in recorded["sources"]] if recorded.get("sources") else None)
    except CatalogError as exc:
        verdict.add(f"catalog: cannot load {recorded.get('sources') or 'the built-in catalog'}: {exc}")
        return None, None
    current = catalog_digest(catalog)
    if current != recorded.get("digest"):
        verdict.add(f"catalog: digest differs: manifest {recorded.get('digest')}, current catalog {current} "
                    f"({recorded.get('tools')} tools recorded, {len(catalog)} now)")
    path = manifest.get("scenarios_path")
    scenarios = load_scenarios(Path(path) if path else None)
    for sid, entry in manifest.get("scenarios", {}).items():
        spec = scenarios.get(sid)
        if spec is None:
            verdict.add(f"scenario {sid}: not among the scenarios loadable now")
        elif scenario_digest(spec) != entry.get("digest"):
            verdict.add(f"scenario {sid}: digest differs: manifest {entry.get('digest')}, "
                        f"current {scenario_digest(spec)}")
    return catalog, scenarios


def _check_summary(run_dir: Path, results: dict[str, Any]) -> str | None:
    try:
        summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return f"summary.json: {exc}"
    for name, result in sorted(results.items()):
        recorded = summary.get("per_session", {}).get(name, {})
        correct = sum(t.get("label") == "correct" for t in result["tasks"]) if result else None
        if recorded.get("correct") != correct:
            return f"summary.json: {name} records {recorded.get('correct')} correct tasks, the replay scores {correct}"
    total = sum(sum(t.get("label") == "correct" for t in r["tasks"]) for r in results.values() if r)
    if summary.get("correct_tasks") != total:
        return f"summary.json: records {summary.get('correct_tasks')} correct tasks, the replay scores {total}"
    return None


@verify_app.callback(invoke_without_command=True)
def verify(
    run_dir: Annotated[Path, typer.Argument(help="A run directory written by 'toolenv eval' (live protocol).")],
) -> None:
    """Check RUN_DIR's hash chain against its run_manifest.json, its catalog and scenario digests
    against the current ones, then replay every session in process and compare observations,
    call records, world-state digests and scores. Exit 1 naming the first problem of each check."""
    started = time.perf_counter()
    try:
        verdict = verify_run(run_dir)
    except UnreadableRun as exc:
        err.print(f"[red]cannot verify: {exc}[/red]")
        raise typer.Exit(2) from None
    elapsed = time.perf_counter() - started
    out.print(f"{verdict.sessions} sessions, {verdict.records} records, {verdict.calls} calls replayed "
              f"in {elapsed:.2f}s")
    if verdict.problems:
        for problem in verdict.problems:
            out.print(f"FAIL {problem}")
        raise typer.Exit(1)
    out.print("OK: chain intact, catalog and scenarios unchanged, replay identical")
