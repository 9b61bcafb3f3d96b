"""A personal note reads as one only where the field is someone's note (issue 14).

The ``note_text`` vocabulary is to-do lines ("Pick up the dry cleaning"). A built-in tool may
hint it only in the fields listed here: a notes, tasks or workspace app's own text, fields a
domain-notice step composes whatever the hint, and fields still waiting for a kind of their
own. An FBI poster's caution, a breach's description or a city service's text are not notes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

CATALOG = Path(__file__).resolve().parents[2] / "tool_specs" / "catalog"

# The user's own notes, tasks, cells, pastes and link labels.
PERSONAL = {
    "google_keep_create_note:text", "google_keep_get_note:text", "google_keep_list_notes:text",
    "joplin_create_note:body", "joplin_get_note:body", "joplin_update_note:body",
    "asana_create_task:notes", "asana_get_task:notes", "todoist_get_task:description",
    "trello_create_card:desc", "trello_get_card:desc", "notion_get_page:value",
    "airtable_list_records:value", "airtable_get_record:value", "airtable_create_record:value",
    "airtable_update_record:value", "smartsheet_add_row:value", "smartsheet_add_row:displayValue",
    "smartsheet_get_row:value", "smartsheet_get_row:displayValue", "kutt_create_link:description",
    "kutt_update_link:description", "pastebin_get_raw_paste:content", "jsonbin_io_create_bin:record",
    "jsonbin_io_read_bin:record", "jsonbin_io_update_bin:record", "httpbin_echo_post:data",
    "postman_echo_echo_post:data",
}
# Composed from the record's own facts by a step (transit, recall, drug label, patent,
# filing, park alert, route, tracker), which overrides the hint.
COMPOSED = {
    "bart_get_advisories:description", "ltadatamall_get_train_service_alerts:Content",
    "ltadatamall_get_train_service_alerts:Message", "mbta_list_alerts:header", "navitia_list_disruptions:cause",
    "navitia_list_disruptions:message", "tfl_get_line_status:reason", "nhtsa_list_recalls_by_vehicle:Consequence",
    "nhtsa_list_recalls_by_vehicle:Remedy", "nhtsa_list_recalls_by_vehicle:Summary",
    "nhtsa_list_complaints_by_vehicle:summary", "openfda_search_drug_labels:indications_and_usage",
    "openfda_search_drug_labels:warnings", "openfda_search_drug_labels:dosage_and_administration",
    "openfda_search_drug_recalls:reason_for_recall", "epoops_get_claims:text", "patentsview_get_patent:patent_abstract",
    "companieshouse_get_filing_history:description", "opencorporates_list_filings:description",
    "nps_list_alerts:description", "openrouteservice_get_directions:instruction", "github_create_issue:body",
    "github_get_issue:body", "gitlab_get_merge_request:description", "bitbucket_get_pull_request:description",
}
# Not notes either, and still waiting for a kind of their own (issue 14). Shrink, never grow.
PENDING = {
    "google_maps_get_place_details:weekdayDescriptions", "here_lookup_place:text",  # a week of opening hours, in order
    "traitify_list_decks:description", "mockaroo_list_types:description",  # must describe the deck or type named
}


def _hinted(kind: str) -> dict[str, str]:
    """``tool:field`` -> spec file of every built-in hint naming ``kind``."""
    found = {}
    for path in sorted(CATALOG.rglob("*.json")):
        for function in json.loads(path.read_text())["functions"]:
            for field, hint in (function.get("profile") or {}).get("hints", {}).items():
                if hint == kind:
                    found[f"{function['name']}:{field}"] = path.name
    return found


def test_no_built_in_field_outside_the_allow_list_is_hinted_a_personal_note():
    stray = {key: file for key, file in _hinted("note_text").items() if key not in PERSONAL | COMPOSED | PENDING}
    assert not stray, f"hinted note_text, but not a personal note: {stray}"


def test_the_allow_list_names_only_fields_still_hinted_a_note():
    assert (PERSONAL | COMPOSED | PENDING) <= set(_hinted("note_text"))


@pytest.mark.parametrize(("key", "kind"), [
    ("fbiwanted_get_wanted_person:caution", "wanted_caution"),
    ("fbiwanted_get_wanted_person:description", "criminal_charge"),
    ("haveibeenpwned_get_breach:Description", "breach_description"),
    ("greynoise_get_riot:explanation", "riot_explanation"),
    ("osf_get_project:description", "research_summary"),
    ("open311_list_service_requests:description", "service_request_text"),
    ("glot_run_code:stdout", "program_output"),
    ("stackexchange_list_answers:body", "qa_answer_body"),
    ("nasa_get_apod:explanation", "apod_explanation"),
    ("cliniko_get_individual_appointment:notes", "appointment_note"),
    ("iceandfire_list_houses:coatOfArms", "coat_of_arms"),
])
def test_a_field_of_another_domain_is_hinted_its_own_kind(key: str, kind: str):
    assert key in _hinted(kind)
