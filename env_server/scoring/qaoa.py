"""Export scored sessions as QAOA conversations (UniToolCall's Query-Action-Observation-Answer format).

One JSON object per session, in the field types UniToolCall's released data and LLaMA-Factory's
ShareGPT loader read::

    {"id", "system": str, "tools": str (a JSON list of {"name", "description", "inputSchema"}),
     "conversations": [{"from": "human" | "function_call" | "observation" | "gpt", "value": str}, ...],
     "meta": {"model", "task_types", "task_correct", "task_origin"}}

``tools`` is the list the session offered (distractors included) when the run recorded it (a
``toolenv eval`` run directory keeps it in each session's head line), else the gold tasks' tools.

Per task: the user message is a ``human`` turn. Each tool call is a ``function_call`` turn (value
``{"name", "arguments"}`` as JSON) followed at once by its ``observation`` turn (strings as they
are, other values as JSON), also within a parallel step, whose calls come one after the other.
A clarifying question is a ``gpt`` turn followed by the user's reply as a ``human`` turn; the
final reply is a ``gpt`` turn. ``gpt`` values are wrapped in ``<answer>...</answer>``. So roles
alternate as both consumers require: ``human``/``observation`` at even positions,
``gpt``/``function_call`` at odd ones, every call answered, and the conversation ends on ``gpt``.

Which steps are written (``source``):

* ``model``: the agent's own steps for tasks it got right. A failed task is written from the gold
  trajectory instead (its first optimal path), which is the history the official runner shows the
  agent for later tasks (teacher forcing, doc 3.1); ``meta.task_origin`` says which. With
  ``correct_only`` a session with any failed task is left out instead.
* ``gold``: every task from the gold trajectory, so a dataset becomes SFT data directly.

Crashed sessions are never exported. :func:`write_qaoa` writes JSON lines or, with
:attr:`QaoaFormat.JSON`, one JSON array (the layout UniToolCall's scripts ``json.load``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from enum import Enum
from pathlib import Path
from typing import Any

from env_server.scoring.matching import StepStatus
from env_server.scoring.models import ASK, PREPARE, GoldTask
from env_server.scoring.paths import PathEngine
from env_server.scoring.report import ScoredRun
from env_server.scoring.scorer import SessionScore, TaskScore
from env_server.scoring.transcript import task_steps

SYSTEM_TEMPLATE = (
    "You can use the tools listed between <tools></tools> to help the user.\n<tools>\n{tools}\n</tools>\n"
    "To call a tool, write <tool_call>{{\"name\": <tool name>, \"arguments\": <JSON object>}}</tool_call>, "
    "one block per call; several blocks in one reply run in parallel. "
    "Write your reply to the user inside <answer></answer>."
)
Turn = dict[str, str]


class QaoaSource(str, Enum):
    MODEL = "model"
    GOLD = "gold"


class QaoaFormat(str, Enum):
    JSONL = "jsonl"
    JSON = "json"

    @classmethod
    def for_path(cls, path: str | Path) -> QaoaFormat:
        """JSON for a ``.json`` name, else JSON lines."""
        return cls.JSON if Path(path).suffix == ".json" else cls.JSONL


def qaoa_tools(tools: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """OpenAI-style or bare tools as ``{name, description, inputSchema}``."""
    out = []
    for tool in tools:
        fn = tool.get("function", tool)
        schema = fn.get("parameters", fn.get("inputSchema")) or {"type": "object", "properties": {}}
        out.append({"name": fn.get("name", ""), "description": fn.get("description", ""), "inputSchema": schema})
    return out


def system_prompt(tools: Sequence[dict[str, Any]], env_info: str | None = None) -> str:
    text = SYSTEM_TEMPLATE.format(tools="\n".join(json.dumps(t, ensure_ascii=False) for t in tools))
    return f"Current Date: {env_info}\n{text}" if env_info else text


def _observation(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _call_turn(name: str, arguments: Any) -> Turn:
    return {"from": "function_call", "value": json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)}


def _call_and_observation(name: str, arguments: Any, observation: Any) -> list[Turn]:
    return [_call_turn(name, arguments), {"from": "observation", "value": _observation(observation)}]


def _answer(text: str | None) -> Turn:
    return {"from": "gpt", "value": f"<answer>{text or ''}</answer>"}


def gold_turns(task: GoldTask) -> list[Turn]:
    """The task's first optimal path as QAOA turns (without the opening human turn)."""
    turns: list[Turn] = []
    for step in PathEngine.from_task(task).first_optimal_path():
        nodes = [task.nodes[i] for i in step]
        if nodes[0].name == ASK:
            turns.append(_answer(_observation(nodes[0].observation)))
            turns.append({"from": "human", "value": nodes[0].user_input or ""})
        elif nodes[0].name == PREPARE:
            turns.append(_answer(_observation(nodes[0].observation)))
        else:
            for n in nodes:
                turns.extend(_call_and_observation(n.name, n.arguments, n.observation))
    return turns


def model_turns(score: TaskScore, gold: GoldTask | None) -> list[Turn]:
    """The agent's own steps of a task (meant for correct tasks) as QAOA turns."""
    turns: list[Turn] = []
    for view in task_steps(score, gold):
        if view.calls:
            for c in view.calls:
                turns.extend(_call_and_observation(c.name, c.arguments_object(), c.observation))
        elif view.status in (StepStatus.ASKED, StepStatus.ANSWERED):
            turns.append(_answer(view.text))
            if view.status is StepStatus.ASKED:
                turns.append({"from": "human", "value": view.user_reply or ""})
    return turns


def offered_tools(run: ScoredRun, session_id: str) -> list[dict[str, Any]]:
    """The tools the session offered as the run recorded them, else its gold tasks' tools (each once)."""
    recorded = run.tools.get(session_id)
    if recorded:
        return list(recorded)
    gold = run.gold.get(session_id)
    seen: dict[str, dict[str, Any]] = {}
    for task in gold.tasks if gold is not None else ():
        for tool in task.tools:
            seen.setdefault(str(tool.get("function", tool).get("name", "")), tool)
    return list(seen.values())


def session_to_qaoa(
    run: ScoredRun, session: SessionScore, source: QaoaSource = QaoaSource.MODEL, correct_only: bool = False
) -> dict[str, Any] | None:
    """One session as a QAOA object, or None when it is not exported (crashed, or filtered out)."""
    if session.failed or (correct_only and not session.correct):
        return None
    gold_session = run.gold.get(session.session_id)
    if source is QaoaSource.GOLD and gold_session is None:
        return None
    conversations: list[Turn] = []
    origin: list[str] = []
    for task in session.tasks:
        gold = run.gold_task(session.session_id, task.position)
        conversations.append({"from": "human", "value": run.query(session.session_id, task.position) or ""})
        if source is QaoaSource.MODEL and (task.correct or gold is None):
            conversations.extend(model_turns(task, gold))
            origin.append("model")
        elif gold is not None:
            conversations.extend(gold_turns(gold))
            origin.append("gold")
    tools = qaoa_tools(offered_tools(run, session.session_id))
    return {
        "id": session.session_id,
        "system": system_prompt(tools, run.env_info.get(session.session_id)),
        "tools": json.dumps(tools, ensure_ascii=False),
        "conversations": conversations,
        "meta": {
            "model": run.name,
            "task_types": [t.task_type.value for t in session.tasks],
            "task_correct": [t.correct for t in session.tasks],
            "task_origin": origin,
        },
    }


def iter_qaoa(run: ScoredRun, source: QaoaSource = QaoaSource.MODEL, correct_only: bool = False) -> Iterator[dict[str, Any]]:
    for session in run.sessions:
        item = session_to_qaoa(run, session, source, correct_only)
        if item is not None:
            yield item


def write_qaoa(
    run: ScoredRun,
    path: str | Path,
    source: QaoaSource = QaoaSource.MODEL,
    correct_only: bool = False,
    fmt: QaoaFormat | None = None,
) -> int:
    """Write JSON lines or one JSON array (``fmt``; default by the name, see
    :meth:`QaoaFormat.for_path`); return the session count."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    items = list(iter_qaoa(run, source, correct_only))
    if (fmt or QaoaFormat.for_path(path)) is QaoaFormat.JSON:
        path.write_text(json.dumps(items, indent=2, ensure_ascii=False), encoding="utf-8")
    else:
        path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
    return len(items)
