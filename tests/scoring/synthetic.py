"""A small synthetic scenario and scripted agents (oracle and injected errors) for scoring tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from env_server.scoring.matching import TaskMatcher
from env_server.scoring.models import (
    ASK,
    PREPARE,
    GoldNode,
    GoldSession,
    GoldTask,
    PredictedCall,
    PredictedStep,
    TaskType,
    TurnSubtype,
)
from env_server.scoring.paths import PathEngine
from env_server.scoring.scorer import ScoringOptions, SessionScore, TaskScore, score_matcher


def _tool(name: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": name,
            "parameters": {"type": "object", "properties": props, "required": required}}}


TOOLS = [
    _tool("getWeather", {"city": {"type": "string"}, "days": {"type": "integer"}}, ["city"]),
    _tool("getAQI", {"city": {"type": "string"}}, ["city"]),
    _tool("bookTaxi", {"from": {"type": "string"}, "to": {"type": "string"}}, ["from", "to"]),
    _tool("searchShows", {"city": {"type": "string"}}, ["city"]),
    _tool("getShowDetail", {"show_id": {"type": "string"}}, ["show_id"]),
]


def node(index: int, name: str, args: dict[str, Any] | None = None, deps: tuple[int, ...] = (), **kw: Any) -> GoldNode:
    return GoldNode(index=index, name=name, arguments=args or {}, dependencies=deps, **kw)


def task(kind: TaskType, nodes: list[GoldNode], position: int, subtype: TurnSubtype | None = None) -> GoldTask:
    return GoldTask(nodes=nodes, task_type=kind, position=position, turn_subtype=subtype, tools=TOOLS)


def parallel_task(position: int = 0, subtype: TurnSubtype | None = None) -> GoldTask:
    return task(TaskType.PARALLEL, [
        node(0, "getWeather", {"city": "Oslo"}, observation={"t": 12}),
        node(1, "getAQI", {"city": "Oslo"}, observation={"aqi": 20}),
        node(2, PREPARE, {"answer_type": "tool"}, (0, 1), observation="Mild and clean."),
    ], position, subtype)


def chat_task(position: int, subtype: TurnSubtype | None = None) -> GoldTask:
    return task(TaskType.CHAT, [node(0, PREPARE, {"answer_type": "chat"}, observation="Pack a jacket.")], position, subtype)


def clarify_task(position: int, subtype: TurnSubtype | None = None) -> GoldTask:
    ask_args = {"tool_list": [{"tool_name": "bookTaxi", "missing_required_parameters": ["from"]}]}
    return task(TaskType.CLARIFY, [
        node(0, ASK, ask_args, observation="Where from?", user_input="From the Grand hotel."),
        node(1, "bookTaxi", {"from": "the Grand", "to": "Oslo Airport"}, (0,), observation={"ref": "TX1"}),
        node(2, PREPARE, {"answer_type": "tool"}, (1,), observation="Booked."),
    ], position, subtype)


def sequential_task(position: int, subtype: TurnSubtype | None = None) -> GoldTask:
    return task(TaskType.SEQUENTIAL, [
        node(0, "searchShows", {"city": "Oslo"}, observation=[{"id": "s1"}]),
        node(1, "getShowDetail", {"show_id": "s1"}, (0,), observation={"title": "Peer Gynt"}),
        node(2, PREPARE, {"answer_type": "tool"}, (1,), observation="Peer Gynt."),
    ], position, subtype)


def mixed_task(position: int, subtype: TurnSubtype | None = None) -> GoldTask:
    return task(TaskType.MIXED, [
        node(0, "searchShows", {"city": "Oslo"}, observation=[{"id": "s1"}, {"id": "s2"}]),
        node(1, "getShowDetail", {"show_id": "s1"}, (0,), observation={"title": "A"}),
        node(2, "getShowDetail", {"show_id": "s2"}, (0,), observation={"title": "B"}),
        node(3, PREPARE, {"answer_type": "tool"}, (1, 2), observation="A and B."),
    ], position, subtype)


def single_task(position: int, subtype: TurnSubtype | None = None) -> GoldTask:
    return task(TaskType.SINGLE, [
        node(0, "getWeather", {"city": "Oslo", "days": 3}, observation={"t": [1, 2, 3]}),
        node(1, PREPARE, {"answer_type": "tool"}, (0,), observation="Cold."),
    ], position, subtype)


def session_a(session_id: str = "wild_tool_bench_0") -> GoldSession:
    return GoldSession(session_id=session_id, tasks=[
        parallel_task(0), chat_task(1, TurnSubtype.COREFERENTIAL), clarify_task(2, TurnSubtype.PARTIAL),
        sequential_task(3, TurnSubtype.LONG_RANGE),
    ])


def session_b(session_id: str = "wild_tool_bench_1") -> GoldSession:
    return GoldSession(session_id=session_id, tasks=[
        mixed_task(0), single_task(1, TurnSubtype.PARTIAL), chat_task(2, TurnSubtype.COREFERENTIAL),
        clarify_task(3, TurnSubtype.LONG_RANGE),
    ])


def oracle_steps(gold: GoldTask) -> list[PredictedStep]:
    """Follow the first optimal path: text for pseudo-actions, gold calls otherwise."""
    steps = []
    for step in PathEngine.from_task(gold).first_optimal_path():
        nodes = [gold.nodes[i] for i in step]
        if nodes[0].is_pseudo:
            steps.append(PredictedStep.text("Where from?" if nodes[0].name == ASK else "Here you go."))
        else:
            steps.append(PredictedStep.tools(*(PredictedCall.of(n.name, n.arguments) for n in nodes)))
    return steps


Agent = Callable[[GoldTask], list[PredictedStep]]


def call(name: str, **args: Any) -> PredictedCall:
    return PredictedCall.of(name, args)


def run_live(gold: GoldTask, agent: Agent, options: ScoringOptions | None = None) -> TaskScore:
    """Drive the live matcher one step at a time, as an orchestrator would."""
    matcher = TaskMatcher(gold)
    for step in agent(gold):
        if matcher.finished:
            break
        record = matcher.submit(step)
        if record.status.value == "calls_matched":
            assert len(matcher.observations(record)) == len(step.calls)
    return score_matcher(matcher, options or ScoringOptions())


def run_session(session: GoldSession, agent: Agent, options: ScoringOptions | None = None) -> SessionScore:
    return SessionScore(session.session_id, tuple(run_live(t, agent, options) for t in session.tasks))
