"""Identifiers in their real formats, and sample arguments a real user would send."""

from __future__ import annotations

import re

from env_server import ToolEnvironment
from env_server.catalog import Catalog
from env_server.simulators.id_formats import ID_FORMAT_PATTERNS
from env_server.simulators.records import default_facts
from env_server.specs.id_checks import id_format_hits
from env_server.specs.samples import sample_arguments
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

SHA256 = ID_FORMAT_PATTERNS["sha256"]
WALLET = ID_FORMAT_PATTERNS["wallet_address"]
TX = ID_FORMAT_PATTERNS["tx_hash"]


def luhn_ok(number: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def iban_ok(iban: str) -> bool:
    moved = iban[4:] + iban[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def test_file_reports_carry_real_digests(env: ToolEnvironment):
    digest = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    report = call(env, "virustotal_get_file_report", hash=digest)
    assert report["sha256"] == digest
    assert re.fullmatch(r"[0-9a-f]{40}", report["sha1"]), report["sha1"]
    assert re.fullmatch(r"[0-9a-f]{32}", report["md5"]), report["md5"]
    for sample in call(env, "malwarebazaar_get_recent_samples")["data"]:
        assert SHA256.match(sample["sha256_hash"]), sample["sha256_hash"]


def test_chain_records_use_wallet_addresses_and_transaction_hashes(env: ToolEnvironment):
    rows = call(env, "etherscan_list_transactions", address="0x" + "ab" * 20)["result"]
    assert rows
    for row in rows:
        assert TX.match(row["hash"]), row["hash"]
        assert WALLET.match(row["from"]) and WALLET.match(row["to"]), row


def test_bank_and_card_numbers_pass_their_check_digits(env: ToolEnvironment):
    for bank in call(env, "random_data_api_get_banks")["banks"]:
        assert iban_ok(bank["iban"]), bank["iban"]
        assert ID_FORMAT_PATTERNS["swift_bic"].match(bank["swift_bic"]), bank["swift_bic"]
        assert re.fullmatch(r"\d{9}", bank["routing_number"]), bank["routing_number"]
    for card in call(env, "random_data_api_get_credit_cards")["credit_cards"]:
        assert card["credit_card_number"].isdigit() and luhn_ok(card["credit_card_number"]), card
    iban = call(env, "randommer_generate_iban", countryCode="ES")["iban"]
    assert iban.startswith("ES") and iban_ok(iban), iban


def test_parcels_carry_their_carriers_numbers_and_courier_slugs(env: ToolEnvironment):
    made = call(env, "aftership_create_tracking", tracking_number="1Z999AA10123456784")
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", made["slug"]), made["slug"]
    listed = call(env, "aftership_list_trackings")["trackings"]
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", t["slug"]) for t in listed), listed
    assert all(len(t["tracking_number"]) >= 10 for t in listed), listed


def test_books_and_vulnerabilities_use_isbns_and_cve_ids(env: ToolEnvironment):
    for book in call(env, "fakerapi_generate_books")["data"]:
        assert ID_FORMAT_PATTERNS["isbn"].match(book["isbn"]), book["isbn"]
    work = call(env, "crossref_get_work", doi="10.1038/nphys1170")
    assert work["DOI"] == "10.1038/nphys1170"
    for vuln in call(env, "nvd_search_cves")["vulnerabilities"]:
        assert ID_FORMAT_PATTERNS["cve_id"].match(vuln["cveId"]), vuln["cveId"]


def test_sample_arguments_are_what_a_real_user_would_send(catalog: Catalog):
    tools = catalog.tools
    assert WALLET.match(sample_arguments(tools["etherscan_get_balance"])["address"])
    assert re.fullmatch(r"\d+\.\d+\.\d+\.\d+", sample_arguments(tools["abuseipdb_check_ip"])["ipAddress"])
    host = sample_arguments(tools["securitytrails_get_domain"])["hostname"]
    assert re.fullmatch(r"[a-z0-9-]+(\.[a-z0-9-]+)+", host), host
    fx = sample_arguments(tools["currencyfreaks_convert_latest"])
    assert re.fullmatch(r"[A-Z]{3}", fx["from"]) and re.fullmatch(r"[A-Z]{3}", fx["to"]) and fx["from"] != fx["to"], fx
    # a description's own examples: "Courier slug, e.g. 'usps', 'dhl', 'royal-mail'"
    assert sample_arguments(tools["dnd5e_get_spell"])["index"] == "fireball"
    assert SHA256.match(sample_arguments(tools["malwarebazaar_get_sample_info"])["hash"])


def test_the_id_format_check_flags_ids_in_the_wrong_format():
    bad = {"sha1": "M97A5H5E", "rows": [{"tx_hash": "808b6e9b-7031-41c6-a5e1-5ea09b63f4bf"}],
           "iban": "HOZJ7JKB", "isbn_13": ["S7GHJ8ZJ"]}
    paths = {path for path, _ in id_format_hits(bad, "item", frozenset())}
    assert paths == {"$.sha1", "$.rows[0].tx_hash", "$.iban", "$.isbn_13[0]"}
    good = {"sha1": "a" * 40, "address": "0x" + "1" * 40, "iban": "DE89370400440532013000"}
    assert id_format_hits(good, "wallet", frozenset()) == []
    assert id_format_hits({"sha256": "sent by the caller"}, "item", frozenset({"sent by the caller"})) == []


def test_shipping_services_are_the_carriers_own_and_codes_agree_with_names(env: ToolEnvironment):
    services = {r["name"]: r["code"] for r in default_facts().vocab.get("ups_service").records}
    rated = call(env, "ups_get_rates", ship_from_postal_code="10001", ship_to_postal_code="94105", weight_lbs=3.0)
    for row in rated["rated_shipments"]:
        assert row["service_name"].startswith("UPS "), row
        assert services[row["service_name"]] == row["service_code"], row
    shipment = call(env, "postnord_track_shipment", shipment_id="00370712345678901234")
    assert shipment["events"] and all(e["event_description"][0].isupper() and " " in e["event_description"]
                                      for e in shipment["events"]), shipment["events"]
