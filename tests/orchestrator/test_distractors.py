"""Distractors (Hybrid-N): deterministic extra catalog tools, answered live, judged wrong-tool."""

from __future__ import annotations

import difflib

from env_server.orchestrator.distractors import SIMILAR_NAME_RATIO, pick_distractors
from env_server.orchestrator.gold import scenario_tools
from env_server.orchestrator.live import STEP_META_KEY
from env_server.specs.samples import sample_arguments

SCENARIO = "lisbon_comedy_weekend"


def _listing(env, session) -> list[str]:
    return env.listed_names(env.view(session.session_id))


def test_distractors_are_deterministic_by_seed_and_never_shadow_scenario_tools(live, builtin_catalog):
    env, registry = live
    a, _ = registry.create(SCENARIO, distractors=8, seed=5)
    b, _ = registry.create(SCENARIO, distractors=8, seed=5)
    c, _ = registry.create(SCENARIO, distractors=8, seed=6)
    assert _listing(env, a) == _listing(env, b)
    assert a.distractors == b.distractors and len(a.distractors) == 8
    scenario = set(a.spec.tools)
    assert set(_listing(env, a)) == scenario | set(a.distractors)
    assert len(_listing(env, a)) == len(scenario) + 8 and not scenario & set(a.distractors)
    assert set(_listing(env, c)) >= scenario and _listing(env, c) != _listing(env, a)
    plain, _ = registry.create(SCENARIO)
    assert _listing(env, plain) == a.spec.tools and plain.distractors == []


def test_similar_tools_come_before_same_category_and_random_ones(builtin_catalog, builtin_scenarios):
    spec = builtin_scenarios.get(SCENARIO)
    tools = scenario_tools(spec, builtin_catalog)
    families = {t.family for t in tools.values()}
    categories = {t.category for t in tools.values()}
    picks = pick_distractors(builtin_catalog, tools, 40, seed=1)
    assert picks == pick_distractors(builtin_catalog, tools, 40, seed=1) and len(set(picks)) == 40

    def tier(name: str) -> int:
        tool = builtin_catalog.tools[name]
        similar = max(difflib.SequenceMatcher(None, name, t).ratio() for t in tools) >= SIMILAR_NAME_RATIO
        return 0 if similar or tool.family in families else 1 if tool.category in categories else 2

    tiers = [tier(p) for p in picks]
    assert tiers[0] == 0 and tiers == sorted(tiers) and tiers[-1] > 0  # similar, same category, then random
    assert pick_distractors(builtin_catalog, tools, 0, seed=1) == []
    assert not set(picks) & ({*tools} | {t.name for t in tools.values()})


def test_a_call_to_a_distractor_is_simulated_and_judged_as_the_wrong_tool(live, builtin_catalog):
    env, registry = live
    session, _ = registry.create(SCENARIO, distractors=5)
    name = session.distractors[0]
    outcome = env.call_tool(session.session_id, name, sample_arguments(builtin_catalog.tools[name], 0),
                            {STEP_META_KEY: "d"})
    assert not outcome.is_error and outcome.result  # the simulator answers: the world stays live
    assert not session.entries[0].pinned
    session.reply("Here is what I found.")
    report = session.result().tasks[0]
    assert report.label == "error" and report.action_name_ok is False
    assert f"got {name}" in report.reason
    assert report.error_type == "call the wrong function"
