"""A trip's two ends are two places: no record goes from an airport to itself."""

from __future__ import annotations

import datetime as dt
from typing import Any

from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.simulators.aviation_kinds import trip_end_kind
from env_server.specs.samples import sample_arguments
from state import Database

ENDS = (("origin", "destination"), ("from", "to"), ("departure_airport", "arrival_airport"))


def _records(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        return [value] + [r for v in value.values() for r in _records(v)]
    if isinstance(value, list):
        return [r for v in value for r in _records(v)]
    return []


def _has_ends(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    props = schema.get("properties") or {}
    if any(a in props and b in props for a, b in ENDS):
        return True
    return any(_has_ends(v) for v in props.values()) or _has_ends(schema.get("items"))


def test_an_arrival_hinted_as_an_airport_code_is_the_destinations():
    assert trip_end_kind("destination", "airport_code") == "destination_airport_code"
    assert trip_end_kind("origin", "airport_code") is None
    assert trip_end_kind("destination", "city") is None


def test_no_sampled_trip_starts_where_it_ends():
    catalog = load_catalog()
    names = sorted(n for n, s in catalog.tools.items() if _has_ends(s.output_schema))
    assert len(names) >= 10
    env = ToolEnvironment(catalog, Database(), ServerSettings())
    env.create_session(tools=names, session_id="s", seed=3, today=dt.date(2026, 12, 7))
    same = []
    for name in names:
        out = env.call_tool("s", name, sample_arguments(catalog.tools[name]))
        for record in _records(out.result):
            same += [(name, a, record[a]) for a, b in ENDS
                     if isinstance(record.get(a), str) and len(record[a]) == 3 and record.get(a) == record.get(b)]
    assert not same


def test_items_found_around_a_point_lie_near_it_each_at_its_own_spot():
    catalog = load_catalog()
    env = ToolEnvironment(catalog, Database(), ServerSettings())
    env.create_session(tools=["ambee_list_active_fires"], session_id="f", seed=5, today=dt.date(2026, 12, 7))
    fires = env.call_tool("f", "ambee_list_active_fires", {"lat": 17.6801, "lng": 83.2016}).result["data"]
    spots = {(f["lat"], f["lng"]) for f in fires}
    assert len(spots) == len(fires) > 1
    assert all(abs(lat - 17.6801) < 0.1 and abs(lng - 83.2016) < 0.1 for lat, lng in spots)
