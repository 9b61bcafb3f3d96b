"""Scripted agents with injected errors: taxonomy labels, labels and metric values."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from env_server.scoring.grading import ArgsMode
from env_server.scoring.metrics import compute_official_metrics, compute_report
from env_server.scoring.models import GoldTask, PredictedStep
from env_server.scoring.scorer import ScoringOptions, SessionScore, score_task
from env_server.scoring.taxonomy import ErrorColumn, ErrorReason
from tests.scoring.synthetic import (
    call,
    chat_task,
    clarify_task,
    mixed_task,
    oracle_steps,
    parallel_task,
    run_live,
    run_session,
    sequential_task,
    session_a,
    session_b,
    single_task,
)

TEXT = PredictedStep.text("Done.")

INJECTED: list[tuple[str, Callable[[int], GoldTask], list[PredictedStep], ErrorReason, ErrorColumn]] = [
    ("wrong tool name (not in the tool list)", single_task,
     [PredictedStep.tools(call("getWether", city="Oslo", days=3))], ErrorReason.NAME_HALLUCINATION, ErrorColumn.WRONG_NAME_MISSING_INFO),
    ("another existing tool instead of the gold one", single_task,
     [PredictedStep.tools(call("getAQI", city="Oslo"))], ErrorReason.WRONG_FUNCTION, ErrorColumn.CALL_ERROR),
    ("missing required parameter", single_task,
     [PredictedStep.tools(call("getWeather", days=3)), TEXT], ErrorReason.MISS_REQUIRED, ErrorColumn.PARAM_VALUE_ERROR),
    ("extra parameter the gold omits", parallel_task,
     [PredictedStep.tools(call("getWeather", city="Oslo", days=1), call("getAQI", city="Oslo")), TEXT],
     ErrorReason.PARAM_HALLUCINATION, ErrorColumn.PARAM_HALLUCINATION),
    ("wrong parameter type", single_task,
     [PredictedStep.tools(call("getWeather", city="Oslo", days="3")), TEXT], ErrorReason.TYPE_ERROR, ErrorColumn.PARAM_TYPE_ERROR),
    ("wrong parameter value", single_task,
     [PredictedStep.tools(call("getWeather", city="Bergen", days=3)), TEXT], ErrorReason.VALUE_ERROR, ErrorColumn.PARAM_VALUE_ERROR),
    ("asks on a task that needs no clarification", single_task,
     [PredictedStep.text("Which city?")], ErrorReason.REJECT_TOOL_CALLING, ErrorColumn.REFUSAL),
    ("acts on a clarify task", clarify_task,
     [PredictedStep.tools(call("bookTaxi", **{"from": "here", "to": "Oslo Airport"}))],
     ErrorReason.MISSING_INFORMATION, ErrorColumn.WRONG_NAME_MISSING_INFO),
    ("calls a tool on a chat task", chat_task,
     [PredictedStep.tools(call("getWeather", city="Oslo"))], ErrorReason.CALL_WITHOUT_REJECT, ErrorColumn.WRONG_REFUSAL),
    ("stops early with an empty reply", sequential_task,
     [PredictedStep.tools(call("searchShows", city="Oslo")), PredictedStep()], ErrorReason.EARLY_STOP, ErrorColumn.EARLY_TERMINATION),
    ("repeats a call", sequential_task,
     [PredictedStep.tools(call("searchShows", city="Oslo")), PredictedStep.tools(call("searchShows", city="Oslo"))],
     ErrorReason.REDUNDANT_CALL, ErrorColumn.REDUNDANT_CALL),
]


@pytest.mark.parametrize(("label", "make", "steps", "reason", "column"), INJECTED, ids=[c[0] for c in INJECTED])
def test_injected_error_gets_its_taxonomy_label(
    label: str, make: Callable[[int], GoldTask], steps: list[PredictedStep], reason: ErrorReason, column: ErrorColumn
) -> None:
    score = run_live(make(1), lambda _: steps)
    assert not score.correct
    assert score.error is not None
    assert (score.error.reason, score.error.column) == (reason, column)


@pytest.mark.parametrize("make", [parallel_task, chat_task, clarify_task, sequential_task, mixed_task, single_task])
def test_oracle_agent_solves_every_task_kind_optimally(make: Callable[[int], GoldTask]) -> None:
    score = run_live(make(0), oracle_steps)
    assert score.correct and score.grade.is_optimal and score.error is None


def test_oracle_agent_scores_one_on_every_accuracy_bucket() -> None:
    sessions = [run_session(session_a(), oracle_steps), run_session(session_b(), oracle_steps)]
    metrics = compute_official_metrics(sessions, "oracle")
    for section in ("total_info", "task_type_info", "layer_info", "turn_subtype_info", "optimal_info"):
        for name, cell in metrics[section].items():
            if cell["total_count"]:
                assert cell["accuracy"] == 1.0, (section, name)
    assert metrics["task_type_info"]["Multi-Tool"] == {"accuracy": 1.0, "correct_count": 3, "total_count": 3}
    assert metrics["progress_info"]["Sequential Multi-Tool"]["rate"] == 1.0


def test_perfect_mixed_run_with_a_parallel_step_has_current_ap_below_one() -> None:
    sessions = [run_session(session_b(), oracle_steps)]
    report = compute_report(sessions, "oracle")
    assert report["progress_info"]["Mixed Multi-Tool"] == {"rate": 0.75, "complete_step": 3, "total_step": 4}
    assert report["optimal_info"]["Mixed Multi-Tool"]["accuracy"] == 1.0
    assert report["paper_definitions"]["progress_info"]["S+P"]["rate"] == 1.0


def test_serial_run_of_a_parallel_step_is_correct_but_not_optimal() -> None:
    serial = [PredictedStep.tools(call("getWeather", city="Oslo")), PredictedStep.tools(call("getAQI", city="Oslo")), TEXT]
    score = run_live(parallel_task(), lambda _: serial)
    assert score.correct and not score.grade.is_optimal
    metrics = compute_official_metrics([SessionScore("s", (score,))], "m")
    assert metrics["optimal_info"]["Parallel Multi-Tool"] == {"accuracy": 0.0, "correct_count": 0, "total_count": 1}
    assert metrics["task_type_info"]["Parallel Multi-Tool"]["accuracy"] == 1.0


def test_serial_run_of_a_mixed_parallel_step_raises_current_ap_to_one() -> None:
    steps = [PredictedStep.tools(call("searchShows", city="Oslo")), PredictedStep.tools(call("getShowDetail", show_id="s1")),
             PredictedStep.tools(call("getShowDetail", show_id="s2")), TEXT]
    score = run_live(mixed_task(0), lambda _: steps)
    assert score.correct and not score.grade.is_optimal
    assert (score.grade.complete_step, score.grade.total_step) == (4, 4)


def test_argument_error_deletes_only_the_next_step_from_current_ap() -> None:
    steps = [PredictedStep.tools(call("searchShows", city="Bergen")), PredictedStep.tools(call("getShowDetail", show_id="s1")), TEXT]
    score = score_task(sequential_task(0), steps)
    assert not score.correct and score.grade.action_name_ok and score.grade.arguments_ok is False
    assert (score.grade.complete_step, score.grade.deleted_step) == (2, 1)
    assert score.grade.paper_ap_credit == 3


def test_one_failed_chat_task_sets_the_expected_bucket_values() -> None:
    def agent(gold: GoldTask) -> list[PredictedStep]:
        if gold.task_type.value == "Chat":
            return [PredictedStep.tools(call("getWeather", city="Oslo"))]
        return oracle_steps(gold)

    report = compute_report([run_session(session_a(), agent)], "m")
    assert report["total_info"]["task"] == {"accuracy": 0.75, "correct_count": 3, "total_count": 4}
    assert report["total_info"]["session"]["accuracy"] == 0.0
    assert report["task_type_info"]["Chat"]["accuracy"] == 0.0
    assert report["layer_info"]["1"]["correct_count"] == 0
    assert report["turn_subtype_info"]["Coreferential Reference"]["total_count"] == 1
    assert report["turn_subtype_info"]["Subsequent Turn"] == {"accuracy": 2 / 3, "correct_count": 2, "total_count": 3}
    assert report["error_taxonomy"]["columns"]["Wrong Refusal"] == {"share": 1.0, "count": 1}


def test_paper_mode_passes_a_call_with_one_wrong_value_of_several() -> None:
    steps = [PredictedStep.tools(call("getWeather", city="Oslo", days=4)), TEXT]
    assert not score_task(single_task(0), steps).correct
    assert not score_task(single_task(0), steps, ScoringOptions(mode=ArgsMode.PAPER)).correct  # 1 of 2 wrong: 0.5
    lenient = [PredictedStep.tools(call("getWeather", city="oslo ", days=3)), TEXT]
    assert score_task(single_task(0), lenient, ScoringOptions(mode=ArgsMode.PAPER)).correct


def test_scoring_one_thousand_synthetic_sessions() -> None:
    agents = [oracle_steps, lambda g: [PredictedStep.text("Hmm?")], lambda g: oracle_steps(g)[:1] + [PredictedStep()]]
    start = time.perf_counter()
    sessions = [run_session((session_a if i % 2 else session_b)(f"wild_tool_bench_{i}"), agents[i % 3]) for i in range(1000)]
    report = compute_report(sessions, "synthetic")
    elapsed = time.perf_counter() - start
    print(f"\nscored 1,000 synthetic sessions (4,000 tasks) in {elapsed:.2f} s")
    assert report["total_info"]["session"]["total_count"] == 1000
    assert report["total_info"]["task"]["total_count"] == 4000
