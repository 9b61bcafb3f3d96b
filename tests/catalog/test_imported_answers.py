"""Imported tools (WildToolBench lines) answer as the API their name and description promise:
ids name the right records, lists come back as lists, arguments are echoed only when sent,
and codes are real codes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from env_server import ToolEnvironment
from env_server.catalog import Catalog, Operation, load_catalog
from env_server.catalog.infer import ECHO_KEY
from env_server.catalog.places import described_country
from env_server.catalog.templates import GENERIC, choose_template, default_templates
from env_server.catalog.words import singularize
from env_server.config import ServerSettings
from env_server.simulators.naming import kind_for
from env_server.simulators.records import default_facts
from env_server.specs.audit import audit_catalog
from env_server.specs.audit_imported import generic_leaves, imported_hits
from env_server.specs.samples import sample_arguments
from state import Database
from state.store import Durability


def _tool(name: str, description: str, required: tuple[str, ...] = (), **params: str) -> dict[str, Any]:
    return {"type": "function", "function": {
        "name": name, "description": description,
        "parameters": {"type": "object", "properties": {k: {"type": t, "description": k} for k, t in params.items()},
                       "required": list(required)},
    }}


TOOLS = [
    _tool("getWeatherAlerts", "Get weather alerts for a region.", ("region",), region="string", alertType="string"),
    _tool("getCountryInfo", "Get the country information of a specific IP address.", ("ip",), ip="string"),
    _tool("searchMods", "Search mods by keyword.", ("query",), query="string"),
    _tool("getMods", "Get the list of mods according to the filtering conditions.", ("game_id",), game_id="integer"),
    _tool("syncTransactions", "Synchronize the bank transactions of a user.", ("user_id",), user_id="string"),
    _tool("searchShows", "Search shows in a city.", ("city",), city="string"),
    _tool("getShowDetail", "Get the detailed information of a show.", ("activity_id",), activity_id="string"),
    _tool("getRandomQuotesByCount", "Get a specified number of random anime quotes.", ("count",), count="integer"),
    _tool("getAnonymizationStatus", "Get the anonymization status of a specified task.", ("taskId",), taskId="string"),
    _tool("searchActivities", "Search for activities to do by participants and type.", (), participants="integer",
          type="string", price="number"),
    _tool("createSprocket", "Create a new sprocket.", ("sprocketName",), sprocketName="string", teeth="integer"),
    _tool("updateCog", "Change a cog's tooth count.", ("cog_id",), cog_id="integer", teeth="integer"),
]


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    path = tmp_path_factory.mktemp("wtb") / "tools.jsonl"
    path.write_text("\n".join(json.dumps([t]) for t in TOOLS) + "\n", encoding="utf-8")
    return load_catalog([path])


@pytest.fixture
def call(catalog: Catalog) -> Iterator[Any]:
    env = ToolEnvironment(catalog, Database(), ServerSettings(durability=Durability.EPHEMERAL))
    env.create_session(tools=sorted(catalog.tools), session_id="s", seed=11)

    def run(name: str, args: dict[str, Any]) -> Any:
        outcome = env.call_tool("s", name, args)
        assert not outcome.is_error, outcome.message
        Draft202012Validator(catalog.tools[name].output_schema).validate(outcome.result)
        return outcome.result

    yield run
    env.release_session("s")


@pytest.mark.parametrize(("field", "kind"), [
    ("country_code", "country_code"), ("origin_country_code", "country_code"), ("postal_code", "postal_code"),
    ("zip_code", "postal_code"), ("currency_code", "currency_code"), ("language_code", "language_code"),
    ("promo_code", "code"), ("airport_ident", "code"),
])
def test_a_code_field_takes_the_kind_its_name_says(field: str, kind: str):
    assert kind_for(field, "item") == kind


def test_an_ip_lookup_answers_real_country_and_currency_codes(call: Any):
    out = call("getCountryInfo", {"ip": "81.2.69.142"})
    assert len(out["country_code"]) == 2 and out["country_code"].isupper()
    assert len(out["currency_code"]) == 3 and out["currency_code"].isupper()


def test_an_argument_the_call_did_not_send_is_not_made_up(catalog: Catalog, call: Any):
    schema = catalog.tools["getWeatherAlerts"].output_schema["properties"]["results"]["items"]
    assert schema["properties"]["alertType"].get(ECHO_KEY) is True
    plain = call("getWeatherAlerts", {"region": "Bavaria"})["results"]
    assert plain and all("alertType" not in alert and alert["region"] == "Bavaria" for alert in plain)
    sent = call("getWeatherAlerts", {"region": "Bavaria", "alertType": "Flood"})["results"]
    assert sent and all(alert["alertType"] == "Flood" for alert in sent)


def test_another_entitys_id_filters_a_list_instead_of_naming_its_records(catalog: Catalog, call: Any):
    profile = catalog.tools["getMods"].profile
    assert (profile.operation, profile.id_param, profile.filter_params) == (Operation.SEARCH, None, ["game_id"])
    mods = call("getMods", {"game_id": 4711})["results"]
    assert mods and all(m["mod_id"].startswith("mod_") and m["mod_id"] != 4711 for m in mods)


def test_an_action_on_a_users_data_does_not_take_the_user_id_for_its_own(call: Any):
    out = call("syncTransactions", {"user_id": "user_42"})
    assert out["user_id"] == "user_42" and out["transaction_id"] != "user_42"


def test_a_detail_read_by_its_only_id_opens_the_listed_record(catalog: Catalog, call: Any):
    assert catalog.tools["getShowDetail"].profile.id_param == "activity_id"
    show = call("searchShows", {"city": "Lisbon"})["results"][0]
    detail = call("getShowDetail", {"activity_id": show["show_id"]})
    assert detail["name"] == show["name"]


def test_a_tool_asking_for_a_number_of_records_lists_at_most_that_many(catalog: Catalog, call: Any):
    assert catalog.tools["getRandomQuotesByCount"].profile.operation is Operation.SEARCH
    quotes = call("getRandomQuotesByCount", {"count": 2})["results"]
    assert 1 <= len(quotes) <= 2 and all(q["quote"] for q in quotes)


def test_a_status_read_answers_one_record(catalog: Catalog, call: Any):
    assert catalog.tools["getAnonymizationStatus"].profile.operation is Operation.READ
    assert isinstance(call("getAnonymizationStatus", {"taskId": "task_1"}), dict)


def test_an_argument_standing_for_a_record_field_keeps_the_fields_enum_and_bounds(catalog: Catalog, call: Any):
    item = catalog.tools["searchActivities"].output_schema["properties"]["results"]["items"]["properties"]
    assert "enum" in item["type"] and item["participants"]["maximum"] == 5
    for activity in call("searchActivities", {})["results"]:
        assert 1 <= activity["participants"] <= 5 and activity["type"] in item["type"]["enum"]
        assert 0 <= activity["price"] <= 1
    picked = call("searchActivities", {"participants": 2, "type": "social"})["results"]
    assert picked and all((a["participants"], a["type"]) == (2, "social") for a in picked)


def test_a_record_no_template_fits_is_named_and_described_from_the_call(call: Any):
    made = call("createSprocket", {"sprocketName": "Gearhead", "teeth": 32})
    assert made["name"] == "Gearhead" and made["description"] == "Sprocket “Gearhead” for teeth 32."
    changed = call("updateCog", {"cog_id": 7, "teeth": 30})
    assert changed["cog_id"] == 7 and changed["status"] == "updated"


def test_a_generic_record_lists_with_real_looking_statuses(catalog: Catalog):
    spec = catalog.tools["createSprocket"]
    assert spec.output_schema["properties"]["status"]["enum"]  # a create's own statuses
    generic = next(t for t in default_templates() if t.name == GENERIC)
    assert generic.properties["status"]["enum"] == ["active", "inactive", "pending", "archived"]


@pytest.mark.parametrize(("plural", "singular"), [
    ("cases", "case"), ("databases", "database"), ("buses", "bus"), ("classes", "class"), ("boxes", "box"),
    ("cities", "city"), ("status", "status"),
])
def test_plural_nouns_lose_only_their_plural_ending(plural: str, singular: str):
    assert singularize(plural) == singular


def test_wildtoolbench_search_results_echo_only_what_was_sent(wtb_catalog: Catalog):
    env = ToolEnvironment(wtb_catalog, Database(), ServerSettings(durability=Durability.EPHEMERAL))
    env.create_session(tools=sorted(wtb_catalog.tools), session_id="w", seed=3)
    try:
        searches = [(name, spec) for name, spec in sorted(wtb_catalog.tools.items())
                    if spec.profile.operation is Operation.SEARCH and len(spec.input_schema.get("properties") or {}) > 1]
        checked = 0
        for name, spec in searches[::5]:  # a spread of ~40, to stay fast
            # Arguments repeated as fields of their own (not standing for a record field).
            echoes = {k for k, v in (_record_schema(spec.output_schema).get("properties") or {}).items()
                      if v.get(ECHO_KEY)}
            checked += bool(echoes)
            required = set(spec.input_schema.get("required") or [])
            args = {k: v for k, v in sample_arguments(spec, 0).items() if k in required}
            outcome = env.call_tool("w", name, args)
            if outcome.is_error:
                continue
            for row in outcome.result.get(spec.profile.collection) or []:
                assert not (echoes - set(args)) & set(row), (name, args, row)
    finally:
        env.release_session("w")
    assert checked >= 20


def _record_schema(schema: dict[str, Any]) -> dict[str, Any]:
    results = (schema.get("properties") or {}).get("results")
    return results["items"] if isinstance(results, dict) and "items" in results else schema



# -- the audit's imported-tool check --------------------------------------------------------


def test_the_audit_flags_an_unsent_echo_and_a_borrowed_id(catalog: Catalog):
    alerts = catalog.tools["getWeatherAlerts"]
    made_up = {"results": [{"alert_id": "a1", "region": "Bavaria", "alertType": "rust"}], "total": 1}
    assert [p for p, _ in imported_hits(alerts, {"region": "Bavaria"}, made_up)] == ["$.alertType"]
    assert imported_hits(alerts, {"region": "Bavaria", "alertType": "rust"}, made_up) == []

    sync = catalog.tools["syncTransactions"]
    borrowed = {"transaction_id": "user_42", "user_id": "user_42", "amount": 5.0}
    assert [p for p, _ in imported_hits(sync, {"user_id": "user_42"}, borrowed)] == ["$.transaction_id"]


def test_the_audit_flags_an_answer_of_generic_filler(catalog: Catalog):
    spec = catalog.tools["syncTransactions"]
    filler = spec.model_copy(update={"output_schema": {"type": "object", "properties": {
        "transaction_id": {"type": "string"}, "flux": {"type": "string"}, "gadget": {"type": "string"},
        "amount": {"type": "number"}, "quux": {"type": "number"}}}})
    record = {"transaction_id": "t1", "flux": "knitting", "gadget": "golang", "amount": 4.0, "quux": 371.5}
    generic, counted = generic_leaves(filler, {}, record)
    assert (sorted(generic), counted) == (["$.flux", "$.gadget", "$.quux"], 4)
    assert [p for p, _ in imported_hits(filler, {}, record)] == ["$"]


def test_native_tools_are_not_judged_as_imported(builtin_catalog: Catalog):
    spec = next(s for s in builtin_catalog.tools.values() if not s.profile.inferred)
    assert imported_hits(spec, {}, {"anything": "goes", "foo": "bar"}) == []


def test_the_imported_tools_pass_their_audit(catalog: Catalog):
    report = audit_catalog(catalog, quiet=True)
    assert report.tools_audited == len(TOOLS) and report.findings == []


# -- templates for what inference used to misread ------------------------------------------


@pytest.mark.parametrize(("name", "description", "expected"), [
    ("getMonsters", "Retrieve data on all monsters in the RuneScape game, including their weaknesses.", "game_monster"),
    ("getSupportedLanguages", "Get the list of all languages supported by the API.", "language"),
    ("getSchoolsAndUniversitiesInfo", "Retrieve information about schools and universities in Switzerland.", "school"),
    ("getTechnicalIndicators", "Analyze stock data based on the provided technical indicators.", "technical_indicator"),
    ("getCountryLanguageAndCurrency", "Get the language and currency of a country.", "country"),
])
def test_a_tool_is_answered_by_the_template_of_what_it_returns(name: str, description: str, expected: str):
    assert choose_template(name, description).name == expected


def test_languages_and_schools_answer_with_facts_that_agree(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("wtb2") / "tools.jsonl"
    tools = [_tool("getSupportedLanguages", "Get the list of all languages supported by the API."),
             _tool("getSchools", "Retrieve information about schools and universities.", ("location",), location="string")]
    path.write_text("\n".join(json.dumps([t]) for t in tools) + "\n", encoding="utf-8")
    env = ToolEnvironment(load_catalog([path]), Database(), ServerSettings(durability=Durability.EPHEMERAL))
    env.create_session(tools=["getSupportedLanguages", "getSchools"], session_id="l", seed=2)
    languages = env.call_tool("l", "getSupportedLanguages", {}).result["results"]
    names = default_facts().reference.languages
    assert languages and all(names[lang["code"]] == lang["name"] for lang in languages)
    schools = env.call_tool("l", "getSchools", {"location": "Zurich"}).result["results"]
    assert schools and all(s["city"] in ("Zurich", "Zürich") and s["country"] == "Switzerland" for s in schools)
    assert all("{" not in s["name"] for s in schools)
    env.release_session("l")


# -- the country a description names ----------------------------------------------------------


@pytest.mark.parametrize(("description", "code"), [
    ("Retrieve information about schools and universities in Switzerland.", "CH"),
    ("Book Dutch train tickets.", "NL"),
    ("Get historical data of sensors in the UK.", "GB"),
    ("Validate the given US street address.", "US"),
    ("Get the list of streets in Denmark based on the district.", "DK"),
    ("Let us know the weather for a city.", None),  # "us" the pronoun
    ("Compare train fares between France and Spain.", None),  # two countries: no one home
    ("Get the real-time weather conditions of a specified city.", None),
])
def test_the_country_a_description_names_becomes_the_tools_place(description: str, code: str | None):
    assert described_country(description) == code


def test_records_of_a_country_scoped_tool_lie_in_that_country(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("wtb3") / "tools.jsonl"
    tools = [_tool("getSchools", "Retrieve information about schools and universities in Switzerland.")]
    path.write_text("\n".join(json.dumps([t]) for t in tools) + "\n", encoding="utf-8")
    catalog = load_catalog([path])
    assert catalog.tools["getSchools"].profile.place == "CH"
    env = ToolEnvironment(catalog, Database(), ServerSettings(durability=Durability.EPHEMERAL))
    env.create_session(tools=["getSchools"], session_id="c", seed=4)
    schools = env.call_tool("c", "getSchools", {}).result["results"]
    assert schools and all(s["country"] == "Switzerland" for s in schools)
    env.release_session("c")
