"""Distractors (Hybrid-N): deterministic extra catalog tools (similar, then random), answered live, judged wrong-tool."""

from __future__ import annotations

import httpx
import pytest

from env_server.catalog.models import Operation
from env_server.orchestrator.distractors import candidate_names, pick_distractors, similar_quota
from env_server.orchestrator.errors import LiveSessionError
from env_server.orchestrator.gold import scenario_tools
from env_server.orchestrator.live import STEP_META_KEY
from env_server.runner import serve_in_thread
from env_server.search import search_index_for
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


def test_similar_tools_are_the_search_index_top_hits_then_a_seeded_random_fill(builtin_catalog, builtin_scenarios):
    spec = builtin_scenarios.get(SCENARIO)
    tools = scenario_tools(spec, builtin_catalog)
    picks = pick_distractors(builtin_catalog, tools, 15, seed=1)
    assert picks == pick_distractors(builtin_catalog, tools, 15, seed=1) and len(set(picks)) == 15
    quota = similar_quota(len(tools), 15)
    assert quota == 10  # 5 scenario tools + 10 similar = 15 of 20, then 5 random
    index = search_index_for(builtin_catalog)
    best: dict[str, float] = {}
    allowed = candidate_names(builtin_catalog, tools)  # scores depend on the candidate set (group boosts)
    for tool in tools.values():  # each scenario tool's name and description is one query
        for hit in index.search(f"{tool.name} {tool.description}", limit=len(builtin_catalog.tools), allowed=allowed):
            best[hit.name] = max(best.get(hit.name, 0.0), hit.score)
    similar, rest = picks[:quota], picks[quota:]
    outside = [best.get(name, 0.0) for name in allowed if name not in similar]
    assert min(best[name] for name in similar) >= max(outside)  # the top of the index, nothing better left out
    assert [best[name] for name in similar] == sorted((best[name] for name in similar), reverse=True)
    other_seed = pick_distractors(builtin_catalog, tools, 15, seed=2)
    assert other_seed[:quota] == similar and other_seed[quota:] != rest  # only the random fill follows the seed
    assert pick_distractors(builtin_catalog, tools, 0, seed=1) == []
    assert not set(picks) & ({*tools} | {t.name for t in tools.values()})


def test_hybrid_20_lists_20_tools_on_every_built_in_scenario_and_similar_picks_share_a_category(
        live, builtin_catalog, builtin_scenarios):
    env, registry = live
    similar_same = similar_total = random_same = random_total = 0
    for spec in builtin_scenarios.scenarios:
        session, _ = registry.create(spec.id, tool_pool=20)
        assert len(_listing(env, session)) == 20 and session.status().tool_count == 20, spec.id
        tools = scenario_tools(spec, builtin_catalog)
        categories = {t.category for t in tools.values()}
        quota = similar_quota(len(tools), len(session.distractors))
        shares = [builtin_catalog.tools[name].category in categories for name in session.distractors]
        similar_same, similar_total = similar_same + sum(shares[:quota]), similar_total + quota
        random_same, random_total = random_same + sum(shares[quota:]), random_total + len(shares) - quota
    # On the first 24 built-in scenarios: 190 of 251 similar picks (76%) shared a category with the
    # scenario's tools, against 4 of 120 random ones (the difflib ranking this replaced: 149 of 251).
    # The total grows with the built-in set (475 similar picks on 44 scenarios); the shares must hold.
    print(f"similar picks sharing a category: {similar_same}/{similar_total}; random: {random_same}/{random_total}")
    assert similar_total >= 251 and similar_same / similar_total > 0.7
    assert random_same / random_total < 0.2


def test_tool_pool_is_the_total_and_excludes_distractors(live):
    env, registry = live
    spec_tools = len(registry.scenario(SCENARIO).tools)
    small, _ = registry.create(SCENARIO, tool_pool=spec_tools - 1)  # the scenario's own tools are never dropped
    assert small.distractors == [] and len(_listing(env, small)) == spec_tools
    exact, _ = registry.create(SCENARIO, tool_pool=spec_tools + 3)
    assert len(exact.distractors) == 3
    with pytest.raises(LiveSessionError, match="not both"):
        registry.create(SCENARIO, tool_pool=20, distractors=2)
    with pytest.raises(LiveSessionError, match="tool_pool one or more"):
        registry.create(SCENARIO, tool_pool=0)


def test_tool_pool_over_rest(live):
    env, _ = live
    with serve_in_thread(env) as base:
        created = httpx.post(f"{base}/v1/scenario-sessions", json={"scenario_id": SCENARIO, "tool_pool": 20})
        assert created.status_code == 201, created.text
        assert created.json()["tool_count"] == 20
        via_sessions = httpx.post(f"{base}/v1/sessions", json={"scenario_id": SCENARIO, "tool_pool": 12})
        assert via_sessions.status_code == 201 and via_sessions.json()["tool_count"] == 12
        both = httpx.post(f"{base}/v1/scenario-sessions", json={"scenario_id": SCENARIO, "tool_pool": 20,
                                                                 "distractors": 2})
        assert both.status_code == 422 and "not both" in both.text
        tool_session = httpx.post(f"{base}/v1/sessions", json={"tools": ["search_tools"], "tool_pool": 20})
        assert tool_session.status_code == 422


def test_a_call_to_a_distractor_is_simulated_and_judged_as_the_wrong_tool(live, builtin_catalog):
    env, registry = live
    session, _ = registry.create(SCENARIO, distractors=5)
    readers = (Operation.SEARCH, Operation.LIST)  # they answer any sample arguments (a read needs a known id)
    name = next(n for n in session.distractors if builtin_catalog.tools[n].profile.operation in readers)
    outcome = env.call_tool(session.session_id, name, sample_arguments(builtin_catalog.tools[name], 0),
                            {STEP_META_KEY: "d"})
    assert not outcome.is_error and outcome.result  # the simulator answers: the world stays live
    assert not session.entries[0].pinned
    session.reply("Here is what I found.")
    report = session.result().tasks[0]
    assert report.label == "error" and report.action_name_ok is False
    assert f"got {name}" in report.reason
    assert report.error_type == "call the wrong function"
