"""Native per-argument match rules: each rule accepts what it should and rejects the rest; official grading ignores them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from env_server.scoring import GoldNode, GoldTask, PredictedCall, PredictedStep, TaskType, score_task
from env_server.scoring.rules import ArgRule, check_call_native

SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "subType": {"type": "string", "enum": ["AIRPORT", "CITY"], "default": "AIRPORT"},
        "subject": {"type": "string"},
        "distance": {"type": "number"},
        "days": {"type": "integer", "default": 3},
    },
    "required": ["city"],
}
GOLD = {"city": "Lisbon", "subType": "AIRPORT", "subject": "Dinner plans for Friday", "distance": 20}
RULES = {
    "city": ArgRule(any_of=["Lisbon, Portugal"]),
    "subType": ArgRule(optional_default=True),
    "subject": ArgRule.model_validate({"free_text": {"keywords": ["dinner", "Friday|Fri"]}}),
    "distance": ArgRule(number_tolerance=0.5),
}


def check(**changes: Any) -> bool:
    pred = {**GOLD, **changes}
    pred = {k: v for k, v in pred.items() if v is not None}
    return check_call_native(SCHEMA, json.dumps(pred), GOLD, RULES).ok


@pytest.mark.parametrize("city", ["Lisbon", "lisbon", "Lisbon, Portugal"])
def test_any_of_accepts_gold_and_every_listed_equivalent(city):
    assert check(city=city)


@pytest.mark.parametrize("city", ["Porto", "Lisbon, Spain", ""])
def test_any_of_rejects_other_values(city):
    result = check_call_native(SCHEMA, json.dumps({**GOLD, "city": city}), GOLD, RULES)
    assert not result.ok and "none of the accepted values" in result.message


def test_any_of_does_not_make_a_ruled_argument_omittable():
    pred = {k: v for k, v in GOLD.items() if k != "city"}
    assert not check_call_native({**SCHEMA, "required": []}, json.dumps(pred), GOLD, RULES).ok


@pytest.mark.parametrize("sub", [None, "AIRPORT"])
def test_optional_default_accepts_omission_and_the_default(sub):
    assert check(subType=sub)


def test_optional_default_still_rejects_a_different_value():
    assert not check(subType="CITY")


def test_optional_default_on_an_argument_gold_leaves_out_accepts_only_the_default():
    gold = {"city": "Oslo"}
    rules = {"days": ArgRule(optional_default=True)}
    assert check_call_native(SCHEMA, '{"city": "Oslo"}', gold, rules).ok
    assert check_call_native(SCHEMA, '{"city": "Oslo", "days": 3}', gold, rules).ok
    assert not check_call_native(SCHEMA, '{"city": "Oslo", "days": 5}', gold, rules).ok


@pytest.mark.parametrize("text", ["Friday dinner", "Dinner on Fri?", "DINNER THIS FRIDAY, bring wine"])
def test_free_text_accepts_any_text_holding_the_keywords(text):
    assert check(subject=text)


@pytest.mark.parametrize("text", ["Dinner", "Lunch on Friday", "   ", 42])
def test_free_text_rejects_text_missing_a_keyword_or_not_text(text):
    result = check_call_native(SCHEMA, json.dumps({**GOLD, "subject": text}), GOLD, RULES)
    assert not result.ok


def test_free_text_min_keywords_relaxes_the_rule():
    rule = ArgRule.model_validate({"free_text": {"keywords": ["dinner", "Friday", "Porto"], "min_keywords": 2}})
    assert rule.judge("Friday dinner", "x", "subject", None).ok
    assert not rule.judge("Friday lunch", "x", "subject", None).ok


@pytest.mark.parametrize("distance", [20, 20.0, 20.5, 19.6])
def test_number_tolerance_accepts_numbers_close_enough(distance):
    assert check(distance=distance)


@pytest.mark.parametrize("distance", [20.6, 19, "20", True])
def test_number_tolerance_rejects_numbers_too_far_and_non_numbers(distance):
    assert not check_call_native(SCHEMA, json.dumps({**GOLD, "distance": distance}), GOLD, RULES).ok


def test_rules_leave_the_other_arguments_and_the_schema_check_as_strict_as_before():
    assert not check_call_native(SCHEMA, json.dumps({**GOLD, "extra": 1}), GOLD, RULES).ok  # not defined
    assert not check_call_native(SCHEMA, json.dumps({**GOLD, "subType": "PORT"}), GOLD, RULES).ok  # enum
    assert not check_call_native(SCHEMA, json.dumps({**GOLD, "days": 3}), GOLD, RULES).ok  # unruled extra key


def test_a_rule_takes_one_value_rule_and_names_known_fields():
    with pytest.raises(ValidationError):
        ArgRule.model_validate({"any_of": ["a"], "number_tolerance": 1})
    with pytest.raises(ValidationError):
        ArgRule.model_validate({})
    with pytest.raises(ValidationError):
        ArgRule.model_validate({"anyof": ["a"]})


def _task(match: dict[str, ArgRule] | None, parallel: bool = False) -> GoldTask:
    nodes = [GoldNode(index=0, name="find", arguments={"city": "Lisbon", "subType": "AIRPORT"}, match=match)]
    if parallel:
        nodes.append(GoldNode(index=1, name="find", arguments={"city": "Porto", "subType": "AIRPORT"}, match=match))
    prepare = GoldNode(index=len(nodes), name="prepare_to_answer", arguments={"answer_type": "tool"},
                       dependencies=tuple(range(len(nodes))))
    tools = [{"type": "function", "function": {"name": "find", "parameters": SCHEMA}}]
    kind = TaskType.PARALLEL if parallel else TaskType.SINGLE
    return GoldTask(nodes=[*nodes, prepare], task_type=kind, tools=tools)


def _steps(*calls: dict[str, Any] | str) -> list[PredictedStep]:
    made = [PredictedCall(name="find", arguments=c if isinstance(c, str) else json.dumps(c)) for c in calls]
    return [PredictedStep(calls=tuple(made)), PredictedStep.text("Here you go.")]


def test_native_grading_applies_the_rules_and_official_grading_ignores_them():
    variant = _steps({"city": "Lisbon, Portugal"})
    rules = {"city": ArgRule(any_of=["Lisbon, Portugal"]), "subType": ArgRule(optional_default=True)}
    assert score_task(_task(rules), variant).correct
    official = score_task(_task(None), variant)
    assert not official.correct and official.grade.first_failed is not None


def test_native_grading_pairs_parallel_calls_whatever_their_key_order():
    # Sorting raw text puts '{"city": "Porto"...' first, against gold's Lisbon: the official pairing fails.
    variant = _steps('{"subType": "AIRPORT", "city": "Lisbon"}', '{"city": "Porto", "subType": "AIRPORT"}')
    assert score_task(_task({}, parallel=True), variant).correct
    assert not score_task(_task(None, parallel=True), variant).correct
    wrong = _steps('{"subType": "AIRPORT", "city": "Faro"}', '{"city": "Lisbon", "subType": "AIRPORT"}')
    result = score_task(_task({}, parallel=True), wrong)
    assert not result.correct and "Faro" in result.grade.first_failed.pred_arguments


def test_grading_official_drops_the_rules_of_native_gold_for_run_scoring():
    from env_server.scoring.cli import gold_lookup
    from env_server.scoring.rules import Grading

    native = gold_lookup(None, None)("lisbon_comedy_weekend")
    official = gold_lookup(None, None, Grading.OFFICIAL)("lisbon_comedy_weekend")
    assert native is not None and official is not None
    assert "Lisbon, Portugal" in native.tasks[0].nodes[0].match["city"].any_of
    assert all(node.match is None for task in official.tasks for node in task.nodes)
