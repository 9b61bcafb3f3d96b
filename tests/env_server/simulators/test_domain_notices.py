"""Domain notices name their own record's facts: a transit alert its line and stops, a recall
its vehicle and component, a drug label its drug, a patent its invention, a filing its type
code, a park alert its park."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from env_server.environment import ToolEnvironment
from env_server.simulators.drug_labels import drug_facts, known_drugs
from env_server.simulators.generate import Generation
from env_server.simulators.notice_compose import Fields
from env_server.simulators.park_alerts import parks
from env_server.simulators.recall_notices import component_system
from env_server.simulators.records import default_facts
from env_server.simulators.transit_notices import network, transit_step
from env_server.simulators.values import known_kind
from env_server.simulators.vocab import VocabSpec
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)

VOCAB = default_facts().vocab
NOTES = frozenset(VOCAB.get("note_text").values)  # the personal notes these texts used to draw


def _line_named(text: str, provider: str):
    """The network's line a text names (the longest name found in it)."""
    found = [x for x in network(provider) if x.spoken in text]
    assert found, (provider, text)
    return max(found, key=lambda x: len(x.spoken))


# -- transit alerts ---------------------------------------------------------------------------


def test_a_bart_advisory_names_a_bart_line_that_serves_its_station(env: ToolEnvironment):
    advisories = call(env, "bart_get_advisories")["bsa"]
    assert advisories
    for advisory in advisories:
        line = _line_named(advisory["description"], "BART")
        assert advisory["station"] in line.stops, advisory


def test_mbta_alerts_name_an_mbta_line_in_the_effect_they_state(env: ToolEnvironment):
    alerts = call(env, "mbta_list_alerts")["data"]
    assert alerts
    stops = {stop for line in network("MBTA") for stop in line.stops}
    for alert in alerts:
        assert any(x.spoken in alert["header"] for x in network("MBTA")) or any(
            stop in alert["header"] for stop in stops), alert
        if alert["effect"] == "ELEVATOR_CLOSURE":
            assert "elevator" in alert["header"].lower(), alert
        if alert["effect"] == "SHUTTLE":
            assert "shuttle" in alert["header"].lower() or "bus" in alert["header"].lower(), alert


def test_a_tfl_line_status_speaks_of_its_own_line_on_tfls_severity_scale(env: ToolEnvironment):
    lines = call(env, "tfl_get_line_status")["lines"]
    names = {x.name: x for x in network("Transport for London")}
    scale = {10: "Good Service", 9: "Minor Delays", 6: "Severe Delays", 5: "Part Closure", 4: "Planned Closure",
             3: "Part Suspended", 2: "Suspended", 7: "Reduced Service", 15: "Diverted", 8: "Bus Service"}
    for status in lines:
        line = names[status["name"]]
        assert status["id"] == line.code and status["modeName"] == line.mode, status
        assert line.spoken in status["reason"], status
        assert scale[status["statusSeverity"]] == status["statusSeverityDescription"], status


def test_lta_messages_name_the_line_their_line_code_gives(env: ToolEnvironment):
    messages = call(env, "ltadatamall_get_train_service_alerts")["Message"]
    codes = {x.code: x for x in network("LTA DataMall")}
    for message in messages:
        assert codes[message["Line"]].spoken in message["Content"], message


def test_a_navitia_disruption_gives_the_cause_its_message_names(env: ToolEnvironment):
    for disruption in call(env, "navitia_list_disruptions", coverage="fr-idf")["disruptions"]:
        _line_named(disruption["message"], "Navitia")
        cause = disruption["cause"].lower()
        assert cause in disruption["message"].lower() or cause in (
            "planned works", "track work", "equipment maintenance", "special event", "station works"), disruption


def test_an_alert_of_an_unknown_network_names_the_records_own_stop():
    props = {"route": {"type": "string"}, "stop_name": {"type": "string"}, "description": {"type": "string"}}
    step = transit_step("alert", "service_alert", props)
    assert step is not None
    record = {"route": "Line 7", "stop_name": "Harbour Gate", "description": "Water the plants."}
    step(record, Generation(5, dt.date(2026, 12, 7), {}), None)
    assert record["route"] == "Line 7" and record["stop_name"] == "Harbour Gate"
    assert "Line 7" in record["description"], record


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_every_drawn_transit_alert_names_its_line(seed: int):
    props = {"line": {"type": "string"}, "message": {"type": "string"}, "effect": {"type": "string",
                                                                                   "enum": ["DELAY", "SHUTTLE"]}}
    step = transit_step("alert", "alert", props)
    assert step is not None
    gen = Generation(seed, dt.date(2026, 12, 7), {}, provider="MBTA")
    record = {"line": "x", "message": "Call the bank.", "effect": "DELAY"}
    step(record, gen, None)
    line = next(x for x in network("MBTA") if x.code == record["line"])
    assert line.spoken in record["message"], record


def test_weather_and_park_alerts_are_not_transit_alerts():
    text = {"description": {"type": "string"}, "station": {"type": "string"}}
    assert transit_step("alert", "weather_alert", {**text, "event": {"type": "string"}}) is None
    assert transit_step("data", "park_alert", text) is None
    assert transit_step("alerts", "flight_alert", {**text, "route": {"type": "string"}}) is None


# -- recalls ------------------------------------------------------------------------------------


def test_a_vehicle_recall_names_the_vehicle_asked_about_and_its_component(env: ToolEnvironment):
    recalls = call(env, "nhtsa_list_recalls_by_vehicle", make="acura", model="rdx", modelYear=2019)["results"]
    assert recalls
    for recall in recalls:
        _, part = component_system(recall["Component"])
        assert recall["Summary"].startswith("Acura is recalling certain 2019 RDX vehicles."), recall
        assert part in recall["Summary"], recall
        assert "risk" in recall["Consequence"].lower() or "injur" in recall["Consequence"].lower(), recall
        assert recall["Remedy"].startswith(("Dealers", "Owners")), recall


def test_components_map_to_their_vehicle_system_and_a_part_a_person_names():
    assert component_system("SERVICE BRAKES, HYDRAULIC:MASTER CYLINDER") == ("brakes", "master cylinder")
    assert component_system("AIR BAGS:FRONTAL:DRIVER SIDE:INFLATOR MODULE") == ("airbag", "inflator module")
    assert component_system("ENGINE:DIESEL") == ("engine", "engine")  # a fuel names no part
    assert component_system("AIR BAGS:SENSOR/CONTROL MODULE") == ("airbag", "air bag control module")
    assert component_system("SOMETHING NEW") == ("equipment", "accessory")


def test_a_complaint_is_an_owners_account_of_its_vehicle_system(env: ToolEnvironment):
    complaints = call(env, "nhtsa_list_complaints_by_vehicle", make="Honda", model="Civic", modelYear=2019)["results"]
    accounts = {key: set(texts) for key, texts in VOCAB.grouped("vehicle_recall_text", "part", "system").items()}
    assert complaints
    for complaint in complaints:
        system, part = component_system(complaint["components"])
        said = {t.replace("{part}", part) for t in accounts[("complaint", system)]}
        assert complaint["summary"] in said, complaint


def test_a_drug_recall_gives_a_reason_about_the_product_it_recalls(env: ToolEnvironment):
    for recall in call(env, "openfda_search_drug_recalls")["results"]:
        drug = max((d for d in known_drugs() if recall["product_description"].startswith(d.title() + " ")), key=len)
        assert drug in recall["reason_for_recall"], recall
        assert recall["product_description"].endswith("Rx only"), recall


# -- drug labels ----------------------------------------------------------------------------------


def test_a_drug_labels_sections_fit_its_generic_drug(env: ToolEnvironment):
    labels = call(env, "openfda_search_drug_labels")["results"]
    assert labels
    for label in labels:
        facts = drug_facts(label["generic_name"])
        assert label["brand_name"].lower() == label["generic_name"].lower(), label
        assert any(c in label["indications_and_usage"] for c in facts.conditions), label
        assert any(r.lower() in label["warnings"].lower() for r in facts.risks), label
        assert facts.dose in label["dosage_and_administration"] or any(
            s in label["dosage_and_administration"] for s in facts.strengths), label


def test_a_drug_the_table_does_not_list_takes_the_class_of_its_stem():
    assert "statin" in drug_facts("pitavastatin").group
    assert "proton pump" in drug_facts("dexlansoprazole").group
    assert drug_facts("zzzunknown").group == "a prescription medicine"


# -- patents -------------------------------------------------------------------------------------


def test_a_publications_abstract_and_claims_are_about_its_one_invention(env: ToolEnvironment):
    biblio = call(env, "epoops_get_bibliographic_data", publication_number="EP1234567")
    claims = call(env, "epoops_get_claims", publication_number="EP1234567")["claims"]
    invention = VOCAB.index("invention")[biblio["title"].lower()]
    assert invention["subject"] in biblio["abstract"]
    assert biblio["ipc_classes"] == [invention["ipc"]]
    assert [c["number"] for c in claims] == list(range(1, len(claims) + 1))
    for claim in claims:
        assert claim["text"].startswith(f"{claim['number']}. ") and invention["subject"] in claim["text"], claim
    assert "claim" not in claims[0]["text"].split(". ", 1)[1]  # claim 1 is independent


def test_a_patent_search_finds_patents_titled_after_the_term(env: ToolEnvironment):
    patents = call(env, "patentsview_search_patents", text_any="battery")["patents"]
    assert patents and all("battery" in p["patent_title"].lower() for p in patents[:2]), patents
    assert len({p["patent_title"] for p in patents}) == len(patents)


# -- filings and park alerts ----------------------------------------------------------------------


@pytest.mark.parametrize("code, start", [("CS01", "Confirmation statement made on"), ("TM01", "Termination of"),
                                          ("AP01", "Appointment of"), ("CH01", "Director's details changed"),
                                          ("AA", ("Accounts", "Micro", "Total", "Full", "Unaudited", "Group"))])
def test_companies_house_codes_have_their_real_meanings(env: ToolEnvironment, code: str, start):
    entries = [r for r in VOCAB.get("company_filing").records if r["code"] == code]
    assert entries and all(r["description"].startswith(start) for r in entries)


def test_a_filings_description_fits_its_type_code_and_its_own_date(env: ToolEnvironment):
    items = call(env, "companieshouse_get_filing_history", company_number="01234567")["items"]
    records = VOCAB.get("company_filing").records
    assert items
    for item in items:
        kinds = [r for r in records if r["code"] == item["type"]]
        assert kinds and item["category"] in {r["category"] for r in kinds}, item
        assert any(item["description"].startswith(r["description"].split("{")[0]) for r in kinds), item
        day = dt.date.fromisoformat(item["date"])
        if "{date}" in next(r["description"] for r in kinds if item["description"].startswith(
                r["description"].split("{")[0])):
            assert f"{day.day} " in item["description"] and str(day.year) in item["description"], item


def test_a_park_alert_names_the_park_of_its_code(env: ToolEnvironment):
    names = dict(parks())
    for alert in call(env, "nps_list_alerts")["data"]:
        assert names[alert["park_code"]] in alert["description"], alert
        entry = VOCAB.index("park_alert")[alert["title"].lower()]
        assert entry["category"] == alert["category"], alert


# -- the vocabulary format -----------------------------------------------------------------------


def test_a_composed_kind_must_declare_the_slots_its_templates_use():
    with pytest.raises(ValueError, match="unknown slot"):
        VocabSpec(kind="x", description="d", records=({"text": "{line} delayed", "effect": "delay"},))
    spec = VocabSpec(kind="x", description="d", slots=("line",), records=({"text": "{line} delayed", "effect": "d"},))
    assert spec.slots == ("line",)


def test_composed_kinds_are_not_hint_kinds():
    assert not known_kind("transit_notice", VOCAB) and known_kind("transit_line", VOCAB)


def test_fields_are_found_in_the_order_of_the_names_asked():
    props = {"title": {"type": "string"}, "filing_type": {"type": "string"}, "n": {"type": "integer"}}
    assert Fields.among(props, ("filing_type", "title", "n")).keys == ("filing_type", "title")
    assert Fields.among(props, ("n",), text_only=False).keys == ("n",)


def test_no_covered_tool_answers_with_a_personal_note(env: ToolEnvironment):
    texts = [a["description"] for a in call(env, "bart_get_advisories")["bsa"]]
    texts += [r["Summary"] for r in call(env, "nhtsa_list_recalls_by_vehicle", make="ford", model="f-150",
                                         modelYear=2020)["results"]]
    assert texts and not NOTES & set(texts)


@pytest.mark.parametrize("search", ["sumatriptan", 'openfda.generic_name:"sumatriptan"'])
def test_a_label_or_recall_search_for_a_drug_answers_about_that_drug(env: ToolEnvironment, search: str):
    labels = call(env, "openfda_search_drug_labels", search=search)["results"]
    assert labels and {label["generic_name"] for label in labels} == {"sumatriptan"}
    assert all(label["indications_and_usage"].count("treatment of migraine") == 1 for label in labels), labels
    recalls = call(env, "openfda_search_drug_recalls", search=search)["results"]
    assert recalls and all(r["product_description"].startswith("Sumatriptan") for r in recalls), recalls


def test_a_field_a_step_composes_whole_is_not_drawn_first(monkeypatch: pytest.MonkeyPatch):
    from env_server.simulators import values
    from env_server.simulators.plans import plan_for

    def no_note(gen: Generation) -> str:
        raise AssertionError("the composed text was drawn before its step wrote it")

    monkeypatch.setitem(values.KINDS, "note_text", no_note)
    schema = {"type": "object", "properties": {"line": {"type": "string"}, "header": {"type": "string"}}}
    hints = {"header": "note_text"}
    gen = Generation(7, dt.date(2026, 12, 7), {}, entity="alert", hints=hints, provider="MBTA")
    record = plan_for({}, schema, "", "", "alert", hints)(gen, None)
    line = next(x for x in network("MBTA") if x.code == record["line"])
    assert line.spoken in record["header"] or any(stop in record["header"] for stop in line.stops), record
