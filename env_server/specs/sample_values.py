"""Believable sample values for one parameter, read from what its schema says about it.

A parameter's own description often shows a real value ("a stop area id, e.g.
'stop_area:OIF:SA:8739305'"); a sampled argument uses it when it fits the schema. Failing
that, the description or the name says what sort of value it is (a phone number in E.164,
a VIN, an IATA code, a language code), and the value is drawn as that kind
(``sample_value``). Last, for a free-text string, ``described_value`` picks one of the
quoted examples a description lists ("Courier slug, e.g. 'usps', 'dhl'") or draws the kind
it names ("Three-letter ISO code of the currency", "0x-prefixed Ethereum address");
otherwise the caller fills the parameter from its schema alone.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from typing import Any

from jsonschema import Draft202012Validator

from env_server.simulators.echoes import fits_schema
from env_server.simulators.generate import Generation
from env_server.simulators.naming import snake
from env_server.simulators.values import draw_kind

# "e.g. 'x'", "such as \"x\"", "like 'x'", "for example `x`", "e.g. 2020", "e.g. ['en']".
_QUOTED = re.compile(r"""(?:e\.g\.|eg\.|for example|for instance|such as|like|i\.e\.)[:,]?\s*"""
                     r"""(\[[^\]]{1,120}\]|'[^']{1,120}'|"[^"]{1,120}"|`[^`]{1,120}`|-?\d+(?:\.\d+)?\b)""")

# What a parameter is, by what its description (or name) says: first match wins. The
# patterns read "<name>: <description>" in lower case.
_SAID_KINDS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), kind)
    for p, kind in (
        (r"e\.164|phone number|msisdn|mobile number|^(to|from|number|phone|phone_number|msisdn|recipient):.*\bnumber\b",
         "phone"),
        (r"\bsid\b", "message_sid"),
        (r"^vin:|\bvin\b|vehicle identification number", "sample_vin"),
        (r"\bicao24\b|transponder", "icao24"),
        (r"\bfaa\b.*\b(identifier|ident|code)\b", "faa_airport_icao"),
        (r"\bicao\b.*airport|airport.*\bicao\b|\bicao\b.*\bidentifier\b", "airport_icao"),
        (r"\biata\b.*airport|airport.*\biata\b|airport code", "airport_code"),
        (r"\biso 639|language code|target language|source language|^(source|target|lang|language):", "language_code"),
        (r"\biso 3166|country code|two-letter country", "country_code"),
        (r"\biso 4217|currency code", "currency_code"),
        (r"e-?mail address|^(email|to_email|from_email):", "email"),
    )
)


def described_example(name: str, schema: dict[str, Any]) -> Any:
    """The first example the description gives that fits the schema, or None."""
    for text in _examples(str(schema.get("description") or "")):
        if "..." in text or "…" in text:  # an elided example ("at://did:plc:.../...") is no value
            continue
        value = _as_value(text, schema)
        if value is not None and _fits(schema, value):
            return value
    return None


def described_kind(name: str, schema: dict[str, Any]) -> str | None:
    """The value kind a string parameter's name and description call for, or None."""
    if not _is_string(schema) or "enum" in schema or schema.get("format") in ("date", "date-time", "uri"):
        return None
    said = f"{snake(name)}: {str(schema.get('description') or '').lower()}"
    return next((kind for pattern, kind in _SAID_KINDS if pattern.search(said)), None)


def sample_value(name: str, schema: dict[str, Any], gen: Generation) -> Any:
    """A believable value for one parameter, or None to fill it from its schema alone."""
    example = described_example(name, schema)
    if example is not None:
        return example
    kind = described_kind(name, schema)
    if kind is None:
        return None
    value = draw_kind(kind, gen)
    if _is_array(schema):
        value = [value]
    return value if _fits(schema, value) else None


# -- free text: one of the listed examples, or the kind a description names ----------------

# "e.g. 'usps', 'dhl' or 'royal-mail'", "such as 'fireball'", "like 'taunt'"
_QUOTED_OPTIONS_RE = re.compile(
    r"(?:e\.g\.|for example|such as|like|example:?)\s+((?:'[^']{1,60}'(?:\s*(?:,|or|and)\s*)?)+)", re.IGNORECASE)
_SINGLE_QUOTED_RE = re.compile(r"'([^']{1,60})'")
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
    value = _quoted_option(text, gen)
    if value is None and _names_wallet(name, text, category):
        value = str(draw_kind("wallet_address", gen))
    if value is None:
        value = _named_kind_value(text.lower(), gen, sent)
    if value is None or not _fits(schema, value):
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


def _quoted_option(text: str, gen: Generation) -> str | None:
    found = _QUOTED_OPTIONS_RE.search(text)
    if found is None:
        return None
    options = [v for v in _SINGLE_QUOTED_RE.findall(found.group(1)) if v.strip() and not _PLACEHOLDER_RE.search(v)]
    return gen.rng.choice(options) if options else None


def _examples(description: str) -> list[str]:
    return [m.group(1) for m in _QUOTED.finditer(description)] if description else []


def _as_value(text: str, schema: dict[str, Any]) -> Any:
    """The example as the parameter's type: a string, a number or a list of strings."""
    if text.startswith("["):
        try:
            parsed = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            return None
        return parsed if isinstance(parsed, list) and _is_array(schema) else None
    unquoted = text.strip("'\"`")
    typ = schema.get("type")
    if typ == "integer":
        return int(unquoted) if re.fullmatch(r"-?\d+", unquoted) else None
    if typ == "number":
        return float(unquoted) if re.fullmatch(r"-?\d+(\.\d+)?", unquoted) else None
    if _is_array(schema):
        return [unquoted] if text[0] in "'\"`" else None
    return unquoted if _is_string(schema) and text[0] in "'\"`" else None


def _is_string(schema: dict[str, Any]) -> bool:
    typ = schema.get("type", "string")
    return typ == "string" or isinstance(typ, list) and "string" in typ


def _is_array(schema: dict[str, Any]) -> bool:
    items = schema.get("items")
    return schema.get("type") == "array" and isinstance(items, dict) and items.get("type", "string") == "string"


def _fits(schema: dict[str, Any], value: Any) -> bool:
    """Valid for the schema, formats included (``fits_schema`` checks dates as the server does)."""
    if not isinstance(value, list) and not fits_schema(value, schema):
        return False
    return _validator(json.dumps(schema, sort_keys=True)).is_valid(value)


@functools.lru_cache(maxsize=1024)
def _validator(schema_json: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(schema_json), format_checker=Draft202012Validator.FORMAT_CHECKER)
