from __future__ import annotations

import datetime as dt
import json

from jsonschema import Draft202012Validator

from env_server.simulators import SimContext, simulate
from env_server.simulators.generate import Generation


def test_identical_inputs_give_identical_bytes(builtin_catalog):
    spec = builtin_catalog.tools["openmeteo_get_forecast"]
    args = {"latitude": 48.85, "longitude": 2.35}
    a = json.dumps(simulate(spec, args, SimContext(seed=3)), sort_keys=True)
    b = json.dumps(simulate(spec, dict(reversed(list(args.items()))), SimContext(seed=3)), sort_keys=True)
    assert a == b


def test_seed_and_arguments_change_the_output(builtin_catalog):
    spec = builtin_catalog.tools["openmeteo_get_air_quality"]
    base = simulate(spec, {"latitude": 1.0, "longitude": 2.0}, SimContext(seed=1))
    assert base != simulate(spec, {"latitude": 1.0, "longitude": 2.0}, SimContext(seed=2))
    assert base != simulate(spec, {"latitude": 1.5, "longitude": 2.0}, SimContext(seed=1))


def test_arguments_are_echoed_where_an_api_would(builtin_catalog):
    spec = builtin_catalog.tools["openmeteo_search_locations"]
    out = simulate(spec, {"name": "Paris"}, SimContext())
    assert out["results"] and all(r["name"] == "Paris" for r in out["results"])
    forecast = simulate(builtin_catalog.tools["openmeteo_get_forecast"], {"latitude": 10.5, "longitude": -3.25}, SimContext())
    assert (forecast["latitude"], forecast["longitude"]) == (10.5, -3.25)


def test_series_dates_follow_the_session_clock_and_an_hourly_forecast_starts_at_the_current_hour(builtin_catalog):
    spec = builtin_catalog.tools["openmeteo_get_forecast"]
    out = simulate(spec, {"latitude": 1.0, "longitude": 1.0}, SimContext(today=dt.date(2030, 5, 1)))
    times = [h["time"] for h in out["hourly"]]
    assert times[0] == "2030-05-01T09:00:00Z"  # the session's now, to the hour
    assert times == sorted(times)


def test_history_starts_at_the_requested_date(builtin_catalog):
    spec = builtin_catalog.tools["openmeteo_get_historical_weather"]
    out = simulate(spec, {"latitude": 1.0, "longitude": 1.0, "start_date": "2025-03-01", "end_date": "2025-03-05"}, SimContext())
    assert out["daily"][0]["date"] == "2025-03-01"


def test_outputs_validate_against_the_output_schema(builtin_catalog):
    spec = builtin_catalog.tools["openmeteo_get_air_quality"]
    for seed in range(20):
        out = simulate(spec, {"latitude": 1.0, "longitude": 2.0}, SimContext(seed=seed))
        Draft202012Validator(spec.output_schema).validate(out)


def test_imported_read_tool_echoes_the_requested_id(wtb_catalog):
    spec = wtb_catalog.tools["getShowDetail"]
    out = simulate(spec, {"activity_id": "show_42"}, SimContext())
    assert out["show_id"] == "show_42"


def test_a_schema_built_on_the_fly_never_gets_a_stale_compiled_plan():
    # Plans are cached by schema identity; a new dict may reuse a dead one's id, and must
    # still be compiled for what it says.
    today = dt.date(2026, 1, 15)
    for i in range(200):
        typ = ("string", "integer", "boolean")[i % 3]
        value = Generation(seed=i, today=today, args={}).fill({"type": "object", "properties": {"v": {"type": typ}}})
        expected = {"string": str, "integer": int, "boolean": bool}[typ]
        assert type(value["v"]) is expected, (i, typ, value)
