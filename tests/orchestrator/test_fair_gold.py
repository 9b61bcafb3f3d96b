"""Fair gold: scenarios check flags unfair gold arguments, rules make them fair, and every variant grades as declared."""

from __future__ import annotations

import copy
import datetime as dt
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from env_server.catalog import Catalog
from env_server.orchestrator import ScenarioLoad
from env_server.orchestrator.cli import scenarios_app
from env_server.orchestrator.evidence import dialogue_evidence
from env_server.orchestrator.fairness import fair_gold_findings
from env_server.orchestrator.gold import function_tools
from env_server.orchestrator.native import NativeScenarioFile, to_scenario_spec
from env_server.orchestrator.splits import is_test_split
from env_server.orchestrator.validate import resolve_tools
from env_server.orchestrator.variants import ACCEPT, grade_variants, missing_variants

SEARCH = "ticketmaster_search_shows"


def prepare(deps: list[int]) -> dict[str, Any]:
    return {"action": "prepare_to_answer", "arguments": {"answer_type": "tool"}, "dependency_list": deps,
            "observation": "Done."}


def scenario(user: str, args: dict[str, Any], match: dict[str, Any] | None = None,
             later: str = "Anything else on?", later_args: dict[str, Any] | None = None) -> NativeScenarioFile:
    """Two search tasks over recorded-looking observations, then two chat turns."""
    shows = {"shows": [{"show_id": "shw_1", "title": "Night of Fado", "city": "Sintra"}]}
    first: dict[str, Any] = {"action": SEARCH, "arguments": args, "observation": shows}
    if match is not None:
        first["match"] = match
    chat = {"action": "prepare_to_answer", "arguments": {"answer_type": "chat"}, "observation": "Sure."}
    data = {
        "id": "fair_probe", "title": "Probe.", "split": "train", "env_info": "2026-03-12 09:30:00 Thursday",
        "tools": [SEARCH],
        "tasks": [
            {"user": user, "type": "Single-Tool", "nodes": [first, prepare([0])]},
            {"user": later, "type": "Single-Tool", "subtype": "Partial Information", "nodes": [
                {"action": SEARCH, "arguments": later_args or {"city": "Lisbon"}, "observation": shows}, prepare([0])]},
            {"user": "Thanks!", "type": "Chat", "subtype": "Partial Information", "nodes": [copy.deepcopy(chat)]},
            {"user": "Bye.", "type": "Chat", "subtype": "Long-Range Dependency", "nodes": [copy.deepcopy(chat)]},
        ],
    }
    return NativeScenarioFile.model_validate(data)


def findings(native: NativeScenarioFile, catalog: Catalog) -> list[str]:
    spec = to_scenario_spec(native)
    tools, _ = resolve_tools(spec, catalog)
    return [str(f) for f in fair_gold_findings(spec, tools)]


def test_grounded_gold_has_no_findings(builtin_catalog: Catalog):
    native = scenario("Any comedy shows in Lisbon between March 13 and 15?",
                      {"city": "Lisbon", "genre": "comedy", "start_date": "2026-03-13", "end_date": "2026-03-15"})
    assert findings(native, builtin_catalog) == []


def test_a_value_not_in_the_dialogue_is_flagged_with_task_node_and_path(builtin_catalog: Catalog):
    native = scenario("Any shows in Lisbon?", {"city": "Porto"})
    assert findings(native, builtin_catalog) == [
        f"fair_probe task 0 node 0 {SEARCH}.city: 'Porto' appears neither in the dialogue nor in an earlier "
        "observation, and the dialogue does not resolve to it"]


def test_an_equivalent_value_rule_makes_a_value_fair_only_when_one_accepted_value_is_grounded(builtin_catalog):
    said = scenario("Any shows in Lisbon?", {"city": "Lisbon, Portugal"}, {"city": {"any_of": ["Lisbon"]}})
    assert findings(said, builtin_catalog) == []
    unsaid = scenario("Any shows in Lisbon?", {"city": "Porto"}, {"city": {"any_of": ["Oporto"]}})
    assert len(findings(unsaid, builtin_catalog)) == 1


def test_relative_dates_and_number_words_resolve_against_the_scenario_date(builtin_catalog: Catalog):
    # 2026-03-12 is a Thursday: tomorrow is the 13th, Saturday the 14th.
    native = scenario("Shows in Lisbon from tomorrow to Saturday, size two?",
                      {"city": "Lisbon", "start_date": "2026-03-13", "end_date": "2026-03-14", "size": 2})
    assert findings(native, builtin_catalog) == []
    wrong = scenario("Shows in Lisbon from tomorrow?", {"city": "Lisbon", "start_date": "2026-03-16"})
    assert [f.split(": ")[0] for f in findings(wrong, builtin_catalog)] == [f"fair_probe task 0 node 0 {SEARCH}.start_date"]


def test_an_optional_argument_the_user_did_not_ask_for_is_flagged_unless_optional_default(builtin_catalog):
    native = scenario("Any shows in Lisbon?", {"city": "Lisbon", "size": 20})
    assert findings(native, builtin_catalog) == [
        f"fair_probe task 0 node 0 {SEARCH}.size: optional argument 20 the user did not ask for "
        "(drop it, or add optional_default)"]
    ruled = scenario("Any shows in Lisbon?", {"city": "Lisbon", "size": 20}, {"size": {"optional_default": True}})
    assert findings(ruled, builtin_catalog) == []


def test_values_from_an_earlier_observation_are_grounded(builtin_catalog: Catalog):
    native = scenario("Any shows near Lisbon?", {"city": "Lisbon"}, later="Anything else in the first show's town?",
                      later_args={"city": "Sintra"})
    assert findings(native, builtin_catalog) == []
    too_early = scenario("Any shows near Lisbon?", {"city": "Sintra"})  # only a later result names it
    assert len(findings(too_early, builtin_catalog)) == 1


def test_free_text_the_agent_must_author_needs_a_keyword_rule_with_the_users_words(builtin_catalog: Catalog):
    args = {"city": "old town of Lisbon by the river"}
    native = scenario("Any shows in old Lisbon?", args)
    assert findings(native, builtin_catalog) == [
        f"fair_probe task 0 node 0 {SEARCH}.city: free text the agent must author verbatim: "
        "'old town of Lisbon by the river' (add a free_text rule with keywords the user gave)"]
    assert findings(scenario("Any shows in old Lisbon?", args, {"city": {"free_text": {"keywords": ["Lisbon"]}}}),
                    builtin_catalog) == []
    invented = scenario("Any shows in old Lisbon?", args, {"city": {"free_text": {"keywords": ["river"]}}})
    assert findings(invented, builtin_catalog) == [
        f"fair_probe task 0 node 0 {SEARCH}.city: free_text keyword 'river' is not in the dialogue"]


def test_rules_must_name_a_parameter_and_optional_default_an_optional_one(builtin_catalog: Catalog):
    native = scenario("Any shows in Lisbon?", {"city": "Lisbon"},
                      {"town": {"optional_default": True}, "city": {"optional_default": True}})
    assert sorted(f.split(": ", 1)[1] for f in findings(native, builtin_catalog)) == [
        "match rule on an argument the tool does not have", "optional_default on a required argument"]


def test_every_built_in_scenario_has_fair_gold(builtin_scenarios: ScenarioLoad, builtin_catalog: Catalog):
    unfair = []
    for spec in builtin_scenarios.scenarios:
        tools, _ = resolve_tools(spec, builtin_catalog)
        unfair += [str(f) for f in fair_gold_findings(spec, tools)]
        if is_test_split(spec):
            unfair += [f"{spec.id} {m}" for m in missing_variants(spec, function_tools(tools))]
    assert unfair == []


def test_native_grading_accepts_every_accept_variant_and_rejects_every_reject_variant(
    builtin_scenarios: ScenarioLoad, builtin_catalog: Catalog
):
    outcomes = []
    for spec in builtin_scenarios.scenarios:
        if is_test_split(spec):
            tools, _ = resolve_tools(spec, builtin_catalog)
            outcomes += [(spec.id, o) for o in grade_variants(spec, function_tools(tools))]
    wrong = [f"{sid} task {o.task} {o.kind} {o.why}: {o.reason}" for sid, o in outcomes if not o.ok]
    assert wrong == []
    accepts = sum(o.kind == ACCEPT for _, o in outcomes)
    assert accepts >= 100 and len(outcomes) - accepts >= 2 * 14 * 3  # every test session, >= 2 per tool task


def test_scenarios_check_prints_findings_and_exits_1(tmp_path: Path):
    native = scenario("Any shows in Lisbon?", {"city": "Porto"})
    (tmp_path / "fair_probe.json").write_text(json.dumps(native.model_dump(mode="json", exclude_none=True)))
    result = CliRunner().invoke(scenarios_app, ["check", "--scenarios", str(tmp_path)])
    assert result.exit_code == 1
    assert f"unfair  fair_probe task 0 node 0 {SEARCH}.city: 'Porto' appears neither" in result.output
    assert "0 errors, 0 warnings, 1 fair-gold findings" in result.output


def test_a_test_session_without_variants_is_a_finding(tmp_path: Path):
    data = scenario("Any shows in Lisbon?", {"city": "Lisbon"}).model_dump(mode="json", exclude_none=True)
    data["split"] = "test"
    (tmp_path / "fair_probe.json").write_text(json.dumps(data))
    result = CliRunner().invoke(scenarios_app, ["check", "--scenarios", str(tmp_path)])
    assert result.exit_code == 1 and "fair_probe task 0: a test-split task needs >= 2 accept" in result.output



def test_state_names_everyday_currency_names_and_plural_enum_choices_are_grounded(builtin_catalog: Catalog):
    # "Illinois" grounds IL, "British pounds" grounds GBP, and "comedies" names the enum choice "comedy".
    said = scenario("Comedies in Chicago, Illinois? I pay in British pounds.", {"city": "IL", "genre": "comedy"},
                    later="Any in Lisbon?")
    assert findings(said, builtin_catalog) == []
    assert {"il", "us-il", "gbp"} <= dialogue_evidence(to_scenario_spec(said), 0, dt.date(2026, 3, 12)).codes
    unsaid = scenario("Comedies in Chicago?", {"city": "IL", "genre": "comedy"}, later="Any in Lisbon?")
    assert [f.split(": ")[0] for f in findings(unsaid, builtin_catalog)] == [f"fair_probe task 0 node 0 {SEARCH}.city"]


def test_a_date_with_its_year_and_clock_times_said_as_pm_or_noon_are_grounded(builtin_catalog: Catalog):
    said = scenario("Shows in Lisbon on March 8, 2018? Doors at 7pm, or noon, or 7:30 p.m.",
                    {"city": "Lisbon", "start_date": "2018-03-08"}, later="Any in Lisbon?")
    assert findings(said, builtin_catalog) == []
    evidence = dialogue_evidence(to_scenario_spec(said), 0, dt.date(2026, 3, 12))
    assert {"19:00", "12:00", "19:30"} <= evidence.times


def test_a_language_name_grounds_its_two_letter_code(builtin_catalog: Catalog):
    # "Spanish" grounds es (say, a translation target) as "UK" grounds gb; an unnamed language stays unfair.
    said = scenario("Shows in Lisbon with Spanish subtitles?", {"city": "es"}, later="Any in Lisbon?")
    assert "es" in dialogue_evidence(to_scenario_spec(said), 0, dt.date(2026, 3, 12)).codes
    assert not [f for f in findings(said, builtin_catalog) if ".city:" in f and "appears neither" in f]
    unsaid = scenario("Shows in Lisbon with subtitles?", {"city": "es"}, later="Any in Lisbon?")
    assert [f for f in findings(unsaid, builtin_catalog) if ".city:" in f and "appears neither" in f]


def _after_a_reply(reply: str) -> NativeScenarioFile:
    """Task 1 searches on a date that only the assistant's reply to task 0 wrote out."""
    native = scenario("Any shows in Sintra?", {"city": "Sintra"}, later="Anything else on there that day?",
                      later_args={"city": "Sintra", "start_date": "2026-03-14"})
    native.tasks[0].nodes[1].observation = reply
    return native


def test_a_date_the_assistant_wrote_out_grounds_a_later_gold_date(builtin_catalog: Catalog):
    assert findings(_after_a_reply("Night of Fado plays Sintra on Saturday, March 14."), builtin_catalog) == []
    unsaid = findings(_after_a_reply("Night of Fado plays Sintra soon."), builtin_catalog)
    assert len(unsaid) == 1 and unsaid[0].startswith(f"fair_probe task 1 node 0 {SEARCH}.start_date: optional "
                                                     "argument '2026-03-14' the user did not ask for")
