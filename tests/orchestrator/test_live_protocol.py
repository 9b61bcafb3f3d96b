"""The live protocol in-process: matching, pinned vs simulated answers, the scripted user, budgets."""

from __future__ import annotations

import pytest
from mcp import Client

from env_server.orchestrator.errors import SessionFinishedError, UnknownScenarioSessionError
from env_server.orchestrator.live import STEP_META_KEY
from env_server.orchestrator.reports import TaskStatus, TurnKind
from env_server.server import build_server
from tests.orchestrator.gold_play import play_gold_task


def _first_string_argument(arguments: dict) -> str:
    return next(k for k, v in arguments.items() if isinstance(v, str))


def test_creating_a_session_returns_task_zeros_user_message(live):
    env, registry = live
    session, turn = registry.create("lisbon_comedy_weekend")
    assert turn.kind is TurnKind.TASK and turn.task_index == 0
    assert turn.content == session.spec.tasks[0].user_message
    assert sorted(env.view(session.session_id).names) == sorted(session.spec.tools)
    assert session.session_id.startswith("sc_") and len(session.session_id) == 35


def test_a_gold_call_returns_the_pinned_observation_and_the_task_is_correct(live):
    env, registry = live
    session, _ = registry.create("lisbon_comedy_weekend", seed=999)  # another seed: only the pin gives gold
    node = session.spec.tasks[0].nodes[0]
    outcome = env.call_tool(session.session_id, node.action.name, node.action.arguments, {STEP_META_KEY: "a"})
    assert outcome.result == node.observation
    turn = session.reply("Here are the shows.")
    assert turn.kind is TurnKind.TASK and turn.task_index == 1 and turn.finished_task == 0
    report = session.result().tasks[0]
    assert (report.label, report.status, report.terminated, report.truncated) == ("correct", TaskStatus.COMPLETED, True, False)
    assert session.entries[0].pinned


def test_an_equivalent_value_allowed_by_a_match_rule_is_pinned_and_correct(live):
    env, registry = live
    session, _ = registry.create("lisbon_comedy_weekend", seed=999)
    node = session.spec.tasks[0].nodes[0]
    assert "Lisbon, Portugal" in node.match["city"].any_of
    variant = {**node.action.arguments, "city": "Lisbon, Portugal"}
    outcome = env.call_tool(session.session_id, node.action.name, variant, {STEP_META_KEY: "a"})
    assert outcome.result == node.observation and session.entries[0].pinned
    session.reply("Here are the shows.")
    assert session.result().tasks[0].label == "correct"


def test_official_grading_ignores_match_rules_live(builtin_catalog, builtin_scenarios):
    from env_server.config import ServerSettings
    from env_server.environment import ToolEnvironment
    from env_server.orchestrator.sessions import registry_for
    from state import Database

    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings(grading="official"))
    session, _ = registry_for(env, builtin_scenarios).create("lisbon_comedy_weekend", seed=999)
    node = session.spec.tasks[0].nodes[0]
    variant = {**node.action.arguments, "city": "Lisbon, Portugal"}
    env.call_tool(session.session_id, node.action.name, variant, {STEP_META_KEY: "a"})
    assert not session.entries[0].pinned
    session.reply("Here are the shows.")
    report = session.result().tasks[0]
    assert report.label == "error" and report.arguments_ok is False


def test_a_wrong_argument_call_gets_the_simulators_answer_and_fails_the_task_with_a_reason(live):
    env, registry = live
    session, _ = registry.create("lisbon_comedy_weekend")
    node = session.spec.tasks[0].nodes[0]
    key = _first_string_argument(node.action.arguments)
    wrong = {**node.action.arguments, key: "Zzyzx Nowhere"}
    outcome = env.call_tool(session.session_id, node.action.name, wrong, {STEP_META_KEY: "a"})
    assert not outcome.is_error
    assert outcome.result != node.observation
    assert not session.entries[0].pinned
    live_report = session.result().tasks[0]
    assert live_report.status is TaskStatus.RUNNING and live_report.label is None
    session.reply("Here is what I found.")
    report = session.result().tasks[0]
    assert report.label == "error" and report.status is TaskStatus.COMPLETED
    assert report.action_name_ok is True and report.arguments_ok is False
    assert f"arguments of {node.action.name}" in report.reason
    assert report.error_type is not None


def test_a_clarification_question_is_answered_with_the_gold_user_input(live):
    env, registry = live
    session, _ = registry.create("concert_gift_tickets")
    play_gold_task(env, session)
    assert session.task_index == 1
    ask = session.spec.tasks[1].nodes[0]
    turn = session.reply("Which show and how many tickets?")
    assert turn.kind is TurnKind.CLARIFICATION and turn.task_index == 1
    assert turn.content == ask.user_input


def test_two_clarification_rounds_each_get_their_scripted_reply(live):
    env, registry = live
    session, _ = registry.create("film_club_schedule")
    play_gold_task(env, session)
    play_gold_task(env, session)
    first, second = session.spec.tasks[2].nodes[:2]
    assert session.reply("When?").content == first.user_input
    assert session.reply("And who should get the invite?").content == second.user_input
    *calls, prepare = session.spec.tasks[2].nodes[2:]
    for k, node in enumerate(calls):  # one call per step: a legal, if not optimal, order
        env.call_tool(session.session_id, node.action.name, node.action.arguments, {STEP_META_KEY: f"r{k}"})
    session.reply(prepare.observation)
    assert session.result().tasks[2].label == "correct"


def test_asking_when_the_agent_should_act_fails_the_task_and_moves_on(live):
    _, registry = live
    session, _ = registry.create("lisbon_comedy_weekend")
    turn = session.reply("Which city do you mean?")
    assert turn.kind is TurnKind.TASK and turn.task_index == 1
    report = session.result().tasks[0]
    assert report.label == "error" and report.status is TaskStatus.FAILED
    assert "action name not in candidate_answer_function_list" in report.reason


def test_a_tool_call_on_a_chat_turn_fails_the_task_once_the_step_is_judged(live):
    env, registry = live
    session, _ = registry.create("airport_ride_home")
    env.call_tool(session.session_id, "uber_list_products", {"latitude": 1.0, "longitude": 2.0}, {STEP_META_KEY: "x"})
    session.reply("Some rides are available.")
    report = session.result().tasks[0]
    assert report.label == "error"
    assert "got uber_list_products" in report.reason


def test_parallel_calls_grouped_by_step_id_match_one_parallel_step(live):
    env, registry = live
    session, _ = registry.create("airport_ride_home")
    play_gold_task(env, session)
    nodes = session.spec.tasks[1].nodes
    for node in nodes[:2]:
        env.call_tool(session.session_id, node.action.name, node.action.arguments, {STEP_META_KEY: "p"})
    session.reply(nodes[2].observation)
    report = session.result().tasks[1]
    assert report.label == "correct" and report.is_optimal and report.steps == 2
    assert not report.approximate_grouping


def test_calls_without_step_ids_are_grouped_by_overlap_and_marked_approximate(live):
    env, registry = live
    session, _ = registry.create("airport_ride_home")
    play_gold_task(env, session)
    session.overlap_window = 60.0  # everything within a minute counts as one batch
    nodes = session.spec.tasks[1].nodes
    for node in nodes[:2]:
        env.call_tool(session.session_id, node.action.name, node.action.arguments)
    session.reply("Done.")
    report = session.result().tasks[1]
    assert report.label == "correct" and report.steps == 2 and report.approximate_grouping


def test_the_step_budget_truncates_a_runaway_task(live):
    env, registry = live
    session, _ = registry.create("lisbon_comedy_weekend", max_steps=2)
    node = session.spec.tasks[0].nodes[0]
    outcomes = [
        env.call_tool(session.session_id, node.action.name, node.action.arguments, {STEP_META_KEY: f"s{k}"})
        for k in range(3)
    ]
    assert [o.is_error for o in outcomes] == [False, False, True]
    assert "Step budget exhausted" in outcomes[2].message
    session.reply("Done.")
    report = session.result().tasks[0]
    assert report.truncated and not report.terminated and report.label == "error"
    assert "step budget" in report.reason
    assert session.entries[-1].refused


def test_two_sessions_of_one_scenario_are_isolated(live):
    env, registry = live
    a, _ = registry.create("lisbon_comedy_weekend")
    b, _ = registry.create("lisbon_comedy_weekend")
    assert a.session_id != b.session_id
    node = a.spec.tasks[0].nodes[0]
    wrong = {**node.action.arguments, _first_string_argument(node.action.arguments): "Zzyzx"}
    env.call_tool(a.session_id, node.action.name, wrong, {STEP_META_KEY: "1"})
    a.reply("Done.")
    play_gold_task(env, b)
    assert a.result().tasks[0].label == "error"
    assert b.result().tasks[0].label == "correct"
    assert [e.arguments for e in b.entries] == [node.action.arguments]
    assert len(env.calls(a.session_id)) == len(env.calls(b.session_id)) == 1


def test_replying_after_the_last_task_is_refused_and_unknown_sessions_are_reported(live):
    env, registry = live
    session, _ = registry.create("airport_ride_home")
    for _ in range(4):
        turn = play_gold_task(env, session)
    assert turn.done and turn.kind is TurnKind.END and turn.content is None
    assert session.result().accuracy == 1.0
    with pytest.raises(SessionFinishedError, match="has ended"):
        session.reply("anything else?")
    with pytest.raises(UnknownScenarioSessionError):
        registry.get("sc_nope")
    with pytest.raises(UnknownScenarioSessionError, match="did you mean airport_ride_home"):
        registry.create("airport_ride_hom")


@pytest.mark.anyio
async def test_the_in_memory_mcp_client_sends_step_ids_through_meta(live):
    env, registry = live
    session, _ = registry.create("oslo_bergen_trip_weather", session_id="sc_inmemory")
    env.settings = env.settings.model_copy(update={"stdio_session": "sc_inmemory"})
    nodes = session.spec.tasks[0].nodes
    async with Client(build_server(env)) as client:
        for node in nodes[:2]:
            result = await client.call_tool(node.action.name, node.action.arguments, meta={STEP_META_KEY: "w"})
            assert result.structured_content == node.observation
    session.reply(nodes[2].observation)
    report = session.result().tasks[0]
    assert report.label == "correct" and report.steps == 2 and not report.approximate_grouping
    assert [e.step_id for e in session.entries] == ["w", "w"]
