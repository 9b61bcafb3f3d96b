"""Step matching, one step at a time (doc 3.2-3.3)."""

from __future__ import annotations

import pytest

from env_server.scoring.matching import StepStatus, TaskMatcher
from env_server.scoring.models import ASK, PREPARE, GoldTask, PredictedCall, PredictedStep, ScoringError, TaskType
from tests.scoring.synthetic import call, clarify_task, mixed_task, node, parallel_task, single_task


def test_matching_ignores_call_order_and_feeds_observations_in_name_order() -> None:
    matcher = TaskMatcher(parallel_task())
    record = matcher.submit(PredictedStep.tools(call("getWeather", city="x"), call("getAQI", city="y")))
    assert record.status is StepStatus.CALLS_MATCHED
    assert [name for name, _ in record.gold_actions] == ["getAQI", "getWeather"]
    assert matcher.observations(record) == [{"aqi": 20}, {"t": 12}]
    assert matcher.submit(PredictedStep.text("ok")).status is StepStatus.ANSWERED
    assert matcher.succeeded and matcher.is_optimal


def test_an_ask_text_returns_the_gold_user_reply_and_does_not_prune() -> None:
    matcher = TaskMatcher(clarify_task(0))
    record = matcher.submit(PredictedStep.text("From where?"))
    assert record.status is StepStatus.ASKED and matcher.user_reply(record) == "From the Grand hotel."
    assert matcher.submit(PredictedStep.tools(call("bookTaxi", **{"from": "a", "to": "b"}))).status is StepStatus.CALLS_MATCHED


def test_same_named_calls_made_serially_take_the_lowest_index_node_first() -> None:
    matcher = TaskMatcher(mixed_task(0))
    matcher.submit(PredictedStep.tools(call("searchShows", city="Oslo")))
    first = matcher.submit(PredictedStep.tools(call("getShowDetail", show_id="s2")))
    assert first.gold_nodes == (1,) and '"s1"' in first.gold_actions[0][1]


def test_an_empty_reply_ends_the_task_with_the_official_reason() -> None:
    matcher = TaskMatcher(single_task(0))
    record = matcher.submit(PredictedStep())
    assert record.status is StepStatus.EMPTY_OUTPUT and record.reason == "tool_calls and content are None or empty"
    assert matcher.finished and not matcher.succeeded


def test_a_name_mismatch_logs_the_candidates() -> None:
    matcher = TaskMatcher(parallel_task())
    record = matcher.submit(PredictedStep.tools(call("bookTaxi")))
    assert record.status is StepStatus.NAME_MISMATCH
    assert record.reason == "action name not in candidate_answer_function_list"
    assert record.candidates == (("getWeather",), ("getAQI",), ("getAQI", "getWeather"))


def test_calls_beyond_the_node_count_have_no_candidate_entry() -> None:
    # Ask steps do not prune, so two asks can use up the step indices of a two-node task.
    gold = GoldTask(nodes=[node(0, ASK, user_input="x"), node(1, "getAQI", {"city": "Oslo"})], task_type=TaskType.CLARIFY)
    matcher = TaskMatcher(gold)
    assert matcher.submit(PredictedStep.text("which city?")).status is StepStatus.ASKED
    assert matcher.submit(PredictedStep.text("which city, again?")).status is StepStatus.ASKED
    record = matcher.submit(PredictedStep.tools(call("getAQI", city="Oslo")))
    assert record.status is StepStatus.NO_CANDIDATE_ENTRY and record.reason == "current step: 2, idx_list is None"


def test_a_call_without_a_name_is_a_parse_failure() -> None:
    record = TaskMatcher(single_task(0)).submit(PredictedStep.tools(PredictedCall(name="")))
    assert record.status is StepStatus.PARSE_FAILED


def test_a_finished_task_accepts_no_more_steps() -> None:
    matcher = TaskMatcher(single_task(0))
    matcher.submit(PredictedStep.text("no"))
    with pytest.raises(ScoringError):
        matcher.submit(PredictedStep.text("again"))


def test_a_two_round_clarification_needs_two_ask_steps() -> None:
    gold = GoldTask(task_type=TaskType.CLARIFY, nodes=[
        node(0, ASK, user_input="soon"), node(1, ASK, deps=(0,), user_input="from home"),
        node(2, "bookTaxi", {"from": "home", "to": "x"}, (1,)), node(3, PREPARE, deps=(2,)),
    ])
    matcher = TaskMatcher(gold)
    assert matcher.submit(PredictedStep.text("where?")).status is StepStatus.ASKED
    assert matcher.submit(PredictedStep.tools(call("bookTaxi", **{"from": "home", "to": "x"}))).status is StepStatus.NAME_MISMATCH
