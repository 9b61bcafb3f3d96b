"""Entity templates: the files validate, use known kinds, and imported tools answer with them."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from env_server import ToolEnvironment
from env_server.catalog import Catalog, Operation, load_catalog
from env_server.catalog.templates import (
    GENERIC,
    EntityTemplate,
    choose_template,
    default_templates,
    read_templates,
    templates_dir,
)
from env_server.errors import CatalogError, ToolCallError
from env_server.simulators import SimContext, simulate
from env_server.simulators.naming import resolve_kind
from env_server.simulators.plans import singular
from env_server.simulators.records import default_facts
from env_server.simulators.values import LEGACY_HINTS, known_kind
from env_server.specs.samples import sample_arguments
from state import Database
from tests.conftest import WTB_TOOLS

TEMPLATES = default_templates()
BY_NAME = {t.name: t for t in TEMPLATES}
TEXT_FORMATS = frozenset({"date", "date-time", "uri", "email", "time"})


def _text_fields(template: EntityTemplate) -> list[tuple[str, str]]:
    """``(field, parent)`` of every free-text string the generator must give a kind."""
    found: list[tuple[str, str]] = []

    def walk(schema: dict[str, Any], parent: str) -> None:
        for name, sub in (schema.get("properties") or {}).items():
            if sub.get("type") == "object":
                walk(sub, name)
            elif sub.get("type") == "array":
                items = sub["items"]
                if items.get("type") == "object":
                    walk(items, name)
                elif items.get("type") == "string" and "enum" not in items and items.get("format") not in TEXT_FORMATS:
                    item = name if name in template.hints and singular(name) not in template.hints else singular(name)
                    found.append((item, name))
            elif sub.get("type") == "string" and "enum" not in sub and sub.get("format") not in TEXT_FORMATS:
                found.append((name, parent))

    walk(template.record, "")
    return found


# -- the files ------------------------------------------------------------------------------


def test_every_template_file_validates_and_names_its_file():
    files = sorted(templates_dir().glob("*.json"))
    assert len(files) == len(TEMPLATES) >= 40
    assert [f.stem for f in files] == [t.name for t in TEMPLATES]
    assert GENERIC in BY_NAME


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.name)
def test_hints_name_known_kinds(template: EntityTemplate):
    vocab = default_facts().vocab
    for field, kind in template.hints.items():
        assert kind not in LEGACY_HINTS, f"{template.name}.{field}: generic hint '{kind}'"
        assert known_kind(kind, vocab), f"{template.name}.{field}: unknown kind '{kind}'"


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.name)
def test_every_text_field_has_a_kind_of_its_own(template: EntityTemplate):
    entity = template.entity or "item"
    for field, parent in _text_fields(template):
        kind = resolve_kind(field, entity, parent, template.hints)
        assert kind is not None, f"{template.name}.{field} would be drawn as a generic tag"
        assert kind not in LEGACY_HINTS, f"{template.name}.{field} is drawn as '{kind}'"


def test_the_generic_template_names_records_after_their_entity():
    generic = BY_NAME[GENERIC]
    assert generic.keywords == [] and generic.hints == {"description": "record_summary"}
    assert resolve_kind("name", "invoice", "", generic.hints) == "title"
    assert resolve_kind("description", "invoice", "", generic.hints) == "record_summary"
    assert set(generic.properties["status"]["enum"]) == {"active", "inactive", "pending", "archived"}
    assert generic.properties["created_at"]["format"] == "date-time"


def test_unknown_keys_and_foreign_hints_are_rejected(tmp_path: Path):
    good = json.loads((templates_dir() / "joke.json").read_text(encoding="utf-8"))
    for bad in ({**good, "colour": "red"}, {**good, "hints": {"punchline": "joke"}},
                {**good, "record": {"type": "object", "properties": {"x": {"$ref": "#/y"}}}}):
        for old in tmp_path.glob("*.json"):
            old.unlink()
        (tmp_path / "joke.json").write_text(json.dumps(bad), encoding="utf-8")
        (tmp_path / "generic.json").write_text((templates_dir() / "generic.json").read_text(encoding="utf-8"))
        with pytest.raises(CatalogError):
            read_templates(tmp_path)


# -- choosing and inferring -----------------------------------------------------------------


def _openai(name: str, description: str, **params: str) -> dict[str, Any]:
    return {"type": "function", "function": {
        "name": name, "description": description,
        "parameters": {"type": "object", "properties": {k: {"type": t} for k, t in params.items()},
                       "required": list(params)},
    }}


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    path = tmp_path_factory.mktemp("openai") / "tools.json"
    path.write_text(json.dumps([
        _openai("getCurrentWeather", "Retrieve the current weather for a location.", location="string"),
        _openai("get_stock_price", "Get the latest price of a stock by its ticker symbol.", symbol="string"),
        _openai("getCoinPrice", "Real-time price of a cryptocurrency.", coin="string"),
        _openai("searchFlights", "Search flights between two airports on a date.", origin="string",
                destination="string", departure_date="string"),
        _openai("getGizmo", "Get one gizmo by its id.", gizmo_id="string"),
    ]), encoding="utf-8")
    return load_catalog([path])


@pytest.mark.parametrize(("name", "description", "expected"), [
    ("getCurrentWeather", "Retrieve the current weather information for a location.", "weather_current"),
    ("getRealtimeCity", "Get the real-time weather conditions of a specified city.", "weather_current"),
    ("getCityForecast", "Get the future weather forecast for a specified city.", "weather_forecast"),
    ("getCityAQIForecast", "Get the future air quality forecast for a specified city.", "air_quality"),
    ("getCurrentPrice", "Get the current price of the cryptocurrency.", "crypto_quote"),
    ("get_stock_price", "Get the latest price of a stock.", "stock_quote"),
    ("getCityShow", "Get the performance events in the specified city.", "show_event"),
    ("bookTrainTickets", "Book Dutch train tickets.", "train"),
    ("getHolidaysByCountryAndYear", "Retrieve a list of holidays for a country and year.", "holiday"),
    ("storeJsonData", "Store JSON data in the database.", GENERIC),
])
def test_the_best_matching_template_is_chosen(name: str, description: str, expected: str):
    assert choose_template(name, description).name == expected


def test_a_weather_tool_answers_with_temperature_condition_and_humidity(imported: Catalog):
    spec = imported.tools["getCurrentWeather"]
    assert spec.profile.operation is Operation.READ and spec.profile.entity == "weather"
    assert spec.profile.hints["condition"] == "weather_condition"
    assert any("'weather_current'" in n.change for n in spec.normalizations)
    out = simulate(spec, {"location": "Lisbon"}, SimContext())
    Draft202012Validator(spec.output_schema).validate(out)
    assert out["location"] == "Lisbon" and out["country"] == "Portugal"
    assert -10 < out["temp_c"] < 35 and abs(out["temp_f"] - (out["temp_c"] * 9 / 5 + 32)) < 0.2
    assert isinstance(out["condition"], str) and 0 <= out["humidity"] <= 100
    assert "weather_id" not in out  # an observation, not an entity


@pytest.mark.parametrize(("tool", "args", "kind"), [
    ("get_stock_price", {"symbol": "AAPL"}, "stock"),
    ("getCoinPrice", {"coin": "BTC"}, "crypto"),
])
def test_a_price_tool_answers_with_a_consistent_quote(imported: Catalog, tool: str, args: dict[str, Any], kind: str):
    spec = imported.tools[tool]
    assert choose_template(spec.name, spec.description).name in ("stock_quote", "crypto_quote")
    out = simulate(spec, args, SimContext())
    Draft202012Validator(spec.output_schema).validate(out)
    assert out["symbol"] == next(iter(args.values())) and out["currency"] == "USD"
    assert out["price"] > 0 and abs(out["change"] - (out["price"] - out["previous_close"])) < 0.02


def test_a_flight_search_lists_flights_between_the_requested_airports(imported: Catalog):
    spec = imported.tools["searchFlights"]
    args = {"origin": "LIS", "destination": "JFK", "departure_date": "2026-02-10"}
    out = simulate(spec, args, SimContext())
    Draft202012Validator(spec.output_schema).validate(out)
    assert out["results"]
    for flight in out["results"]:
        assert flight["flight_id"] and flight["airline"] and flight["flight_number"][:2].isalpha()
        assert (flight["origin"], flight["destination"], flight["departure_date"]) == ("LIS", "JFK", "2026-02-10")
        assert flight["departure_time"].startswith("2026-02-10T") and flight["arrival_time"] > flight["departure_time"]
        assert flight["price"] > 0 and flight["airline_code"] == flight["flight_number"][:2]


def test_a_tool_no_template_fits_gets_a_named_generic_record(imported: Catalog):
    spec = imported.tools["getGizmo"]
    props = spec.output_schema["properties"]
    assert {"gizmo_id", "name", "description", "status", "created_at"} <= set(props)
    out = simulate(spec, {"gizmo_id": "g1"}, SimContext())
    assert out["gizmo_id"] == "g1" and out["name"] and out["description"]


# -- WildToolBench (../shared) --------------------------------------------------------------


@pytest.fixture(scope="module")
def wtb() -> Catalog:
    if not WTB_TOOLS.exists():
        pytest.skip(f"reference data not found at {WTB_TOOLS} (../shared is optional)")
    return load_catalog([WTB_TOOLS])


def test_every_wildtoolbench_tool_simulates_within_its_inferred_schema(wtb: Catalog):
    problems = []
    for spec in wtb.tools.values():
        validator = Draft202012Validator(spec.output_schema)
        args = sample_arguments(spec, 1)
        try:
            out = simulate(spec, args, SimContext())
        except ToolCallError:
            continue
        problems += [f"{spec.name}: {e.message}" for e in validator.iter_errors(out)]
    assert problems == []


def test_wildtoolbench_weather_and_shows_answer_like_the_real_apis(wtb: Catalog):
    env = ToolEnvironment(wtb, Database())
    env.create_session(tools=["getCurrentWeather", "getCityShow", "getShowDetail"], session_id="wtb", seed=5)
    weather = env.call_tool("wtb", "getCurrentWeather", {"location": "Berlin"}).result
    assert {"temp_c", "temp_f", "condition", "humidity", "wind_kph"} <= set(weather)
    assert weather["location"] == "Berlin" and weather["country"] == "Germany"

    args = {"city": "Lisbon", "startDate": "2026-02-01", "endDate": "2026-02-07"}
    shows = env.call_tool("wtb", "getCityShow", args).result["results"]
    assert shows
    for show in shows:
        assert {"show_id", "name", "venue", "date", "start_time", "price", "currency"} <= set(show)
        assert show["city"] == "Lisbon" and show["currency"] == "EUR"
        assert args["startDate"] <= show["date"] <= args["endDate"]
        assert dt.date.fromisoformat(show["date"])
    detail = env.call_tool("wtb", "getShowDetail", {"activity_id": shows[0]["show_id"]})
    assert not detail.is_error, detail.message
    assert detail.result["name"] == shows[0]["name"] and detail.result["venue"] == shows[0]["venue"]
