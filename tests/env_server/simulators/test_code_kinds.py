"""Code-like fields hold codes in their registries' formats, check digits right, and a code
agrees with the name drawn beside it."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st
from stdnum import casrn, cusip, ean, figi, isin
from stdnum.eu import vat
from stdnum.iso7064 import mod_11_2

from env_server.simulators.code_facts import code_table, exchange_step, exchanges
from env_server.simulators.code_kinds import SERIES_UNITS
from env_server.simulators.generate import Generation
from env_server.simulators.id_formats import ID_FORMAT_PATTERNS
from env_server.simulators.naming import kind_for, resolve_kind
from env_server.simulators.values import draw_kind

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _gen(seed: int, **args: object) -> Generation:
    return Generation(seed, dt.date(2026, 12, 7), dict(args))


def test_code_fields_take_their_registry_kinds_by_name_and_entity():
    assert kind_for("imdbID", "movie") == "imdb_id"
    assert kind_for("isrc", "track") == "isrc"
    assert kind_for("gtinUpc", "food") == "ean13" and kind_for("upc", "product") == "upc"
    assert kind_for("mic_code", "stock") == "exchange_mic" and kind_for("mic", "exchange") == "venue_mic"
    assert kind_for("exchange", "quote") == "exchange_acronym"
    assert kind_for("sicDescription", "registrant") == "sic_description"
    assert kind_for("User-Agent", "echo") == "user_agent"
    assert kind_for("publication_number", "patent") == "ep_publication_number"
    assert kind_for("vat_number", "company") == "vat_number"
    assert kind_for("icao24", "state_vector") == "icao24"
    assert kind_for("airportCode", "delay") == "airport_code"
    assert kind_for("icao", "airline") == "airline_icao"


def test_entity_bound_code_names_keep_their_kinds_elsewhere():
    assert kind_for("exchange", "coin_market") != "exchange_acronym"  # a crypto venue, not a stock exchange
    assert kind_for("publication_number", "agency") is None or kind_for("publication_number", "agency") not in (
        "ep_publication_number",)
    assert kind_for("registration_number", "vehicle") != "company_number"
    assert kind_for("primary_category", "product") != "arxiv_category"


def test_a_code_name_beats_a_broad_profile_hint():
    assert resolve_kind("registration_number", "profile", "", {"registration_number": "code"}) == "company_number"
    assert resolve_kind("sic_description", "ticker", "", {"sic_description": "category"}) == "sic_description"
    assert resolve_kind("acronym", "ticker", "", {"acronym": "code"}) == "exchange_acronym"


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_drawn_codes_match_their_formats(seed: int):
    for kind, pattern in ID_FORMAT_PATTERNS.items():
        if kind in ("isbn",):
            continue
        value = str(draw_kind(kind, _gen(seed)))
        assert pattern.match(value), (kind, value)


@settings(max_examples=80, deadline=None)
@given(SEEDS)
def test_check_digit_codes_validate(seed: int):
    gen = _gen(seed)
    assert ean.is_valid(draw_kind("ean13", gen)) and ean.is_valid(draw_kind("upc", gen))
    assert isin.is_valid(draw_kind("isin", gen)) and cusip.is_valid(draw_kind("cusip", gen))
    assert figi.is_valid(draw_kind("figi", gen))
    assert casrn.is_valid(draw_kind("cas_number", gen))
    assert mod_11_2.is_valid(draw_kind("orcid", gen).replace("-", ""))
    assert vat.is_valid(draw_kind("vat_number", gen))


@settings(max_examples=40, deadline=None)
@given(SEEDS)
def test_an_isin_wraps_the_records_cusip(seed: int):
    gen = _gen(seed)
    assert draw_kind("isin", gen)[2:11] == draw_kind("cusip", gen)


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_an_exchanges_mic_acronym_and_name_are_one_exchanges(seed: int):
    by_mic = {row["mic"]: row for row in exchanges()}
    for kinds in (("exchange_mic", "exchange_acronym", "exchange_name"), ("venue_mic", "venue_acronym", "venue_name")):
        gen = _gen(seed)
        mic, acronym, name = (draw_kind(k, gen) for k in kinds)
        assert by_mic[mic]["acronym"] == acronym and by_mic[mic]["name"] == name


def test_a_listings_exchange_is_its_tickers():
    gen = _gen(3, symbol="AAPL")
    assert draw_kind("exchange_mic", gen) == "XNAS" and draw_kind("exchange_acronym", gen) == "NASDAQ"


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_a_classification_code_agrees_with_its_title(seed: int):
    for code_kind, title_kind, table in (("sic_code", "sic_description", ("industry_codes.json", "us_sic")),
                                          ("icd10_code", "icd10_description", ("medical_codes.json", "icd10")),
                                          ("atc_code", "atc_substance", ("medical_codes.json", "atc"))):
        gen = _gen(seed)
        titles = {row["code"]: row["description"] for row in code_table(*table)}
        code = draw_kind(code_kind, gen)
        assert titles[code] == draw_kind(title_kind, gen)


@settings(max_examples=80, deadline=None)
@given(SEEDS)
def test_user_agents_name_one_browser_with_its_own_engine(seed: int):
    ua = draw_kind("user_agent", _gen(seed))
    if "Firefox/" in ua:
        assert "Gecko/20100101" in ua and "Chrome/" not in ua
        assert ua.split("rv:")[1].split(")")[0] == ua.rsplit("Firefox/", 1)[1]
    elif "Chrome/" in ua:
        assert "AppleWebKit/537.36" in ua and ua.endswith(("Safari/537.36",)) or " Edg/" in ua
    else:
        assert "AppleWebKit/605.1.15" in ua and "Version/" in ua and "Safari/" in ua
    if " Edg/" in ua:
        assert ua.split("Chrome/")[1].split(".")[0] == ua.split("Edg/")[1].split(".")[0]


@settings(max_examples=40, deadline=None)
@given(SEEDS)
def test_a_package_ndc_extends_the_records_product_ndc(seed: int):
    gen = _gen(seed)
    assert draw_kind("package_ndc", gen).startswith(draw_kind("product_ndc", gen) + "-")


@settings(max_examples=40, deadline=None)
@given(SEEDS)
def test_a_patent_number_and_id_are_one_grant(seed: int):
    gen = _gen(seed)
    assert draw_kind("patent_number", gen)[2:-2] == draw_kind("patent_id", gen)


def test_an_airlines_icao_designator_matches_its_iata_code():
    gen = _gen(5)
    pairs = {"LH": "DLH", "BA": "BAW", "KL": "KLM", "DL": "DAL", "AF": "AFR", "UA": "UAL"}
    code, icao = draw_kind("airline_code", gen), draw_kind("airline_icao", gen)
    assert pairs.get(code, icao) == icao and len(icao) == 3


def test_an_exchange_record_takes_its_mics_name_seat_and_zone():
    step = exchange_step("data", "exchange", {"mic": {}, "name": {}, "acronym": {}, "country_code": {}, "city": {}})
    assert step is not None
    record = {"mic": "XLON", "name": "Horton and Sons", "acronym": "X", "country_code": "CN", "city": "Jinshan"}
    step(record, _gen(1), 0)
    assert record == {"mic": "XLON", "name": "London Stock Exchange", "acronym": "LSE", "country_code": "GB",
                      "city": "London"}


def test_a_listing_keeps_its_name_and_takes_its_exchanges_country_and_currency():
    step = exchange_step("data", "stock", {"symbol": {}, "name": {}, "mic_code": {}, "country": {}, "currency": {}})
    assert step is not None
    record = {"symbol": "COST", "name": "Costco", "mic_code": "XNAS", "country": "Peru", "currency": "PEN"}
    step(record, _gen(1), 0)
    assert record == {"symbol": "COST", "name": "Costco", "mic_code": "XNAS", "country": "United States",
                      "currency": "USD"}


def test_crypto_venues_are_not_stock_exchanges():
    assert exchange_step("data", "crypto_exchange", {"mic": {}, "name": {}}) is None
    assert exchange_step("data", "user", {"name": {}}) is None


@settings(max_examples=30, deadline=None)
@given(SEEDS)
def test_a_series_short_units_abbreviate_its_units(seed: int):
    gen = _gen(seed)
    units, short = draw_kind("series_units", gen), draw_kind("series_units_short", gen)
    assert (units, short) in SERIES_UNITS


def test_gauge_and_register_codes_take_their_agencies_formats():
    assert resolve_kind("stat_cd", "daily_series", "", {"stat_cd": "code"}) == "usgs_stat_code"
    assert resolve_kind("parameter_cd", "site_statistic", "", {"parameter_cd": "code"}) == "usgs_parameter_code"
    assert resolve_kind("document_number", "fr_document", "", {"document_number": "code"}) == "fr_document_number"
    assert kind_for("document_number", "invoice") != "fr_document_number"
    assert resolve_kind("units", "series", "", {"units": "code"}) == "series_units"
