"""One record's fields agree: an order fills no more than it asked for and as its status says,
and an abbreviation spells the name beside it."""

from __future__ import annotations

import pytest

from env_server.environment import ToolEnvironment
from env_server.simulators.agreement_rules import AbbreviationSpells, FillFollowsStatus, abbreviation_of
from env_server.simulators.invariants import enforce, violations
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)


@pytest.mark.parametrize(("status", "filled"), [("accepted", 0.0), ("pending_new", 0.0), ("rejected", 0.0),
                                                ("FILLED", 40.0), ("filled", 40.0)])
def test_an_orders_fill_follows_its_status(status: str, filled: float):
    order = {"qty": 40.0, "filled_qty": 10.0, "status": status}
    enforce(order, {})
    assert order["filled_qty"] == filled
    assert violations(order, {}) == []


def test_a_fill_is_never_more_than_the_order():
    order = {"origQty": 12.5, "executedQty": 30.0, "status": "CANCELED"}
    enforce(order, {})
    assert order["executedQty"] <= order["origQty"]


def test_a_cancelled_order_is_not_live():
    order = {"original_amount": 10.0, "executed_amount": 4.0, "is_live": True, "is_cancelled": True}
    assert FillFollowsStatus().violation(order, {}) is not None
    enforce(order, {})
    assert order["is_live"] is False


def test_placed_orders_read_as_their_status_says(env: ToolEnvironment):
    for order in call(env, "alpaca_list_orders")["orders"]:
        assert order["filled_qty"] <= order["qty"]
        if order["status"] in ("accepted", "new", "pending_new", "rejected"):
            assert order["filled_qty"] == 0


@pytest.mark.parametrize(("name", "short"), [("Los Angeles Lakers", "LAL"), ("Golden State Warriors", "GSW"),
                                             ("Ottawa Senators", "OTT"), ("Bay Area Rapid Transit", "BART"),
                                             ("Department of the Treasury", "DEP")])
def test_an_abbreviation_is_a_long_names_initials_or_a_short_names_first_letters(name: str, short: str):
    assert abbreviation_of(name) == short


def test_an_abbreviation_the_call_sent_stays():
    record = {"abbreviation": "TOR", "name": "Ottawa Senators"}
    enforce(record, {"team": "TOR"})
    assert record["abbreviation"] == "TOR"
    assert AbbreviationSpells().violation(record, {"team": "TOR"}) is None


def test_a_drawn_code_is_abbreviated_from_its_name_and_a_listed_one_stays():
    drawn = {"abbrev": "7GH2KQ9X", "name": "Ottawa Senators"}
    enforce(drawn, {})
    assert drawn["abbrev"] == "OTT"
    listed = {"abbrev": "NASA", "name": "National Aeronautics and Space Administration"}
    enforce(listed, {})
    assert listed["abbrev"] == "NASA"


def test_an_abbreviation_the_schema_lists_keeps_its_listed_value(env: ToolEnvironment, catalog):
    listed = catalog.tools["nhl_get_standings"].output_schema["properties"]["standings"]["items"]["properties"]
    for row in call(env, "nhl_get_standings")["standings"]:
        assert row["teamAbbrev"] in listed["teamAbbrev"]["enum"]
