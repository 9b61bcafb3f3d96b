"""An imported tool that names no country answers from its list's country, when the list agrees on one."""

from __future__ import annotations

import json
from pathlib import Path

from env_server.catalog import load_catalog


def _tool(name: str, description: str) -> dict:
    return {"type": "function", "function": {"name": name, "description": description,
                                             "parameters": {"type": "object", "properties": {}}}}


def test_a_tool_takes_the_country_its_siblings_all_name(tmp_path: Path):
    lists = [
        [_tool("getTrainStations", "Dutch train stations by name."), _tool("getDepartures", "Departures of a station.")],
        [_tool("getSchoolsSwiss", "Schools in Switzerland."), _tool("getSchoolsDanish", "Schools in Denmark."),
         _tool("getSchoolDetail", "One school's details.")],
    ]
    path = tmp_path / "tools.jsonl"
    path.write_text("\n".join(json.dumps(entries) for entries in lists) + "\n")
    catalog = load_catalog([path])
    assert catalog.tools["getDepartures"].profile.place == "NL"
    assert catalog.tools["getSchoolDetail"].profile.place is None  # its list names two countries
    assert catalog.tools["getSchoolsDanish"].profile.place == "DK"


def test_built_in_specs_keep_the_places_their_authors_gave(builtin_catalog):
    """A built-in family may mix national and global tools; none is moved to its siblings' country."""
    places: dict[str, set] = {}
    for spec in builtin_catalog.tools.values():
        places.setdefault(spec.provider, set()).add(spec.profile.place)
    mixed = [p for p, found in places.items() if None in found and len(found - {None}) == 1]
    assert mixed, "no built-in family mixes placed and unplaced tools any more"
