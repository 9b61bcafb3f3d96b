"""Ranked lists count 1, 2, 3 from their top, ordered by the figure they rank by."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.simulators.rank_order import rank_plan
from state import Database

INT = {"type": "integer"}


@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=12), st.integers(0, 500))
def test_a_chart_ranks_its_items_by_their_figure_from_the_page_offset(plays, offset):
    plan = rank_plan({"rank": INT, "name": {"type": "string"}, "playcount": INT})
    assert plan is not None
    items = plan.apply([{"rank": 99, "playcount": p} for p in plays], {"offset": offset})
    assert [item["rank"] for item in items] == list(range(offset + 1, offset + 1 + len(plays)))
    assert [item["playcount"] for item in items] == sorted(plays, reverse=True)


def test_parts_in_order_number_their_positions_and_a_foreign_rank_stays():
    plan = rank_plan({"position": INT, "ingredient": {"type": "string"}})
    assert plan is not None and plan.figure is None
    assert [i["position"] for i in plan.apply([{"position": 7}, {"position": 3}], {})] == [1, 2]
    assert rank_plan({"rank": INT, "skill": {"type": "string"}, "level": INT}) is None  # a hiscore's rank


def test_top_tracks_rank_by_plays_and_play_at_least_their_listeners():
    env = ToolEnvironment(load_catalog(), Database(), ServerSettings())
    for seed in range(6):
        env.create_session(tools=["last_fm_get_artist_top_tracks"], session_id=f"s{seed}", seed=seed,
                           today=dt.date(2026, 12, 7))
        tracks = env.call_tool(f"s{seed}", "last_fm_get_artist_top_tracks", {"artist": "Radiohead"}).result["tracks"]
        assert [t["rank"] for t in tracks] == list(range(1, len(tracks) + 1))
        assert [t["playcount"] for t in tracks] == sorted((t["playcount"] for t in tracks), reverse=True)
        assert all(t["playcount"] >= t["listeners"] for t in tracks)


def test_a_chart_sorted_by_another_field_keeps_that_order_and_each_row_its_rank():
    plan = rank_plan({"rank": INT, "title": {"type": "string"}, "score": {"type": "number"}})
    assert plan is not None
    rows = [{"rank": 0, "title": "b", "score": 1.0}, {"rank": 0, "title": "a", "score": 9.0}]
    out = plan.apply(rows, {"sort": "title"})
    assert [r["title"] for r in out] == ["b", "a"] and [r["rank"] for r in out] == [2, 1]
