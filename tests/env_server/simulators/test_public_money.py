"""Sums of public money at their magnitudes (``simulators/public_money.py``)."""

from __future__ import annotations

from env_server.catalog import Catalog
from env_server.environment import ToolEnvironment
from env_server.specs.money_checks import public_money_hits
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)


def test_public_tenders_are_worth_thousands_to_millions(env: ToolEnvironment):
    for country in ("pl", "es", "hu"):
        for tender in call(env, "tendersguru_list_tenders", country=country)["data"]:
            assert 10_000 <= tender["awarded_value_eur"] <= 50_000_000, tender


def test_a_charitys_figures_are_an_organisations_and_hold_together(env: ToolEnvironment):
    for ein in ("530196605", "131644147", "941156365"):
        books = call(env, "charitysearch_get_charity_financials", ein=ein)
        assert books["totalRevenue"] >= 50_000
        assert books["totalContributions"] <= books["totalRevenue"]
        assert books["programExpenses"] + books["fundraisingExpenses"] <= books["totalRevenue"]
        assert books["totalLiabilities"] < books["totalAssets"]


def test_an_agency_outlays_no_more_than_it_obligated_of_billions(env: ToolEnvironment):
    for year in call(env, "usaspending_get_agency_budget", toptier_code="097")["years"]:
        assert year["agency_budgetary_resources"] >= 1e9
        assert year["agency_total_outlayed"] <= year["agency_total_obligated"] <= year["agency_budgetary_resources"]


def test_the_audit_reports_a_tender_worth_a_shop_purchase(catalog: Catalog):
    spec = catalog.tools["tendersguru_list_tenders"]
    assert public_money_hits(spec, {"data": [{"awarded_value_eur": 106.09}]})
    assert public_money_hits(spec, {"data": [{"awarded_value_eur": 1_250_000.0}]}) == []
