"""Scenarios: multi-task, WildToolBench-style dialogues with gold tool-call graphs.

A scenario offers a fixed tool list and at least four user tasks. Each task has a type
(``Single-Tool``, ``Parallel Multi-Tool``, ``Sequential Multi-Tool``, ``Mixed Multi-Tool``,
``Clarify``, ``Chat``), a hidden-intent subtype on every task after the first
(``Coreferential Reference``, ``Partial Information``, ``Long-Range Dependency``), and a
gold DAG of nodes. A node is an action (a real tool, or one of the pseudo-actions
``ask_user_for_required_parameters`` / ``prepare_to_answer``), its observation, its
``dependency_list`` and, on ask nodes, the user's scripted reply ``user_input``.

Two file formats load into the same ``ScenarioSpec``:

* **Official WildToolBench JSONL** (``official.py``): one scenario per line, ids
  ``wild_tool_bench_<line index>``, ``english_*`` fields, tools inline. Unknown fields are
  kept and written back.
* **Native files** (``native.py``), ``tool_specs/scenarios/<id>.json``, unknown keys
  rejected::

    {"id": "lisbon_weekend", "title": "...", "env_info": "2026-03-12 09:30:00 Thursday",
     "seed": 11, "tools": ["ticketmaster_search_shows", ...], "inline_tools": [],
     "tasks": [
       {"user": "Any comedy shows in Lisbon this weekend?", "type": "Single-Tool",
        "nodes": [
          {"action": "ticketmaster_search_shows", "arguments": {"city": "Lisbon"},
           "dependency_list": [], "observation": {...written by record...}},
          {"action": "prepare_to_answer", "arguments": {"answer_type": "tool"},
           "dependency_list": [0], "observation": "I found {{0:shows.0.title}} ..."}]},
       {"user": "Book two seats for the first one.", "type": "Single-Tool",
        "subtype": "Coreferential Reference",
        "nodes": [{"action": "ticketmaster_book_tickets",
                   "arguments": {"show_id": {"$ref": "0.0:shows.0.show_id"}, ...}}, ...]}]}

  References: ``{"$ref": "N:path"}`` (node N of the same task, which the node must depend
  on) or ``{"$ref": "T.N:path"}`` (node N of an earlier task T) stand for a value taken
  from that node's observation; the path is dot-separated keys and list indexes, empty for
  the whole observation. Pseudo-action text may embed the same refs as ``{{ref}}``.

Validation (``validate.py``) checks ids, labels, node indexes, dependency ranges and
acyclicity, one final ``prepare_to_answer`` depending on every sink, the shape of both
pseudo-actions, that every gold action names an offered tool, and that its arguments pass
the tool's input schema. ``record.py`` fills native observations from our simulator.
The CLI is ``toolenv scenarios list | show ID | check | record``.
"""

from env_server.orchestrator.channel import TALK_TOOL, talk_result
from env_server.orchestrator.errors import RecordError, ScenarioError, ScenarioFormatError
from env_server.orchestrator.gold import function_tools, gold_task, scenario_tools
from env_server.orchestrator.loading import ScenarioLoad, default_scenarios_path, load_scenarios
from env_server.orchestrator.models import (
    GoldAction,
    GoldNode,
    ScenarioSource,
    ScenarioSpec,
    TaskSpec,
)
from env_server.orchestrator.native import NativeScenarioFile, load_native_file, read_native_file
from env_server.orchestrator.official import dump_official_line, official_id, parse_official_line, read_official_jsonl
from env_server.orchestrator.record import record_file, record_scenario
from env_server.orchestrator.reports import SessionResult, TurnKind, UserTurn
from env_server.orchestrator.sessions import ScenarioSessions, registry_for
from env_server.orchestrator.splits import is_test_split
from env_server.orchestrator.validate import ScenarioProblem, Severity, validate_scenario

# Task labels and the pseudo-action names (TaskType, TurnSubtype, ASK, PREPARE) are the
# scoring engine's: import them from env_server.scoring.
__all__ = [
    "GoldAction",
    "GoldNode",
    "NativeScenarioFile",
    "RecordError",
    "ScenarioError",
    "ScenarioFormatError",
    "ScenarioLoad",
    "ScenarioProblem",
    "ScenarioSessions",
    "ScenarioSource",
    "ScenarioSpec",
    "SessionResult",
    "Severity",
    "TALK_TOOL",
    "TaskSpec",
    "TurnKind",
    "UserTurn",
    "default_scenarios_path",
    "dump_official_line",
    "function_tools",
    "gold_task",
    "is_test_split",
    "load_native_file",
    "load_scenarios",
    "official_id",
    "parse_official_line",
    "read_native_file",
    "read_official_jsonl",
    "record_file",
    "record_scenario",
    "registry_for",
    "scenario_tools",
    "talk_result",
    "validate_scenario",
]
