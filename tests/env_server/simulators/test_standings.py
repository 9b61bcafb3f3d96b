"""A league table adds up: games are results, points follow the league's scoring, rows stand in order;
a player plays a position of the sport."""

from __future__ import annotations

import datetime as dt
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from env_server.catalog import Catalog
from env_server.simulators.generate import Generation
from env_server.simulators.sport_teams import positions_of
from env_server.simulators.standings import fill_table, layout_of
from tests.env_server.free_play import catalog, ok, session  # noqa: F401  (a fixture)

_INT = {"type": "integer"}
FOOTBALL = {"intRank": _INT, "intPlayed": {"type": "integer", "maximum": 38}, "intWin": _INT, "intDraw": _INT,
            "intLoss": _INT, "intGoalsFor": _INT, "intGoalsAgainst": _INT, "intGoalDifference": _INT,
            "intPoints": {"type": "integer", "maximum": 100}, "strForm": {"type": "string", "minLength": 5}}
HOCKEY = {"gamesPlayed": {"type": "integer", "maximum": 82}, "wins": _INT, "losses": _INT, "otLosses": _INT,
          "points": _INT, "pointPctg": {"type": "number"}}
RACING = {"position": _INT, "points": {"type": "number"}, "wins": _INT}


def _table(props: dict[str, Any], seed: int, size: int, args: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    layout = layout_of(props)
    assert layout is not None
    rows: list[dict[str, Any]] = [{} for _ in range(size)]
    fill_table(rows, layout, Generation(seed, dt.date(2026, 12, 7), args or {}))
    return rows


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 20))
def test_a_football_table_adds_up_and_stands_in_points_order(seed: int, size: int):
    rows = _table(FOOTBALL, seed, size)
    for row in rows:
        assert row["intPlayed"] == row["intWin"] + row["intDraw"] + row["intLoss"] <= 38
        assert row["intPoints"] == 3 * row["intWin"] + row["intDraw"] <= 100
        assert row["intGoalsFor"] - row["intGoalsAgainst"] == row["intGoalDifference"]
        assert set(row["strForm"]) <= set("WDL") and len(row["strForm"]) == 5
    assert [r["intRank"] for r in rows] == list(range(1, size + 1))
    points = [r["intPoints"] for r in rows]
    assert points == sorted(points, reverse=True)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 16))
def test_an_nhl_table_counts_overtime_losses_for_a_point(seed: int, size: int):
    for row in _table(HOCKEY, seed, size):
        assert row["gamesPlayed"] == row["wins"] + row["losses"] + row["otLosses"] <= 82
        assert row["points"] == 2 * row["wins"] + row["otLosses"]
        assert abs(row["pointPctg"] - row["points"] / (2 * row["gamesPlayed"])) < 0.001


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 20), st.integers(1, 24))
def test_a_championship_stays_within_the_points_and_wins_of_its_races(seed: int, size: int, races: int):
    rows = _table(RACING, seed, size, {"round": races})
    assert rows[0]["points"] <= 26 * races
    assert sum(r["wins"] for r in rows) <= races
    assert [r["position"] for r in rows] == list(range(1, size + 1))
    assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)


def test_a_record_that_is_no_table_row_has_no_layout():
    assert layout_of({"wins": _INT, "name": {"type": "string"}}) is None
    assert layout_of({"points": _INT, "played": _INT}) is None


def test_built_in_standings_add_up(catalog: Catalog):
    nhl = ok(session(catalog, "nhl_get_standings"), "nhl_get_standings")["standings"]
    assert nhl and all(r["gamesPlayed"] == r["wins"] + r["losses"] + r["otLosses"] for r in nhl)
    table = ok(session(catalog, "thesportsdb_lookup_league_table"), "thesportsdb_lookup_league_table",
               l="4328", s="2023-2024")["table"]
    assert [r["intRank"] for r in table] == list(range(1, len(table) + 1))
    assert all(r["intPoints"] == 3 * r["intWin"] + r["intDraw"] for r in table)
    drivers = ok(session(catalog, "ergast_get_driver_standings"), "ergast_get_driver_standings")["standings"]
    assert [r["position"] for r in drivers] == list(range(1, len(drivers) + 1))


def test_a_player_position_is_one_of_the_sport_of_the_tool():
    schema = {"type": "object", "properties": {"name": {"type": "string"}, "position": {"type": "string"}}}
    for about, expected in (("NBA players by team", "basketball"), ("Premier League squads", "soccer"),
                            ("NHL skaters and goalies", "ice_hockey")):
        for seed in range(5):
            gen = Generation(seed, dt.date(2026, 12, 7), {}, entity="player", about=about)
            assert gen.fill(schema)["position"] in positions_of(expected)
