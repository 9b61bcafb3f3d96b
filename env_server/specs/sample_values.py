"""Believable sample values for one parameter, read from what its schema says about it.

A parameter's own description often shows a real value ("a stop area id, e.g.
'stop_area:OIF:SA:8739305'"); a sampled argument uses it when it fits the schema. Failing
that, the description or the name says what sort of value it is (a phone number in E.164,
a VIN, an IATA code, a language code), and the value is drawn as that kind; otherwise the
caller fills the parameter from its schema alone.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from typing import Any

from jsonschema import Draft202012Validator

from env_server.simulators.generate import Generation
from env_server.simulators.naming import snake
from env_server.simulators.plans import fits_schema
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
