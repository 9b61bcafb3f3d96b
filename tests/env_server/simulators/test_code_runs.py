"""A code run prints what its program prints and reports no errors; an FBI poster and a data
breach read as their own kinds of text, not as personal notes (issue 14)."""

from __future__ import annotations

import re

from env_server.environment import ToolEnvironment
from env_server.simulators.code_runs import printed_text
from env_server.simulators.records import default_facts
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)

VOCAB = default_facts().vocab
NOTES = frozenset(VOCAB.get("note_text").values)


def _from(kind: str, text: str) -> bool:
    """Whether ``text`` is an entry of ``kind`` with its slots filled."""
    for entry in VOCAB.get(kind).texts:
        pattern = re.escape(entry)
        for slot in ("city", "country", "first_name", "weekday"):
            pattern = pattern.replace(re.escape("{" + slot + "}"), ".+")
        if re.fullmatch(pattern, text):
            return True
    return False


def test_print_statements_of_several_languages_are_what_a_program_prints():
    assert printed_text("print('Hello, Ada!')\nprint(\"sum: 6\")") == "Hello, Ada!\nsum: 6"
    assert printed_text('fmt.Println("from Go")') == "from Go"
    assert printed_text('console.log("a\\tb")') == "a\tb"
    assert printed_text("x = 1 + 2") == ""


def test_a_glot_run_prints_its_program_s_output_with_empty_error_streams(env: ToolEnvironment):
    files = [{"name": "main.py", "content": "print('Hello, Ada!')\nprint('Done.')"}]
    run = call(env, "glot_run_code", language="python", files=files)
    assert run == {"stdout": "Hello, Ada!\nDone.", "stderr": "", "error": ""}


def test_a_glot_run_without_print_literals_prints_a_short_program_s_output(env: ToolEnvironment):
    run = call(env, "glot_run_code", language="python", files=[{"name": "main.py", "content": "x = 6 * 7"}])
    assert run["stdout"] in VOCAB.get("program_output").values
    assert (run["stderr"], run["error"]) == ("", "")


def test_a_judge0_submission_is_accepted_with_output_and_no_errors(env: ToolEnvironment):
    run = call(env, "judge0_ce_get_submission", token="d85cd024-1548-4165-96c7-7bc88673f194")
    assert run["status"] == {"id": 3, "description": "Accepted"}
    assert run["stdout"] in VOCAB.get("program_output").values
    assert run.get("stderr", "") == run.get("compile_output", "") == ""


def test_an_fbi_poster_reads_as_a_poster_not_as_personal_notes(env: ToolEnvironment):
    poster = call(env, "fbiwanted_get_wanted_person", uid="fbi-0001")
    assert _from("wanted_caution", poster["caution"]) and _from("criminal_charge", poster["description"])
    assert _from("wanted_reward", poster["reward_text"]) and _from("scars_and_marks", poster["scars_and_marks"])
    assert not {poster["caution"], poster["description"]} & NOTES


def test_a_breach_and_a_riot_record_read_as_threat_intelligence(env: ToolEnvironment):
    breach = call(env, "haveibeenpwned_get_breach", name="Adobe")
    assert _from("breach_description", breach["Description"])
    riot = call(env, "greynoise_get_riot", ip="8.8.8.8")
    assert _from("riot_description", riot["description"]) and _from("riot_explanation", riot["explanation"])


def test_an_invoice_void_says_so_and_an_apod_explains_a_sky_object(env: ToolEnvironment):
    org = "10234695"
    made = call(env, "zohobooks_create_invoice", organization_id=org, customer_id="cust_1",
                line_items=[{"rate": 120.0, "quantity": 2}])
    voided = call(env, "zohobooks_void_invoice", organization_id=org, invoice_id=made["invoice_id"])
    assert voided["message"] == "The invoice has been voided."
    apod = call(env, "nasa_get_apod")
    assert _from("apod_explanation", apod["explanation"]) and apod["explanation"] not in NOTES
