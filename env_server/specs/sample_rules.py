"""Sample values a real user would send, read from a parameter's own description.

The schema alone gives a free-text string to ``from`` ("productivity"), ``target``
("security") or ``address`` ("Chongzuo, China"). A description usually says more: it gives
examples ("Courier slug, e.g. 'usps', 'dhl'") or names the value ("Three-letter ISO code of
the currency", "0x-prefixed Ethereum address"). ``described_value`` returns such a value,
or None to let the schema decide.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from env_server.simulators.values import draw_kind

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# "e.g. 'usps', 'dhl' or 'royal-mail'", "such as 'fireball'", "like 'taunt'"
_EXAMPLES_RE = re.compile(r"(?:e\.g\.|for example|such as|like|example:?)\s+((?:'[^']{1,60}'(?:\s*(?:,|or|and)\s*)?)+)",
                          re.IGNORECASE)
_QUOTED_RE = re.compile(r"'([^']{1,60})'")
# Placeholders and patterns, not values: 'lat,lon', 'YYYY-MM-DD', '@<uid>', 'iata:XXX'.
_PLACEHOLDER_RE = re.compile(r"<|>|\.\.\.|YYYY|XXX|^lat,\s?lon$|^lon,\s?lat$|^longitude,latitude$", re.IGNORECASE)

# What a description names, first match wins: (pattern over the lowercased description, kind).
_DESCRIBED: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), k) for p, k in (
    (r"\b(ethereum|0x-prefixed|evm)\b.*\baddress\b|\bwallet address\b|\bcontract address\b", "wallet_address"),
    (r"\btransaction hash\b|\btx hash\b", "tx_hash"),
    (r"\bsha-?256\b", "sha256"),
    (r"\bmd5\b", "md5"),
    (r"\bsha-?1\b", "sha1"),
    (r"\bhash\b", "sha256"),
    (r"\bcity name\b", "city"),
    (r"\bip ?(v4 )?address\b|\bipv4\b", "ip"),
    (r"\b(hostname|domain name|domain)\b", "domain"),
    (r"\bisbn\b", "isbn"),
    (r"\bdoi\b", "doi"),
    (r"\bissn\b", "issn"),
    (r"\biban\b", "iban"),
    (r"\btracking (number|code)\b", "tracking_number"),
    (r"\b(iso 4217|currency)\b.*\bcode\b|\bcurrency\b|\bfiat\b", "currency_code"),
    (r"\b(alpha-?3|iso3)\b.*\bcountry\b|\bcountry\b.*\b(alpha-?3|iso3)\b", "country_code3"),
    (r"\bcountry code\b|\balpha-?2\b|\biso 3166\b", "country_code"),
    (r"\blanguage\b.*\bcode\b|\biso 639\b|\btarget language\b|\bsource language\b", "language_code"),
    (r"\bpostal code\b|\bpostcode\b|\bzip\b", "postal_code"),
    (r"\bphone number\b|\bmobile number\b", "phone"),
))


# A pair's second currency is another one: converting JPY to JPY is nobody's question.
_MAJOR_CURRENCIES = ("USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "CNY", "SEK", "INR", "MXN", "BRL")


# On a chain an ``address`` is a wallet's, unless its description says street or mail.
_CHAIN_CATEGORIES = frozenset({"blockchain", "cryptocurrency"})
_PLACE_WORDS = re.compile(r"\b(street|postal|mail|ip|city)\b", re.IGNORECASE)


def described_value(name: str, schema: dict[str, Any], gen: Generation, sent: dict[str, Any] | None = None,
                    category: str = "") -> Any | None:
    """A value for a free-text string parameter from its description, or None. ``sent``
    holds the arguments chosen so far; a currency differs from those already named."""
    if schema.get("type", "string") != "string" or "enum" in schema or "format" in schema or "const" in schema:
        return None
    text = str(schema.get("description") or "")
    value = _example(text, gen)
    if value is None and _names_wallet(name, text, category):
        value = str(draw_kind("wallet_address", gen))
    if value is None:
        value = _named_kind_value(text.lower(), gen, sent)
    if value is None or not _fits(value, schema):
        return None
    return value


def _names_wallet(name: str, text: str, category: str) -> bool:
    """An ``address`` on a chain is a wallet's, unless its description says street or mail."""
    return name.lower().endswith("address") and category.lower() in _CHAIN_CATEGORIES and not _PLACE_WORDS.search(text)


def _named_kind_value(low: str, gen: Generation, sent: dict[str, Any] | None) -> str | None:
    """A value of the first kind the (lowercased) description names; a currency differs from those sent."""
    kind = next((k for pattern, k in _DESCRIBED if pattern.search(low)), None)
    if kind is None:
        return None
    value = str(draw_kind(kind, gen))
    if kind == "currency_code" and sent and value in sent.values():
        value = gen.rng.choice([c for c in _MAJOR_CURRENCIES if c not in sent.values()])
    return value


def _example(text: str, gen: Generation) -> str | None:
    found = _EXAMPLES_RE.search(text)
    if found is None:
        return None
    options = [v for v in _QUOTED_RE.findall(found.group(1)) if v.strip() and not _PLACEHOLDER_RE.search(v)]
    return gen.rng.choice(options) if options else None


def _fits(value: str, schema: dict[str, Any]) -> bool:
    lo, hi = schema.get("minLength"), schema.get("maxLength")
    if isinstance(lo, int) and len(value) < lo or isinstance(hi, int) and len(value) > hi:
        return False
    pattern = schema.get("pattern")
    return not isinstance(pattern, str) or re.search(pattern, value) is not None
