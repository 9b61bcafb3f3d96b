"""The official WildToolBench JSONL loader: parsing, round trips and clear format errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from env_server.orchestrator import (
    ScenarioFormatError,
    ScenarioSource,
    dump_official_line,
    parse_official_line,
    read_official_jsonl,
    validate_scenario,
)
from env_server.orchestrator.official import write_official_jsonl
from env_server.scoring import TaskType, TurnSubtype
from tests.orchestrator.conftest import OFFICIAL


def test_fixture_lines_load_with_labels_nodes_and_inline_tools():
    scenarios, errors = read_official_jsonl(OFFICIAL)
    assert errors == []
    first = scenarios[0]
    assert first.id == "wild_tool_bench_0"
    assert first.source is ScenarioSource.WILDTOOLBENCH
    assert [t.task_type for t in first.tasks] == [TaskType.PARALLEL, TaskType.CHAT, TaskType.CLARIFY, TaskType.SINGLE_TOOL]
    assert [t.subtype for t in first.tasks] == [
        None,
        TurnSubtype.PARTIAL,
        TurnSubtype.COREFERENCE,
        TurnSubtype.LONG_RANGE,
    ]
    assert first.tool_names == ["lookupTideTable", "reserveKayak"]
    clarify = first.tasks[2].nodes
    assert [n.user_input for n in clarify[:2]] == ["Hmm, long enough for a short trip.", "Yes, two hours."]
    assert clarify[2].extra_fields == {"annotator_note": "kept"}


def test_loaded_lines_dump_back_to_the_same_objects(official_lines):
    scenarios, _ = read_official_jsonl(OFFICIAL)
    assert [dump_official_line(s) for s in scenarios] == official_lines


def test_unknown_top_level_fields_are_kept(official_lines):
    spec = parse_official_line(official_lines[0], 0)
    assert set(spec.extra_fields) == {"answer_list", "task_types", "turn_type"}


def test_writing_and_reading_a_file_round_trips(tmp_path: Path, official_lines):
    scenarios, _ = read_official_jsonl(OFFICIAL)
    out = tmp_path / "copy.jsonl"
    write_official_jsonl(scenarios, out)
    again, errors = read_official_jsonl(out)
    assert errors == []
    assert [dump_official_line(s) for s in again] == official_lines


def test_fixture_scenarios_validate_against_their_inline_tools():
    scenarios, _ = read_official_jsonl(OFFICIAL)
    for spec in scenarios:
        assert validate_scenario(spec) == []


def test_an_id_that_is_not_the_line_index_is_rejected(official_lines):
    with pytest.raises(ScenarioFormatError, match="expected 'wild_tool_bench_1'"):
        parse_official_line(official_lines[0], 1)


def test_an_unknown_task_type_names_the_allowed_labels(official_lines):
    line = official_lines[0]
    line["english_task_types"][1] = "Chitchat"
    with pytest.raises(ScenarioFormatError, match=r"english_task_types\[1\]: unknown label 'Chitchat'.*'Chat'"):
        parse_official_line(line, 0)


def test_an_unknown_subtype_is_rejected(official_lines):
    line = official_lines[0]
    line["english_turn_subtypes"][2] = "Long Range"
    with pytest.raises(ScenarioFormatError, match=r"english_turn_subtypes\[2\]: unknown label 'Long Range'"):
        parse_official_line(line, 0)


def test_a_missing_required_field_is_named(official_lines):
    line = official_lines[0]
    del line["english_tasks"]
    with pytest.raises(ScenarioFormatError, match=r"missing field\(s\) \['english_tasks'\]"):
        parse_official_line(line, 0)


def test_subtype_count_must_be_one_less_than_task_count(official_lines):
    line = official_lines[0]
    line["english_turn_subtypes"] = line["english_turn_subtypes"][:2]
    with pytest.raises(ScenarioFormatError, match="one label per task after the first"):
        parse_official_line(line, 0)


def test_a_bad_line_is_reported_and_the_other_lines_still_load(tmp_path: Path, official_lines):
    path = tmp_path / "mixed.jsonl"
    path.write_text(json.dumps(official_lines[0]) + "\n{not json\n", encoding="utf-8")
    scenarios, errors = read_official_jsonl(path)
    assert [s.id for s in scenarios] == ["wild_tool_bench_0"]
    assert len(errors) == 1 and "mixed.jsonl:2: invalid JSON" in str(errors[0])


def test_a_fifth_task_is_an_error_for_official_scenarios(official_lines):
    line = official_lines[0]
    line["english_tasks"].append("One more thing.")
    line["english_answer_list"].append(line["english_answer_list"][1])
    line["english_task_types"].append("Chat")
    line["english_turn_subtypes"].append("Partial Information")
    problems = validate_scenario(parse_official_line(line, 0))
    assert [p.message for p in problems] == ["official scenarios have exactly 4 tasks, found 5"]
