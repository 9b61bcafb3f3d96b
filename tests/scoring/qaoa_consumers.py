"""The acceptance rules of the two programs that read QAOA exports, restated in our own code.

* **UniToolCall's conversation cleaner** (its training-set ``remove_invalid_conversations``
  script, plus the empty-tool-list filter next to it) drops a conversation when

  - a ``function_call`` turn is not followed by an ``observation`` turn (``invalid_flow``), or
    is the last turn (``incomplete_flow``);
  - an ``observation`` turn that is not the last is followed by anything but ``gpt`` or
    ``function_call`` (``invalid_flow``);
  - a ``function_call`` value is not JSON (``invalid_json``), is not an object with a ``name``,
    or has ``arguments`` that are a string holding no JSON (``invalid_function_call_json``);
  - the called name is not among the ``tools`` (``tool_not_found``); ``tools`` is read as a
    JSON string (a list is tolerated) of objects keyed by ``name``;
  - the tool list is empty (``empty_tools``).

* **LLaMA-Factory's ShareGPT loader** (``formatting: sharegpt`` with the tags ``from``/``value``
  and the roles ``human``, ``gpt``, ``observation``, ``function_call``, plus the ``system`` and
  ``tools`` columns) skips an example when

  - after an optional leading ``system`` turn, a turn at an even position is not ``human`` or
    ``observation``, or one at an odd position is not ``gpt`` or ``function_call``
    (``invalid_role``);
  - the number of turns is odd (``invalid_count``);

  and fails while formatting when a value, ``system`` or ``tools`` is not a string, ``tools`` is
  not a JSON list of objects, or a ``function_call`` value is not a JSON object (or list of
  objects) holding both ``name`` and ``arguments`` (``bad_type``).

Each function returns the problem names found (empty: accepted).
"""

from __future__ import annotations

import json
from typing import Any

LF_EVEN = ("human", "observation")
LF_ODD = ("gpt", "function_call")


def _tool_names(tools: Any) -> set[str] | None:
    """Names of a ``tools`` field (a JSON string or a list), or None when it does not parse."""
    try:
        value = json.loads(tools) if isinstance(tools, str) else tools
    except ValueError:
        return None
    if not isinstance(value, list):
        return None
    return {t["name"] for t in value if isinstance(t, dict) and "name" in t}


def _call_problems(value: str, names: set[str]) -> set[str]:
    try:
        call = json.loads(value)
    except ValueError:
        return {"invalid_json"}
    if not isinstance(call, dict) or "name" not in call:
        return {"invalid_function_call_json"}
    problems = {"tool_not_found"} if call["name"] and call["name"] not in names else set()
    arguments = call.get("arguments", {})
    if isinstance(arguments, str):
        try:
            json.loads(arguments)
        except ValueError:
            problems.add("invalid_function_call_json")
    return problems


def unitoolcall_problems(item: dict[str, Any]) -> set[str]:
    """What UniToolCall's cleaner would drop ``item`` for."""
    turns = item.get("conversations")
    if not isinstance(turns, list):
        return set()  # the cleaner keeps what it cannot read
    names = _tool_names(item.get("tools", "[]"))
    problems = {"empty_tools"} if names is not None and not names else set()
    for i, turn in enumerate(turns):
        role = turn.get("from")
        following = turns[i + 1].get("from") if i + 1 < len(turns) else None
        if role == "function_call":
            if following is None:
                problems.add("incomplete_flow")
            elif following != "observation":
                problems.add("invalid_flow")
            problems |= _call_problems(turn.get("value", ""), names or set())
        elif role == "observation" and following is not None and following not in ("gpt", "function_call"):
            problems.add("invalid_flow")
    return problems


def _lf_call_ok(value: str) -> bool:
    try:
        calls = json.loads(value)
    except ValueError:
        return False
    calls = calls if isinstance(calls, list) else [calls]
    return all(isinstance(c, dict) and "name" in c and "arguments" in c for c in calls)


def llamafactory_problems(item: dict[str, Any]) -> set[str]:
    """What LLaMA-Factory's ShareGPT loader would skip or fail on for ``item``."""
    problems: set[str] = set()
    turns = list(item.get("conversations") or [])
    if turns and turns[0].get("from") == "system":
        turns = turns[1:]
    for i, turn in enumerate(turns):
        if turn.get("from") not in (LF_EVEN, LF_ODD)[i % 2]:
            problems.add("invalid_role")
            break
    if len(turns) % 2:
        problems.add("invalid_count")
    tools = item.get("tools", "")
    typed = isinstance(item.get("system", ""), str) and isinstance(tools, str)
    typed = typed and all(isinstance(t.get("value"), str) for t in turns)
    typed = typed and (tools == "" or (_tool_names(tools) is not None and all(
        isinstance(t, dict) for t in json.loads(tools))))
    typed = typed and all(_lf_call_ok(t["value"]) for t in turns if t.get("from") == "function_call")
    if not typed:
        problems.add("bad_type")
    return problems


def rejections(items: list[dict[str, Any]]) -> dict[str, set[str]]:
    """``{session id: problems}`` for every item either consumer rejects."""
    out = {}
    for item in items:
        problems = unitoolcall_problems(item) | llamafactory_problems(item)
        if problems:
            out[str(item.get("id"))] = problems
    return out
