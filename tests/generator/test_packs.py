"""Phrase packs are data checked on load: a pack that breaks a rule never reaches a session."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from env_server.catalog import Catalog
from env_server.generator.packs import PACKS_DIR, load_library


def _copy(tmp_path: Path, edit) -> Path:
    for path in PACKS_DIR.glob("*.json"):
        data: dict[str, Any] = json.loads(path.read_text())
        edit(path.name, data)
        (tmp_path / path.name).write_text(json.dumps(data))
    return tmp_path


def _first_intent(name: str, data: dict[str, Any]) -> dict[str, Any] | None:
    return data["packs"][0]["intents"][0] if name == "travel.json" else None


def test_the_shipped_packs_load_and_name_tools_of_the_catalog(builtin_catalog: Catalog):
    lib = load_library()
    for pack in lib.packs:
        for intent in pack.intents:
            assert builtin_catalog.tools[intent.tool].family == pack.family, intent.name


@pytest.mark.parametrize(("edit", "message"), [
    (lambda i: i.update(surprise=1), "Extra inputs are not permitted"),
    (lambda i: i.update(reply=["No quote at all.", "Still nothing."]), "does not show"),
    (lambda i: i.update(ask=["What shows are on {town.pp}?", "Any shows {city.pp}?"]), "uses {town.pp}"),
    (lambda i: i["args"].update(extra="{nowhere}"), "args use slots"),
], ids=["extra key", "reply hides an anchor", "unknown slot", "arg slot not declared"])
def test_a_broken_pack_is_refused_on_load(tmp_path: Path, edit, message: str):
    def apply(name: str, data: dict[str, Any]) -> None:
        intent = _first_intent(name, data)
        if intent is not None:
            edit(intent)

    with pytest.raises(ValidationError, match=message):
        load_library(_copy(tmp_path, apply))
