"""Team fields name teams of the sport the API is about, and one answer does not repeat a team."""

from __future__ import annotations

import pytest

from env_server.environment import ToolEnvironment
from env_server.simulators.sport_teams import sport_of, teams_of
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)


@pytest.mark.parametrize(("text", "sport"), [
    ("NHL standings by conference", "ice_hockey"),
    ("balldontlie NBA games with scores", "basketball"),
    ("Sportmonks Cricket live scores", "cricket"),
    ("Football (soccer) data for 1,000+ leagues", "soccer"),
    ("NFL scores: the American football season", "american_football"),
    ("Classified finishing order of one Grand Prix", "motor_racing"),
    ("Crowd-sourced multi-sport database of teams", "soccer"),
])
def test_the_sport_follows_the_words_of_the_provider_and_tool(text: str, sport: str):
    assert sport_of(text) == sport


def _teams(value, keys: set[str]) -> list[str]:
    found: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            found += [v] if k in keys and isinstance(v, str) else _teams(v, keys)
    elif isinstance(value, list):
        for v in value:
            found += _teams(v, keys)
    return found


@pytest.mark.parametrize(("tool", "args", "keys", "sport"), [
    ("sportmonks_cricket_get_livescores", {}, {"localteam", "visitorteam"}, "cricket"),
    ("nhl_get_standings", {}, {"teamName"}, "ice_hockey"),
    ("mlb_stats_get_schedule", {"sportId": 1}, {"home_team", "away_team"}, "baseball"),
    ("football_data_list_matches", {"code": "PL"}, {"homeTeam", "awayTeam"}, "soccer"),
    ("ergast_get_driver_standings", {}, {"constructorName"}, "motor_racing"),
])
def test_a_sports_api_names_teams_of_its_own_sport(env: ToolEnvironment, tool: str, args: dict, keys: set[str],
                                                   sport: str):
    names = _teams(call(env, tool, **args), keys)
    assert names
    assert set(names) <= set(teams_of(sport)), names


def test_a_fixture_list_does_not_set_a_team_against_itself(env: ToolEnvironment):
    for match in call(env, "football_data_list_matches", code="PL")["matches"]:
        assert match["homeTeam"] != match["awayTeam"]
