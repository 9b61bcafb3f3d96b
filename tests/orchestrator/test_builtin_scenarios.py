"""The built-in scenario set: valid, recorded from our simulator, and covering every label."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from env_server.catalog import Catalog
from env_server.orchestrator import (
    ScenarioLoad,
    default_scenarios_path,
    load_scenarios,
    record_file,
    validate_scenario,
)
from env_server.scoring import ASK, TaskType, TurnSubtype

BUILTIN = load_scenarios()
IDS = [s.id for s in BUILTIN.scenarios]


def test_the_built_in_set_has_at_least_24_scenarios_of_4_tasks(builtin_scenarios: ScenarioLoad):
    assert builtin_scenarios.errors == []
    assert len(builtin_scenarios.scenarios) >= 24
    assert all(len(s.tasks) >= 4 for s in builtin_scenarios.scenarios)
    assert len(set(IDS)) == len(IDS)


@pytest.mark.parametrize("scenario_id", IDS)
def test_every_built_in_scenario_validates_without_problems(scenario_id: str, builtin_catalog: Catalog):
    spec = BUILTIN.get(scenario_id)
    assert spec is not None
    assert [str(p) for p in validate_scenario(spec, builtin_catalog)] == []


def test_the_set_covers_all_task_types_and_subtypes(builtin_scenarios: ScenarioLoad):
    tasks = [t for s in builtin_scenarios.scenarios for t in s.tasks]
    types = Counter(t.task_type for t in tasks)
    subtypes = Counter(t.subtype for t in tasks if t.subtype)
    assert set(types) == set(TaskType)
    assert set(subtypes) == set(TurnSubtype)
    assert min(types.values()) >= 2
    assert min(subtypes.values()) >= 5


def test_the_set_has_two_round_clarifications(builtin_scenarios: ScenarioLoad):
    two_rounds = [
        s.id
        for s in builtin_scenarios.scenarios
        for t in s.tasks
        if sum(n.action.name == ASK for n in t.nodes) >= 2
    ]
    assert len(two_rounds) >= 2


def test_the_set_has_chat_then_tool_then_clarify_transitions(builtin_scenarios: ScenarioLoad):
    tool_types = {TaskType.SINGLE_TOOL, TaskType.PARALLEL, TaskType.SEQUENTIAL, TaskType.MIXED}

    def transitions(types: list[TaskType]) -> bool:
        for i, first in enumerate(types):
            if first is not TaskType.CHAT:
                continue
            for j in range(i + 1, len(types)):
                if types[j] in tool_types and TaskType.CLARIFY in types[j + 1:]:
                    return True
        return False

    hits = [s.id for s in builtin_scenarios.scenarios if transitions([t.task_type for t in s.tasks])]
    assert hits


def test_long_range_tasks_reach_back_more_than_two_turns(builtin_scenarios: ScenarioLoad):
    positions = {i for s in builtin_scenarios.scenarios for i, t in enumerate(s.tasks) if t.subtype is TurnSubtype.LONG_RANGE}
    assert positions and min(positions) >= 3


def test_recording_the_built_in_files_again_changes_nothing(builtin_catalog: Catalog, tmp_path: Path):
    for source in sorted(default_scenarios_path().glob("*.json")):
        copy = tmp_path / source.name
        shutil.copyfile(source, copy)
        assert record_file(copy, builtin_catalog) is False, f"{source.name} is stale or recording is not deterministic"
