"""The official offline WildToolBench protocol (``toolenv eval --protocol replay``; doc section 3).

Every task is one independent episode with teacher forcing (doc 3.1):

* the messages are ``Current Date: <env_info>`` as the only system message, the **gold**
  history of every earlier task (rendered from its first optimal path: user text, gold tool
  calls with ``toolu_bdrk_`` ids, gold observations JSON-encoded, gold questions, user replies
  and final answers), then the task's user message;
* the tools are the scenario's tools in OpenAI format (``float`` rewritten to ``number``);
* each model reply is judged by :class:`~env_server.scoring.matching.TaskMatcher` (names only,
  doc 3.2): a matched tool step gets the gold observations of the matched nodes (in name-sorted
  order, under the model's call ids in the model's order, as the official code does); a matched
  ask gets the gold user reply; a matched final text ends the task; any error ends it.

Nothing is executed: no MCP server, no simulator. Arguments are graded afterwards, as in the
official pipeline, by the same scorer that ``toolenv score official`` uses.
The models that answer each turn (oracle, scripted, an OpenAI endpoint) are in
``clients.replay_models``.

Run directory (``<out>/<run name>/``):

* ``config.json``: ``{"run", "protocol": "replay", "agent", "model", "base_url", "scenarios",
  "concurrency", "result_file", "data_file"}``;
* ``data/Wild-Tool-Bench.jsonl``: the scenarios in the official dataset layout. Line k holds
  ``wild_tool_bench_k`` (ids are renumbered in run order; the scenario's own id is kept in
  ``toolenv_scenario_id``), with the tools the model was offered as ``english_tools``;
* ``result/<model>/Wild-Tool-Bench_result.jsonl``: the official result layout (doc 3.4) field for
  field, one line per scenario ``{"id", "model_name", "result": [task record, ...]}`` or
  ``{"id", "result": "Error during inference: ..."}``. ``toolenv score official`` scores it and
  finds the dataset file by itself. Task records keep the official key order (labels,
  ``inference_log``, then latency and token counts); ``begin_of_current_task`` is the user message
  object; ``inference_answer`` carries observations only for the pseudo-actions (the question and
  user reply of an ask, the final answer's text) and lists every candidate, duplicates included;
* ``scenario_ids.json``: the sidecar ``{official id: scenario id}`` (the result file has no
  ``scenario_id`` key);
* ``summary.json``: the live runner's summary keys plus ``"protocol": "replay"`` and
  ``"per_task": {scenario_id: [label, ...]}`` (labels from the runner's own matcher + grader).
"""

from __future__ import annotations

import copy
import json
import logging
import random
import re
import string
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from clients.agent_runner import RunConfig
from clients.replay_log import answer_log, sdk_message
from clients.replay_models import ReplayModel, ReplayTurn, replay_model_for
from env_server.catalog import Catalog
from env_server.orchestrator import (
    ScenarioSpec,
    dump_official_line,
    function_tools,
    gold_task,
    official_id,
    scenario_tools,
)
from env_server.scoring import (
    ASK,
    DATA_FILE,
    PREPARE,
    PathEngine,
    PredictedCall,
    PredictedStep,
    StepStatus,
    TaskMatcher,
    rewrite_float_types,
    score_matcher,
)

logger = logging.getLogger(__name__)

RESULT_FILE = "Wild-Tool-Bench_result.jsonl"
SCENARIO_IDS_FILE = "scenario_ids.json"
HISTORY_ID_PREFIX = "toolu_bdrk_"
_ID_ALPHABET = string.ascii_letters + string.digits


# ---------------------------------------------------------------------------------------------
# Tools, gold history and the per-task episode
# ---------------------------------------------------------------------------------------------


def replay_tools(spec: ScenarioSpec, catalog: Catalog | None) -> list[dict[str, Any]]:
    """The scenario's tools in OpenAI format, after the official float->number rewrite."""
    if spec.tools:
        if catalog is None:
            raise ValueError(f"scenario '{spec.id}' names catalog tools; a catalog is needed")
        tools = function_tools(scenario_tools(spec, catalog))
        inline = {str((t.get("function", t) or {}).get("name", "")): t for t in spec.inline_tools}
        tools = [inline.get(t["function"]["name"], t) for t in tools]
    else:
        tools = list(spec.inline_tools)
    return rewrite_float_types(copy.deepcopy(tools))


def _history_id(rng: random.Random) -> str:
    return HISTORY_ID_PREFIX + "".join(rng.choice(_ID_ALPHABET) for _ in range(24))


def gold_history(spec: ScenarioSpec, upto: int) -> list[dict[str, Any]]:
    """The gold messages of tasks ``0 .. upto-1`` (doc 3.1, ``_add_action_observation``)."""
    rng = random.Random(f"{spec.id}:history")
    messages: list[dict[str, Any]] = []
    for j in range(upto):  # key orders as the official code builds them (calls: type, function, id)
        gold = gold_task(spec.tasks[j], j, [])
        messages.append({"role": "user", "content": spec.tasks[j].user_message})
        for step in PathEngine.from_task(gold).first_optimal_path():
            first = gold.nodes[step[0]]
            if first.name == ASK:
                messages.append({"role": "assistant", "content": first.observation})
                messages.append({"role": "user", "content": first.user_input})
                continue
            if first.name == PREPARE:
                messages.append({"role": "assistant", "content": first.observation})
                continue
            ids = [_history_id(rng) for _ in step]
            messages.append({"role": "assistant", "content": "", "tool_calls": [
                {"type": "function", "function": {
                    "name": gold.nodes[i].name,
                    "arguments": json.dumps(gold.nodes[i].arguments, ensure_ascii=False)}, "id": call_id}
                for call_id, i in zip(ids, step, strict=True)
            ]})
            for call_id, i in zip(ids, step, strict=True):  # content JSON-encoded once more (doc 3.1)
                messages.append({"role": "tool", "content": json.dumps(gold.nodes[i].observation, ensure_ascii=False),
                                 "tool_call_id": call_id})
    return messages


def _predicted_step(message: dict[str, Any]) -> PredictedStep:
    calls = []
    for raw in message.get("tool_calls") or []:
        fn = raw.get("function") if isinstance(raw, dict) else None
        fn = fn if isinstance(fn, dict) else {}
        name, args, call_id = fn.get("name"), fn.get("arguments"), raw.get("id") if isinstance(raw, dict) else None
        if not name or args is None or not call_id:  # the official "parse tool_calls failed"
            calls.append(PredictedCall(name="", arguments="", call_id=str(call_id or "")))
            continue
        calls.append(PredictedCall(name=str(name), arguments=args if isinstance(args, str)
                                   else json.dumps(args, ensure_ascii=False), call_id=str(call_id)))
    content = message.get("content")
    return PredictedStep(content=content if isinstance(content, str) else None, calls=tuple(calls))


@dataclass
class TaskRun:
    record: dict[str, Any]
    matcher: TaskMatcher


async def replay_task(spec: ScenarioSpec, index: int, tools: list[dict[str, Any]], model: ReplayModel) -> TaskRun:
    """One independent episode: gold history, then the model until the first error or its answer."""
    gold = gold_task(spec.tasks[index], index, tools)
    matcher = TaskMatcher(gold)
    user_message = spec.tasks[index].user_message
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": f"Current Date: {spec.env_info}"},
        *gold_history(spec, index),
        {"role": "user", "content": user_message},
    ]
    log: dict[str, Any] = {"task_idx": index, "begin_of_current_task": copy.deepcopy(messages[-1])}
    latency: list[float] = []
    input_tokens: list[int] = []
    output_tokens: list[int] = []
    cap = 2 * len(gold.nodes) + 2  # the matcher ends a task within len(nodes) steps; this is a guard
    while not matcher.finished and len(matcher.records) < cap:
        step_index = len(matcher.records)
        logged_input = {"messages": copy.deepcopy(messages), "tools": tools}
        started = time.perf_counter()
        reply = await model.complete(ReplayTurn(spec, index, step_index), copy.deepcopy(messages), tools)
        latency.append(round(time.perf_counter() - started, 4))
        input_tokens.append(reply.input_tokens)
        output_tokens.append(reply.output_tokens)
        message = sdk_message(reply.message)
        step = _predicted_step(message)
        record = matcher.submit(step)
        output: dict[str, Any] = {
            "reasoning_content": message.get("reasoning_content"),
            "content": message.get("content"),
            "tool_calls": message.get("tool_calls") or None,
            "current_action_name_label": "correct" if record.name_ok else "error",
        }
        if record.reason:
            output["error_reason"] = record.reason
        entry: dict[str, Any] = {"inference_input": logged_input, "inference_output": output}
        answer = answer_log(matcher, record)
        if answer is not None:
            entry["inference_answer"] = answer
        log[f"step_{step_index}"] = entry
        if record.status is StepStatus.CALLS_MATCHED:
            assistant: dict[str, Any] = {"role": "assistant"}
            if message.get("reasoning_content") is not None:
                assistant["reasoning_content"] = message["reasoning_content"]
            messages.append({**assistant, "content": message.get("content"), "tool_calls": message.get("tool_calls")})
            # Observations in name-sorted gold order under the model's ids in the model's order (doc 3.2).
            for call, observation in zip(step.calls, matcher.observations(record), strict=False):
                content = observation if isinstance(observation, str) else json.dumps(observation, ensure_ascii=False)
                messages.append({"role": "tool", "content": content, "tool_call_id": call.call_id})
        elif record.status is StepStatus.ASKED:
            messages.append({"role": "assistant", "content": step.content})
            messages.append({"role": "user", "content": matcher.user_reply(record) or ""})
    task_record = {
        "action_name_label": "correct" if matcher.succeeded else "error",
        "is_optimal": matcher.is_optimal,
        "inference_log": log,
        "latency": latency,
        "input_token_count": input_tokens,
        "output_token_count": output_tokens,
    }
    return TaskRun(task_record, matcher)


@dataclass
class ScenarioRun:
    scenario_id: str
    line: dict[str, Any]
    labels: list[bool] = field(default_factory=list)
    task_types: list[str] = field(default_factory=list)
    error: str | None = None


async def replay_scenario(spec: ScenarioSpec, official: str, tools: list[dict[str, Any]], model: ReplayModel,
                          model_name: str) -> ScenarioRun:
    try:
        runs = [await replay_task(spec, i, tools, model) for i in range(len(spec.tasks))]
    except Exception as exc:  # boundary: one failed scenario must not stop the run
        logger.exception("replay of %s failed", spec.id)
        message = f"Error during inference: {type(exc).__name__}: {exc}"
        return ScenarioRun(spec.id, {"id": official, "result": message}, error=message)
    labels = [score_matcher(r.matcher).correct for r in runs]
    line = {"id": official, "model_name": model_name, "result": [r.record for r in runs]}
    return ScenarioRun(spec.id, line, labels, [t.task_type.value for t in spec.tasks])


def dataset_line(spec: ScenarioSpec, official: str, tools: list[dict[str, Any]]) -> dict[str, Any]:
    line = dump_official_line(spec)
    line["id"] = official
    line["english_tools"] = tools
    line["toolenv_scenario_id"] = spec.id
    return line


def _summary(config: RunConfig, runs: list[ScenarioRun], result_path: Path) -> dict[str, Any]:
    by_type: dict[str, dict[str, Any]] = {}
    tasks = correct = sessions_ok = 0
    per_session: dict[str, Any] = {}
    per_task: dict[str, list[str]] = {}
    for run in sorted(runs, key=lambda r: r.scenario_id):
        good = sum(run.labels)
        tasks += len(run.labels)
        correct += good
        sessions_ok += int(bool(run.labels) and good == len(run.labels) and run.error is None)
        per_session[run.scenario_id] = {"correct": good, "tasks": len(run.labels), "error": run.error}
        per_task[run.scenario_id] = ["correct" if ok else "error" for ok in run.labels]
        for ok, task_type in zip(run.labels, run.task_types, strict=True):
            bucket = by_type.setdefault(task_type, {"tasks": 0, "correct": 0})
            bucket["tasks"] += 1
            bucket["correct"] += int(ok)
    for bucket in by_type.values():
        bucket["accuracy"] = round(bucket["correct"] / bucket["tasks"], 4)
    return {
        "run": config.run_name(), "protocol": "replay", "agent": config.agent, "model": config.model,
        "sessions": len(runs), "failed_sessions": sum(r.error is not None for r in runs),
        "tasks": tasks, "correct_tasks": correct,
        "task_accuracy": round(correct / tasks, 4) if tasks else 0.0,
        "session_accuracy": round(sessions_ok / len(runs), 4) if runs else 0.0,
        "by_task_type": dict(sorted(by_type.items())), "per_session": per_session, "per_task": per_task,
        "result_file": str(result_path),
    }


def model_dir_name(config: RunConfig) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", config.model or config.agent).strip("_") or "model"


async def run_replay(
    scenarios: Sequence[ScenarioSpec],
    make_model: Callable[[], Any],
    config: RunConfig,
    run_dir: Path,
    *,
    catalog: Catalog | None = None,
    on_done: Callable[[ScenarioRun], None] | None = None,
) -> dict[str, Any]:
    """Replay every scenario (``config.concurrency`` at a time) and write the official layout."""
    model_name = config.model or config.agent
    data_path = run_dir / "data" / DATA_FILE
    result_path = run_dir / "result" / model_dir_name(config) / RESULT_FILE
    data_path.parent.mkdir(parents=True, exist_ok=True)
    result_path.parent.mkdir(parents=True, exist_ok=True)
    tools = [replay_tools(spec, catalog) for spec in scenarios]
    ids = [official_id(k) for k in range(len(scenarios))]
    data_path.write_text("".join(json.dumps(dataset_line(s, i, t), ensure_ascii=False) + "\n"
                                 for s, i, t in zip(scenarios, ids, tools, strict=True)), encoding="utf-8")
    (run_dir / SCENARIO_IDS_FILE).write_text(json.dumps(
        {i: s.id for i, s in zip(ids, scenarios, strict=True)}, indent=2) + "\n", encoding="utf-8")
    (run_dir / "config.json").write_text(json.dumps({
        "run": config.run_name(), "protocol": "replay", "agent": config.agent, "model": config.model,
        "base_url": config.base_url, "scenarios": [s.id for s in scenarios], "concurrency": config.concurrency,
        "result_file": str(result_path.relative_to(run_dir)), "data_file": str(data_path.relative_to(run_dir)),
    }, indent=2) + "\n", encoding="utf-8")
    runs: list[ScenarioRun | None] = [None] * len(scenarios)
    limiter = anyio.CapacityLimiter(max(1, config.concurrency))

    async def one(k: int) -> None:
        async with limiter:
            run = await replay_scenario(scenarios[k], ids[k], tools[k], replay_model_for(make_model()), model_name)
        runs[k] = run
        if on_done is not None:
            on_done(run)

    async with anyio.create_task_group() as group:
        for k in range(len(scenarios)):
            group.start_soon(one, k)
    done = [r for r in runs if r is not None]
    tmp = result_path.with_suffix(".jsonl.tmp")
    tmp.write_text("".join(json.dumps(r.line, ensure_ascii=False) + "\n" for r in done), encoding="utf-8")
    tmp.replace(result_path)
    summary = _summary(config, done, result_path)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary
