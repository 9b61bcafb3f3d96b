"""Validation catches each kind of broken scenario with a message that says what to fix."""

from __future__ import annotations

from typing import Any

import pytest

from env_server.catalog import Catalog
from env_server.orchestrator import Severity, parse_official_line, validate_scenario


def errors_of(line: dict[str, Any], catalog: Catalog | None = None) -> list[str]:
    spec = parse_official_line(line, int(line["id"].rsplit("_", 1)[1]))
    return [f"{p.where}: {p.message}" for p in validate_scenario(spec, catalog) if p.severity is Severity.ERROR]


def node(line: dict[str, Any], task: int, idx: int) -> dict[str, Any]:
    return line["english_answer_list"][task][idx]


def test_a_dependency_out_of_range_is_reported(official_lines):
    line = official_lines[0]
    node(line, 3, 1)["dependency_list"] = [5]
    assert errors_of(line) == ["task 3: node 1: dependency 5 is out of range 0..1"]


def test_a_dependency_cycle_is_reported_with_its_nodes(official_lines):
    line = official_lines[1]
    node(line, 0, 0)["dependency_list"] = [1]
    assert errors_of(line) == ["task 0: dependency cycle through nodes [0, 1]"]


def test_an_idx_that_is_not_the_position_is_reported(official_lines):
    line = official_lines[0]
    node(line, 0, 1)["idx"] = 4
    assert errors_of(line) == ["task 0: node 1: idx is 4, expected 1"]


def test_a_task_without_a_prepare_node_is_reported(official_lines):
    line = official_lines[0]
    line["english_answer_list"][3] = line["english_answer_list"][3][:1]
    assert "task 3: expected exactly one prepare_to_answer node, found 0" in errors_of(line)


def test_a_prepare_node_that_misses_a_sink_is_reported(official_lines):
    line = official_lines[0]
    node(line, 0, 2)["dependency_list"] = [0]
    assert errors_of(line) == [
        "task 0: the prepare_to_answer node must depend on every sink [0, 1], but depends on [0]"
    ]


def test_a_gold_action_outside_the_tool_list_is_reported(official_lines):
    line = official_lines[0]
    node(line, 3, 0)["action"]["name"] = "lookupTideTables"
    assert errors_of(line) == ["task 3: node 0: action 'lookupTideTables' is not one of the scenario's tools"]


def test_gold_arguments_that_break_the_schema_are_reported(official_lines):
    line = official_lines[0]
    node(line, 2, 2)["action"]["arguments"] = {"harbour": "Falmouth", "hours": "two", "seats": 3}
    found = errors_of(line)
    assert "task 2: node 2: reserveKayak: parameter 'hours': expected number, got \"two\"" in found
    assert "task 2: node 2: reserveKayak: parameter 'seats': expected one of [1, 2], got integer 3" in found


def test_an_ask_node_without_the_users_reply_is_reported(official_lines):
    line = official_lines[0]
    del node(line, 2, 0)["user_input"]
    assert errors_of(line) == [
        "task 2: node 0: an ask_user_for_required_parameters node needs the user's reply in user_input"
    ]


def test_an_ask_about_a_parameter_the_tool_lacks_is_reported(official_lines):
    line = official_lines[0]
    node(line, 2, 1)["action"]["arguments"]["tool_list"][0]["missing_required_parameters"] = ["duration"]
    assert errors_of(line) == ["task 2: node 1: reserveKayak has no parameter(s) ['duration']"]


def test_a_chat_answer_after_tool_use_is_reported(official_lines):
    line = official_lines[0]
    node(line, 3, 1)["action"]["arguments"] = {"answer_type": "chat"}
    assert errors_of(line) == ["task 3: node 1: answer_type should be 'tool' for this task, got 'chat'"]


def test_a_first_task_with_a_subtype_or_a_later_one_without_is_reported(official_lines):
    spec = parse_official_line(official_lines[0], 0)
    spec.tasks[0].subtype, spec.tasks[1].subtype = spec.tasks[1].subtype, None
    messages = [p.message for p in validate_scenario(spec)]
    assert "the first task has no hidden-intent subtype, got 'Partial Information'" in messages
    assert "every task after the first needs a hidden-intent subtype" in messages


def test_unknown_catalog_tools_come_with_a_suggestion(official_lines, builtin_catalog: Catalog):
    spec = parse_official_line(official_lines[0], 0)
    spec.tools = ["ticketmaster_search_show"]
    messages = [p.message for p in validate_scenario(spec, builtin_catalog)]
    assert len(messages) == 1
    assert messages[0].startswith("unknown tool 'ticketmaster_search_show'; did you mean ticketmaster_search_shows")


@pytest.mark.parametrize(
    ("task", "label", "warning"),
    [
        (0, "Sequential Multi-Tool", "labelled 'Sequential Multi-Tool' but the calls form a 'Parallel Multi-Tool' graph"),
        (1, "Single-Tool", "a Single-Tool task should make one call, it makes 0"),
        (3, "Chat", "a Chat task should hold only its prepare_to_answer node"),
    ],
)
def test_a_task_type_that_disagrees_with_the_graph_is_a_warning(official_lines, task, label, warning):
    line = official_lines[0]
    line["english_task_types"][task] = label
    problems = validate_scenario(parse_official_line(line, 0))
    assert [(p.severity, p.message) for p in problems if p.severity is Severity.WARNING] == [(Severity.WARNING, warning)]
