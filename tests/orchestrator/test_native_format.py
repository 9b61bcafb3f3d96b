"""Native scenario files: strict keys, references between nodes, recording and the CLI."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from env_server.catalog import Catalog
from env_server.orchestrator import (
    NativeScenarioFile,
    RecordError,
    ScenarioFormatError,
    load_native_file,
    record_scenario,
    validate_scenario,
)
from env_server.orchestrator.cli import scenarios_app
from env_server.orchestrator.native import to_scenario_spec, write_native_file


def prepare(deps: list[int], text: str = "Done.", chat: bool = False) -> dict[str, Any]:
    kind = "chat" if chat else "tool"
    return {"action": "prepare_to_answer", "arguments": {"answer_type": kind}, "dependency_list": deps, "observation": text}


SHOWS = {
    "id": "tiny_show_night",
    "title": "Find a show, book it, cancel it.",
    "split": "train",
    "env_info": "2026-02-02 10:00:00 Monday",
    "seed": 5,
    "tools": ["ticketmaster_search_shows", "ticketmaster_get_show", "ticketmaster_book_tickets", "ticketmaster_cancel_booking"],
    "tasks": [
        {"user": "Theatre in Porto?", "type": "Single-Tool", "nodes": [
            {"action": "ticketmaster_search_shows", "arguments": {"city": "Porto", "genre": "theatre"}},
            prepare([0], "First up: {{0:shows.0.title}}.")]},
        {"user": "Details of the first and book one seat for Rui, rui@example.com.", "type": "Sequential Multi-Tool",
         "subtype": "Coreferential Reference", "nodes": [
            {"action": "ticketmaster_get_show", "arguments": {"show_id": {"$ref": "0.0:shows.0.show_id"}}},
            {"action": "ticketmaster_book_tickets", "dependency_list": [0], "arguments": {
                "show_id": {"$ref": "0:show_id"}, "quantity": 1, "customer_name": "Rui", "customer_email": "rui@example.com"}},
            prepare([1], "Booked {{1:booking_id}}.")]},
        {"user": "Thanks!", "type": "Chat", "subtype": "Partial Information", "nodes": [prepare([], "Enjoy!", chat=True)]},
        {"user": "Cancel that booking.", "type": "Single-Tool", "subtype": "Long-Range Dependency", "nodes": [
            {"action": "ticketmaster_cancel_booking", "arguments": {"booking_id": {"$ref": "1.1:booking_id"}}},
            prepare([0])]},
    ],
}


def native(data: dict[str, Any] | None = None) -> NativeScenarioFile:
    return NativeScenarioFile.model_validate(copy.deepcopy(data or SHOWS))


def test_recording_resolves_references_from_earlier_results(builtin_catalog: Catalog):
    recorded = record_scenario(native(), builtin_catalog)
    spec = to_scenario_spec(recorded)
    show_id = recorded.tasks[0].nodes[0].observation["shows"][0]["show_id"]
    assert spec.tasks[1].nodes[0].action.arguments == {"show_id": show_id}
    booking = recorded.tasks[1].nodes[1].observation
    assert booking["show_id"] == show_id
    assert spec.tasks[3].nodes[0].action.arguments == {"booking_id": booking["booking_id"]}
    assert spec.tasks[1].nodes[2].observation == f"Booked {booking['booking_id']}."
    assert recorded.tasks[3].nodes[0].observation["status"] == "cancelled"
    assert validate_scenario(spec, builtin_catalog) == []


def test_recording_twice_gives_identical_files(builtin_catalog: Catalog, tmp_path: Path):
    texts = []
    for name in ("a", "b"):
        path = tmp_path / name / "tiny_show_night.json"
        path.parent.mkdir()
        write_native_file(record_scenario(native(), builtin_catalog), path)
        texts.append(path.read_text(encoding="utf-8"))
    assert texts[0] == texts[1]


def test_an_unrecorded_file_says_to_run_record(builtin_catalog: Catalog):
    messages = [p.message for p in validate_scenario(to_scenario_spec(native()), builtin_catalog)]
    assert "task 1 node 0: reference '0.0:shows.0.show_id': node 0.0 has no observation yet " \
           "(run `toolenv scenarios record`)" in messages
    assert "node 0: no observation recorded (run `toolenv scenarios record`)" in messages


def test_a_reference_to_a_node_not_depended_on_is_reported(builtin_catalog: Catalog):
    data = copy.deepcopy(SHOWS)
    data["tasks"][1]["nodes"][1]["dependency_list"] = []
    data["tasks"][1]["nodes"][2]["dependency_list"] = [0, 1]
    with pytest.raises(RecordError, match="node 0 is not among the nodes this node depends on"):
        record_scenario(native(data), builtin_catalog)


def test_a_reference_to_a_later_task_is_reported():
    data = copy.deepcopy(SHOWS)
    data["tasks"][0]["nodes"][0]["arguments"]["city"] = {"$ref": "2.0:"}
    spec = to_scenario_spec(native(data))
    assert spec.load_problems[0] == "task 0 node 0: reference '2.0:': task 2 comes later than task 0"


def test_a_gold_call_the_simulator_rejects_stops_recording(builtin_catalog: Catalog):
    data = copy.deepcopy(SHOWS)
    data["tasks"][1]["nodes"][0]["arguments"] = {"show_id": "show_does_not_exist"}
    with pytest.raises(RecordError, match=r"tiny_show_night task 1 node 0 \(ticketmaster_get_show\)"):
        record_scenario(native(data), builtin_catalog)


def test_unknown_keys_in_a_native_file_are_rejected(tmp_path: Path):
    data = copy.deepcopy(SHOWS)
    data["tasks"][0]["nodes"][0]["args"] = {}
    path = tmp_path / "tiny_show_night.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ScenarioFormatError, match=r"tasks\.0\.nodes\.0\.args: Extra inputs are not permitted"):
        load_native_file(path)


def test_a_native_file_must_declare_its_split(tmp_path: Path):
    data = copy.deepcopy(SHOWS)
    del data["split"]
    path = tmp_path / "tiny_show_night.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ScenarioFormatError, match=r"split: Field required"):
        load_native_file(path)
    data["split"] = "holdout"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ScenarioFormatError, match=r"split: Input should be 'train' or 'test'"):
        load_native_file(path)
    assert load_native_file(_written(tmp_path, SHOWS)).split == "train"


def _written(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "ok" / f"{data['id']}.json"
    path.parent.mkdir()
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_file_named_differently_from_its_id_is_reported(tmp_path: Path):
    path = tmp_path / "other_name.json"
    write_native_file(native(), path)
    assert "the file name must be the id: expected tiny_show_night.json, got other_name.json" in load_native_file(
        path
    ).load_problems


def test_cli_records_then_checks_then_shows_a_directory(tmp_path: Path):
    write_native_file(native(), tmp_path / "tiny_show_night.json")
    runner = CliRunner()
    before = runner.invoke(scenarios_app, ["check", "--scenarios", str(tmp_path)])
    assert before.exit_code == 1 and "no observation recorded" in before.output
    recorded = runner.invoke(scenarios_app, ["record", "--scenarios", str(tmp_path)])
    assert recorded.exit_code == 0, recorded.output
    after = runner.invoke(scenarios_app, ["check", "--scenarios", str(tmp_path)])
    assert after.exit_code == 0 and "1 scenarios, 4 tasks: 0 errors, 0 warnings" in after.output
    shown = runner.invoke(scenarios_app, ["show", "tiny_show_night", "--scenarios", str(tmp_path)])
    assert shown.exit_code == 0 and "Theatre in Porto?" in shown.output
    missing = runner.invoke(scenarios_app, ["show", "tiny_show_nite", "--scenarios", str(tmp_path)])
    assert missing.exit_code == 1
