"""From a field's name and its record's entity to a value kind (``simulators/naming.py``)."""

from __future__ import annotations

import pytest

from env_server.simulators.naming import resolve_kind


@pytest.mark.parametrize(("field", "entity", "hints"), [
    ("content", "task", {}),
    ("content", "task", {"content": "sentence"}),
    ("content", "task", {"content": "job_title"}),
    ("text", "todo", {}),
    ("content", "checklist_item", {}),
])
def test_a_tasks_content_is_a_thing_to_do_whatever_broad_hint_it_has(field: str, entity: str, hints: dict[str, str]):
    assert resolve_kind(field, entity, "", hints) == "task_title"


def test_a_notes_content_stays_its_own_text():
    assert resolve_kind("content", "note", "", {}) != "task_title"
    assert resolve_kind("content", "task", "", {"content": "note_text"}) == "note_text"
