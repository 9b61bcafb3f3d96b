"""Run agents on scenario sessions over the real MCP client and write a run directory.

For each scenario the runner creates a live session over REST (``POST
/v1/scenario-sessions``), connects the official ``mcp`` ``Client`` to the session's
streamable-HTTP URL, lets the agent play (tool calls over MCP with
``_meta["toolenv/step"]``, text through ``POST .../reply``), then fetches the orchestrator's
view of the calls and the per-task result (both need the server's admin token,
``RunConfig.admin_token``). The server is the caller's (``--server URL``) or
one started in-process by :func:`env_server.runner.serve_in_thread` (uvicorn on a free loopback port).

Run directory (``<out>/<run name>/``; the name is derived from agent and model, never from
the clock, so re-running resumes):

* ``config.json``: ``{"run", "agent", "model", "base_url", "server", "scenarios": [ids],
  "seed", "max_steps", "distractors", "tool_pool", "faults", "concurrency"}`` (no secrets: the admin token is not written).
* ``sessions/<scenario_id>.jsonl``: one session, one JSON object per line, in order:

  - ``{"type": "session", "scenario_id", "session_id", "env_info", "task_count", "agent", "tools"}``;
    ``tools`` is the listing the agent was offered (distractors included) as OpenAI-style
    function tools, in listing order (absent if the session failed before listing its tools);
  - the transcript, one event per line:
    ``{"type": "message", "role": "user"|"assistant", "task", "kind"?, "content"}``,
    ``{"type": "tool_call", "task", "step_id", "call_id", "name", "arguments"}`` and
    ``{"type": "tool_result", "task", "step_id", "call_id", "name", "is_error", "content", "fault"?}``
    (``fault``: the code of an injected fault, from the result's ``_meta``; such calls are never scored);
  - ``{"type": "error", "message"}`` if the agent or transport failed (the session then
    counts as failed; its tasks keep whatever labels the server gave);
  - ``{"type": "state", "digest", "rows"}``: the session's world-state digest at the end;
  - ``{"type": "calls", "calls": [...]}``: every call as the orchestrator matched it
    (``CallEntry``: seq, task, step, step_id, name, arguments, pinned, refused, is_error,
    result);
  - ``{"type": "result", ...}``: the final ``SessionResult`` (per-task ``label``,
    ``status``, ``terminated``/``truncated``, ``reason``, ``error_type``, ...). A file
    whose last line is a result is finished and is skipped when the run is resumed.
* every line also carries ``prev_hash`` and ``hash``, a SHA-256 chain per file, whose heads
  ``run_manifest.json`` records with the catalog and scenario digests (:mod:`clients.run_chain`);
* ``summary.json``: ``{"run", "agent", "model", "sessions", "failed_sessions", "tasks",
  "correct_tasks", "task_accuracy", "session_accuracy", "by_task_type": {type: {"tasks",
  "correct", "accuracy"}}, "faults": {"faulted_calls", "recovered", "recovery"}, "per_session": {scenario_id: {"correct", "tasks", "error"}}}``.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx
from mcp import Client, MCPError

from clients.agents import Agent, ToolReply
from clients.run_chain import chain_records, strip_chain
from env_server import FAULT_META_KEY
from env_server.orchestrator import ScenarioSpec, SessionResult, UserTurn

logger = logging.getLogger(__name__)

STEP_META_KEY = "toolenv/step"
SESSIONS_DIR = "sessions"


@dataclass(frozen=True, kw_only=True)
class RunConfig:
    agent: str
    model: str | None = None
    base_url: str | None = None
    server: str | None = None
    seed: int | None = None
    max_steps: int | None = None
    distractors: int = 0
    tool_pool: int | None = None
    faults: dict[str, Any] | None = None  # session fault options (env_server.faults.FaultOptions as JSON)
    concurrency: int = 4
    admin_token: str | None = field(default=None, repr=False)  # never written to the run directory

    def run_name(self) -> str:
        parts = [self.agent] + ([self.model] if self.model else [])
        return re.sub(r"[^A-Za-z0-9._-]+", "_", "-".join(parts)).strip("_") or "run"


class LiveEpisode:
    """One scenario session seen from the agent's side; records the transcript."""

    def __init__(self, scenario: ScenarioSpec, http: httpx.AsyncClient, mcp: Client, created: dict[str, Any]) -> None:
        self.scenario = scenario
        self.session_id: str = created["session_id"]
        self.env_info: str = created.get("env_info", scenario.env_info)
        self.user_message: str | None = created["user_message"]
        self.task_index: int = created["task_index"]
        self.done = False
        self.tools: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = [
            {"type": "message", "role": "user", "task": self.task_index, "kind": "task", "content": self.user_message}
        ]
        self._http = http
        self._mcp = mcp
        self._steps: dict[int, int] = {}

    async def load_tools(self) -> None:
        listing = await self._mcp.list_tools()
        self.tools = [
            {"type": "function", "function": {"name": t.name, "description": t.description or "",
                                              "parameters": t.input_schema}}
            for t in listing.tools
        ]

    async def call_tools(self, calls: Sequence[tuple[str, dict[str, Any]]]) -> list[ToolReply]:
        n = self._steps.get(self.task_index, 0)
        self._steps[self.task_index] = n + 1
        step_id = f"t{self.task_index}-s{n}"
        replies: list[ToolReply | None] = [None] * len(calls)

        async def one(k: int, name: str, arguments: dict[str, Any]) -> None:
            call_id = f"{step_id}-c{k}"
            self.events.append({"type": "tool_call", "task": self.task_index, "step_id": step_id,
                                "call_id": call_id, "name": name, "arguments": arguments})
            try:
                # RequestParamsMeta takes extra keys (PEP 728 extra_items), which mypy does not read yet.
                result = await self._mcp.call_tool(name, arguments, meta={STEP_META_KEY: step_id})  # type: ignore[arg-type]
                text = "".join(getattr(c, "text", "") for c in result.content)
                reply = ToolReply(call_id, name, bool(result.is_error), text)
                fault = (result.meta or {}).get(FAULT_META_KEY)
            except MCPError as exc:  # a protocol error (unknown tool) is the agent's observation
                reply, fault = ToolReply(call_id, name, True, str(exc)), None
            event = {"type": "tool_result", "task": self.task_index, "step_id": step_id, "call_id": call_id,
                     "name": name, "is_error": reply.is_error, "content": reply.text}
            if fault is not None:
                event["fault"] = str(fault)
            self.events.append(event)
            replies[k] = reply

        async with anyio.create_task_group() as group:
            for k, (name, arguments) in enumerate(calls):
                group.start_soon(one, k, name, arguments)
        return [r for r in replies if r is not None]

    async def reply(self, content: str) -> UserTurn:
        self.events.append({"type": "message", "role": "assistant", "task": self.task_index, "content": content})
        response = await self._http.post(f"/v1/scenario-sessions/{self.session_id}/reply", json={"content": content})
        response.raise_for_status()
        turn = UserTurn.model_validate(response.json())
        self.task_index, self.done, self.user_message = turn.task_index, turn.done, turn.content
        if turn.content is not None:
            self.events.append({"type": "message", "role": "user", "task": turn.task_index,
                                "kind": turn.kind.value, "content": turn.content})
        return turn


@dataclass
class SessionOutcome:
    scenario_id: str
    result: SessionResult | None
    error: str | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)


async def play_scenario(
    base_url: str, scenario: ScenarioSpec, agent: Agent, config: RunConfig
) -> SessionOutcome:
    """Create a session, let ``agent`` play it over MCP, return every line of its JSONL file."""
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        body: dict[str, Any] = {"scenario_id": scenario.id}
        if config.seed is not None:
            body["seed"] = config.seed
        if config.max_steps is not None:
            body["max_steps"] = config.max_steps
        if config.distractors:
            body["distractors"] = config.distractors
        if config.tool_pool is not None:
            body["tool_pool"] = config.tool_pool
        if config.faults is not None:
            body["faults"] = config.faults
        response = await http.post("/v1/scenario-sessions", json=body)
        response.raise_for_status()
        created = response.json()
        head = {"type": "session", "scenario_id": scenario.id, "session_id": created["session_id"],
                "env_info": created["env_info"], "task_count": created["task_count"], "agent": agent.name}
        error: str | None = None
        events: list[dict[str, Any]] = []
        try:
            async with Client(f"{base_url}{created['mcp_path']}") as mcp:
                episode = LiveEpisode(scenario, http, mcp, created)
                events = episode.events
                await episode.load_tools()
                head["tools"] = episode.tools
                await agent.play(episode)
        except Exception as exc:  # boundary: one failed session must not stop the run
            logger.exception("session for %s failed", scenario.id)
            error = f"{type(exc).__name__}: {exc}"
        sid = created["session_id"]
        calls = await _admin_get(http, f"/v1/scenario-sessions/{sid}/calls", config)
        result = SessionResult.model_validate(await _admin_get(http, f"/v1/scenario-sessions/{sid}/result", config))
        state = await _admin_get(http, f"/v1/sessions/{sid}/state", config)
    lines = [head, *events]
    if error is not None:
        lines.append({"type": "error", "message": error})
    lines += [{"type": "state", "digest": state["digest"], "rows": state["rows"]},
              {"type": "calls", "calls": calls}, {"type": "result", **result.model_dump(mode="json")}]
    return SessionOutcome(scenario.id, result, error, lines)


class AdminTokenError(RuntimeError):
    """The server refused a judging route: the runner lacks the right admin token."""


async def _admin_get(http: httpx.AsyncClient, path: str, config: RunConfig) -> Any:
    headers = {"Authorization": f"Bearer {config.admin_token}"} if config.admin_token else {}
    response = await http.get(path, headers=headers)
    if response.status_code in (401, 403):
        raise AdminTokenError(
            f"{path}: HTTP {response.status_code}: {response.json().get('detail')}; "
            "pass the server's admin token (toolenv eval --admin-token, RunConfig.admin_token)"
        )
    response.raise_for_status()
    return response.json()


def finished_outcome(path: Path) -> SessionOutcome | None:
    """A session file that already ends with its result (for resuming), else None."""
    if not path.exists():
        return None
    lines = [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines() if t.strip()]
    if not lines or lines[-1].get("type") != "result":
        return None
    error = next((line["message"] for line in lines if line.get("type") == "error"), None)
    data = {k: v for k, v in strip_chain(lines[-1]).items() if k != "type"}
    return SessionOutcome(path.stem, SessionResult.model_validate(data), error, lines)


def write_jsonl(path: Path, lines: list[dict[str, Any]]) -> None:
    tmp = path.with_suffix(".jsonl.tmp")
    tmp.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    tmp.replace(path)


def summarize(config: RunConfig, outcomes: list[SessionOutcome]) -> dict[str, Any]:
    by_type: dict[str, dict[str, Any]] = {}
    tasks = correct = sessions_ok = faults = recovered = 0
    per_session: dict[str, Any] = {}
    for outcome in sorted(outcomes, key=lambda o: o.scenario_id):
        reports = outcome.result.tasks if outcome.result else []
        if outcome.result is not None:
            faults += outcome.result.faults
            recovered += outcome.result.recovered
        good = sum(r.label == "correct" for r in reports)
        tasks += len(reports)
        correct += good
        sessions_ok += int(bool(reports) and good == len(reports) and outcome.error is None)
        per_session[outcome.scenario_id] = {"correct": good, "tasks": len(reports), "error": outcome.error}
        for r in reports:
            bucket = by_type.setdefault(r.task_type, {"tasks": 0, "correct": 0})
            bucket["tasks"] += 1
            bucket["correct"] += int(r.label == "correct")
    for bucket in by_type.values():
        bucket["accuracy"] = round(bucket["correct"] / bucket["tasks"], 4)
    return {
        "run": config.run_name(),
        "agent": config.agent,
        "model": config.model,
        "sessions": len(outcomes),
        "failed_sessions": sum(o.error is not None for o in outcomes),
        "tasks": tasks,
        "correct_tasks": correct,
        "task_accuracy": round(correct / tasks, 4) if tasks else 0.0,
        "session_accuracy": round(sessions_ok / len(outcomes), 4) if outcomes else 0.0,
        "by_task_type": dict(sorted(by_type.items())),
        "faults": {"faulted_calls": faults, "recovered": recovered,
                   "recovery": round(recovered / faults, 4) if faults else None},
        "per_session": per_session,
    }


async def run_eval(
    base_url: str,
    scenarios: Sequence[ScenarioSpec],
    make_agent: Callable[[], Agent],
    config: RunConfig,
    run_dir: Path,
    *,
    resume: bool = True,
    on_done: Callable[[SessionOutcome], None] | None = None,
) -> dict[str, Any]:
    """Play every scenario (``config.concurrency`` at a time) and write the run directory."""
    sessions_dir = run_dir / SESSIONS_DIR
    sessions_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(json.dumps({
        "run": config.run_name(), "agent": config.agent, "model": config.model, "base_url": config.base_url,
        "server": config.server, "scenarios": [s.id for s in scenarios], "seed": config.seed,
        "max_steps": config.max_steps, "distractors": config.distractors, "tool_pool": config.tool_pool,
        "faults": config.faults, "concurrency": config.concurrency,
    }, indent=2) + "\n", encoding="utf-8")
    outcomes: list[SessionOutcome] = []
    limiter = anyio.CapacityLimiter(max(1, config.concurrency))

    async def one(scenario: ScenarioSpec) -> None:
        path = sessions_dir / f"{scenario.id}.jsonl"
        outcome = finished_outcome(path) if resume else None
        if outcome is None:
            async with limiter:
                outcome = await play_scenario(base_url, scenario, make_agent(), config)
            write_jsonl(path, chain_records(outcome.lines))
        outcomes.append(outcome)
        if on_done is not None:
            on_done(outcome)

    async with anyio.create_task_group() as group:
        for scenario in scenarios:
            group.start_soon(one, scenario)
    summary = summarize(config, outcomes)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary
