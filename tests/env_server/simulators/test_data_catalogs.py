"""A data catalog's records read like the real ones: economic series, census variables, coins."""

from __future__ import annotations

import re

from env_server.catalog import Catalog
from env_server.simulators.census_variables import variables
from env_server.simulators.market import MarketTable
from env_server.simulators.records import default_facts
from tests.env_server.free_play import catalog, ok, session  # noqa: F401  (a fixture)

_SERIES = {r["title"]: r for r in default_facts().vocab.get("economic_series").records}


def test_a_series_search_finds_series_its_term_names_with_agreeing_units(catalog: Catalog):
    rows = ok(session(catalog, "fred_search_series"), "fred_search_series", search_text="mortgage rate")["seriess"]
    assert rows and "Mortgage" in rows[0]["title"]
    for row in rows:
        entry = _SERIES[row["title"]]
        assert row.get("units_short", entry["units_short"]) == entry["units_short"]
        assert row.get("frequency_short", entry["frequency_short"]) == entry["frequency_short"]


def test_a_series_record_agrees_with_its_title(catalog: Catalog):
    series = ok(session(catalog, "fred_get_series"), "fred_get_series", series_id="UNRATE")
    entry = _SERIES[series["title"]]
    assert (series["units"], series["frequency"], series["seasonal_adjustment"]) == (
        entry["units"], entry["frequency"], entry["seasonal_adjustment"])


def test_every_series_entry_says_its_units_frequency_and_adjustment():
    for title, entry in _SERIES.items():
        assert entry["frequency_short"] == entry["frequency"][0]
        assert entry["seasonal_adjustment"].endswith("Adjusted") or entry["seasonal_adjustment"].endswith("Rate")
        assert not ("Rate" in title.split(":")[0] and "Unemployment" in title) or entry["units"] == "Percent"


def test_a_census_variable_search_answers_acs_variables_of_its_phrase(catalog: Catalog):
    rows = ok(session(catalog, "uscensus_search_variables"), "uscensus_search_variables", year=2021,
              dataset="acs/acs5", search="median household income")["variables"]
    assert rows
    for row in rows:
        assert re.fullmatch(r"B\d{5}_\d{3}E", row["name"]) and row["group"] == row["name"].split("_")[0]
        assert "median household income" in row["label"].lower() and "2021" in row["label"]
    assert len({v["name"] for v in variables()}) == len(variables())


def test_a_coin_search_and_listing_show_real_coins(catalog: Catalog):
    table = MarketTable()
    found = ok(session(catalog, "coinpaprika_search_keyword"), "coinpaprika_search_keyword", q="polkadot")
    assert [(c["name"], c["symbol"]) for c in found["currencies"]][:1] == [("Polkadot", "DOT")]
    for asset in ok(session(catalog, "coincap_list_assets"), "coincap_list_assets")["data"]:
        fact = table.find(asset["symbol"])
        assert fact is not None and (asset["name"], asset["id"]) == (fact.name, fact.coin_id)
