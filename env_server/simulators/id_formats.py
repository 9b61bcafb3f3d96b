"""Identifiers in the formats real APIs use: hashes, wallet addresses and transaction
hashes, ISBNs, DOIs, ISSNs, IBANs, card numbers, CVE ids, AS numbers, parcel tracking
numbers and courier slugs; and the registry codes of ``code_kinds`` (IMDb ids, barcodes,
MICs, SIC codes, patent numbers, VAT numbers...).

``id_format_kind(field, entity)`` names the kind a field's name implies. It runs before
the general naming rules (so ``hostname`` is a host, not a person) and beats a generic
profile hint (a ``sha256`` drawn as ``code`` read "M97A5H5E"). ``ID_FORMAT_KINDS`` draws
them; check digits are real (ISBN, ISSN, IBAN, Luhn, ABA), so a validator accepts what we
return.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.code_kinds import CODE_KINDS, CODE_PATTERNS, code_kind

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# Records on a blockchain: their bare ``address`` and ``hash`` are a wallet and a transaction.
CHAIN_WORDS = frozenset({"wallet", "chain", "transaction", "tx", "token", "contract", "balance", "block", "portfolio",
                         "nft", "holder", "transfer", "gas", "ether", "eth"})
_PARCEL_WORDS = frozenset({"tracking", "tracker", "shipment", "parcel", "package", "delivery", "checkpoint"})

_ANYWHERE: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), k) for p, k in (
    (r"^(sha256|sha256_hash|sha_256|fingerprint_sha256|fingerprint|file_sha256|hash_sha256)$", "sha256"),
    (r"^(sha1|sha1_hash|sha_1|fingerprint_sha1)$", "sha1"),
    (r"^(md5|md5_hash|file_md5|hash_md5)$", "md5"),
    (r"^(hash_prefix|hash_prefixes)$", "hash_prefix"),
    (r"^(tx_hash|txhash|transaction_hash|block_hash|parent_hash)$", "tx_hash"),
    (r"^(wallet_address|contract_address|token_address|wallet|owner_address|holder_address)$", "wallet_address"),
    (r"^(ip|ip_address|ip_str|ipv4|ipv4_address|client_ip|source_ip|remote_ip|src_ip|dst_ip)$", "ip"),
    (r"^(hostname|host_name|apex_domain|fqdn|subject_dn_cn)$", "domain"),
    (r"^(isbn|isbn13|isbn_13|isbn10|isbn_10|primary_isbn)$", "isbn"),
    (r"^doi$", "doi"),
    (r"^(issn|eissn|e_issn|print_issn)$", "issn"),
    (r"^iban$", "iban"),
    (r"^(bic|swift|swift_bic|swift_code|bic_code)$", "swift_bic"),
    (r"^(card_number|credit_card_number|cc_number|pan)$", "card_number"),
    (r"^(cvv|cvc|cvv2|card_cvv)$", "cvv"),
    (r"^(routing_number|aba|aba_routing_number)$", "routing_number"),
    (r"^(account_number|bank_account_number|account_no)$", "account_number"),
    (r"^(cve|cve_id|vuln|vulns|cve_ids)$", "cve_id"),
    (r"^(asn|as_number)$", "asn"),
    (r"^(tracking_number|tracking_code|package_tracking_number|tracking_no|waybill|awb_number)$", "tracking_number"),
    (r"^(courier_slug|carrier_slug)$", "courier_slug"),
))
_ON_CHAIN = {"address": "wallet_address", "from": "wallet_address", "to": "wallet_address",
             "from_address": "wallet_address", "to_address": "wallet_address", "owner": "wallet_address",
             "hash": "tx_hash"}


@functools.lru_cache(maxsize=8192)
def id_format_kind(low: str, entity: str) -> str | None:
    """The identifier kind a snake_case field name implies in a record of ``entity``."""
    for pattern, kind in _ANYWHERE:
        if pattern.match(low):
            return kind
    words = frozenset(entity.split("_"))
    if low in _ON_CHAIN and words & CHAIN_WORDS:
        return _ON_CHAIN[low]
    if low in ("hash", "file_hash", "checksum", "sample_hash"):
        return "sha256"
    if low == "slug" and words & _PARCEL_WORDS:
        return "courier_slug"
    return code_kind(low, entity)  # IMDb ids, barcodes, MICs, SIC codes, patents... (code_kinds)


def _hex(gen: Generation, n: int) -> str:
    return f"{gen.rng.getrandbits(4 * n):0{n}x}"


def _digits(gen: Generation, n: int) -> str:
    return "".join(gen.rng.choice(string.digits) for _ in range(n))


def _luhn_digit(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return str((10 - total % 10) % 10)


_CARD_PREFIXES = (("4", 16), ("51", 16), ("53", 16), ("55", 16), ("2221", 16), ("34", 15), ("37", 15), ("6011", 16))


def card_number(gen: Generation) -> str:
    prefix, length = gen.rng.choice(_CARD_PREFIXES)
    body = prefix + _digits(gen, length - len(prefix) - 1)
    return body + _luhn_digit(body)


def issn(gen: Generation) -> str:
    body = _digits(gen, 7)
    check = (11 - sum(int(c) * (8 - i) for i, c in enumerate(body)) % 11) % 11
    return f"{body[:4]}-{body[4:]}{'X' if check == 10 else check}"


# A few registrants' DOI prefixes (publishers' real prefixes are facts) and our own suffix stems.
_DOI_PREFIXES = ("10.1038", "10.1016", "10.1007", "10.1126", "10.1371", "10.1093", "10.1002", "10.3390", "10.1145",
                 "10.1109", "10.5281", "10.1177")


def doi(gen: Generation) -> str:
    year = gen.today.year - gen.rng.randint(0, 15)
    return f"{gen.rng.choice(_DOI_PREFIXES)}/{gen.rng.choice(('j', 's', 'journal', 'art'))}.{year}.{_digits(gen, 5)}"


# BBAN layouts (letters "a", digits "n") of common IBAN countries.
_BBAN = {"DE": "n" * 18, "FR": "n" * 10 + "a" * 11 + "n" * 2, "ES": "n" * 20, "IT": "a" + "n" * 22, "NL": "aaaa" + "n" * 10,
         "GB": "aaaa" + "n" * 14, "BE": "n" * 12, "AT": "n" * 16, "CH": "n" * 17, "PL": "n" * 24, "PT": "n" * 21,
         "IE": "aaaa" + "n" * 14, "SE": "n" * 20, "DK": "n" * 14, "NO": "n" * 11, "FI": "n" * 14}


def bban(gen: Generation, country: str) -> str:
    layout = _BBAN.get(country, _BBAN["DE"])
    return "".join(gen.rng.choice(string.ascii_uppercase if c == "a" else string.digits) for c in layout)


def iban(gen: Generation) -> str:
    """An IBAN of the call's country (where it uses IBANs; Germany otherwise), check digits right."""
    country = str(gen.snaked_args.get("country_code") or gen.snaked_args.get("country") or "").upper()
    country = country if country in _BBAN else "DE"
    body: str = gen.scope.once("bban", lambda: bban(gen, country))
    numeric = "".join(str(int(c, 36)) for c in body + country + "00")
    return f"{country}{98 - int(numeric) % 97:02d}{body}"


def routing_number(gen: Generation) -> str:
    body = _digits(gen, 8)
    weights = (3, 7, 1, 3, 7, 1, 3, 7)
    return body + str((10 - sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 10) % 10)


def swift_bic(gen: Generation) -> str:
    bank = "".join(gen.rng.choice(string.ascii_uppercase) for _ in range(4))
    country = gen.rng.choice(("DE", "FR", "GB", "NL", "ES", "IT", "US", "CH", "SE", "JP"))
    return f"{bank}{country}{gen.rng.choice(('2L', '22', 'MM', 'FF', '3N'))}{gen.rng.choice(('', 'XXX'))}"


# Real couriers' AfterShip slugs (facts), and how each writes its parcel numbers.
COURIER_SLUGS = ("usps", "ups", "fedex", "dhl", "dhl-germany", "royal-mail", "canada-post", "australia-post",
                 "postnord", "la-poste-colissimo", "japan-post", "china-ems", "dpd", "gls", "hermes-de", "yodel",
                 "bpost", "poste-italiane", "correos-spain", "india-post")


def tracking_number(gen: Generation) -> str:
    """A parcel number as the answering carrier writes it (UPS "1Z…", FedEx 12 digits, a postal S10 code)."""
    who = (gen.provider or "").lower()
    if "ups" == who or who.startswith("ups"):
        return "1Z" + "".join(gen.rng.choice(string.ascii_uppercase + string.digits) for _ in range(6)) + _digits(gen, 10)
    if "fedex" in who:
        return _digits(gen, 12)
    if "usps" in who or "easypost" in who:
        return "9400" + _digits(gen, 18)
    if "postnord" in who:
        return f"{gen.rng.choice(('RR', 'LX', 'CP', 'EE'))}{_digits(gen, 9)}SE"
    return gen.rng.choice(("1Z" + _hex(gen, 16).upper(), _digits(gen, 12), "9400" + _digits(gen, 18), _digits(gen, 10)))


ID_FORMAT_KINDS: dict[str, Callable[[Generation], Any]] = {
    "sha256": lambda g: _hex(g, 64),
    "sha1": lambda g: _hex(g, 40),
    "md5": lambda g: _hex(g, 32),
    "hash_prefix": lambda g: _hex(g, 8),
    "tx_hash": lambda g: "0x" + _hex(g, 64),
    "wallet_address": lambda g: "0x" + _hex(g, 40),
    "doi": doi,
    "issn": issn,
    "iban": iban,
    "swift_bic": swift_bic,
    "card_number": card_number,
    "cvv": lambda g: _digits(g, 3),
    "routing_number": routing_number,
    "account_number": lambda g: _digits(g, g.rng.choice((8, 10, 12))),
    "cve_id": lambda g: f"CVE-{g.today.year - g.rng.randint(0, 6)}-{g.rng.randint(1000, 52999)}",
    "asn": lambda g: g.rng.choice((13335, 15169, 16509, 8075, 14061, 20940, 24940, 16276, 3320, 7922, 4134, 9009,
                                   12389, 45102, 63949, 396982, 8452, 3215, 701, 174)),
    "tracking_number": tracking_number,
    "courier_slug": lambda g: g.rng.choice(COURIER_SLUGS),
    **CODE_KINDS,
}

# Broad hints an identifier's name beats ("sha256": "code" was written before these kinds).
OVERRIDABLE_HINTS = frozenset({"code", "uuid", "id", "tag", "title", "slug", "name", "word", "words", "sentence",
                               "description", "count", "url", "own_url", "company", "username", "address", "city",
                               "status", "version", "category"})

# What a value of each kind looks like (the audit's check, the property tests' oracle).
ID_FORMAT_PATTERNS: dict[str, re.Pattern[str]] = {k: re.compile(p) for k, p in {
    "sha256": r"^[0-9a-f]{64}$", "sha1": r"^[0-9a-f]{40}$", "md5": r"^[0-9a-f]{32}$",
    "tx_hash": r"^0x[0-9a-f]{64}$", "wallet_address": r"^0x[0-9a-f]{40}$",
    "isbn": r"^(97[89]-?\d{1,5}-?\d+-?\d+-?\d|\d{9}[\dX])$", "doi": r"^10\.\d{4,9}/\S+$", "issn": r"^\d{4}-\d{3}[\dX]$",
    "iban": r"^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$", "swift_bic": r"^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$",
    "card_number": r"^\d{15,16}$", "cve_id": r"^CVE-\d{4}-\d{4,7}$", "routing_number": r"^\d{9}$",
}.items()} | CODE_PATTERNS
