"""What an imported output schema says about its fields beyond their names.

Specs that ship their own output schemas (ToolAlpaca's OpenAPI documents) name fields the
value engine cannot read alone: ``open`` means a price only beside ``high``, ``low`` and
``close``; ``type`` is a database engine only beside a connection string; ``route`` and
``hours1`` are a flight route and its active hours only beside an ARTCC. Two passes, at
catalog load, once per spec:

* ``shape_hints``: profile hints (field -> value kind) from a record's sibling fields;
* ``described_codes``: a string field whose description lists its codes
  ("PU -> Public, PR -> Private", "Type of facility (AIRPORT/HELIPORT)") takes them as its
  ``enum``, so a drawn value is one of them.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

from env_server.catalog.words import snake

_OHLC = {"open": "price_open", "high": "price_high", "low": "price_low", "close": "price_close"}
_BID_ASK = {"bid": "price_bid", "ask": "price_ask"}
_DSN_FIELDS = frozenset({"connection_string", "connection_uri", "connection_url", "dsn", "database_url",
                         "sqlalchemy_uri"})
_ENGINE_FIELDS = frozenset({"type", "engine", "database_type", "source_type", "backend"})
_PIXELS = {"width": "image_width", "height": "image_height"}
# Beside an ARTCC (FAA data), these common names are a preferred route's fields.
_ROUTE_FIELDS = {"route": "flight_route", "route_string": "flight_route", "area": "route_area",
                 "altitude": "route_altitude", "aircraft": "aircraft_class", "flow": "route_flow"}
_HOURS = re.compile(r"^hours\d?$")

# "PU -> Public", "Y -> Yes", "O = Open": a code, an arrow or equals sign, its meaning.
_CODE_PAIR = re.compile(r"\b([A-Z][A-Z0-9]{0,4})\s*(?:->|=>|=)\s*[A-Za-z]")
# "(AIRPORT/HELIPORT)", "(GET/POST/PUT)": upper-case words in parentheses, slash-separated.
_SLASHED = re.compile(r"\(([A-Z][A-Z ]{1,20}(?:/[A-Z][A-Z ]{1,20})+)\)")


def shape_hints(output_schema: dict[str, Any]) -> dict[str, str]:
    """Hints for the fields of every record in an output schema, read from their siblings."""
    hints: dict[str, str] = {}
    for props in _records(output_schema):
        hints.update({k: v for k, v in _record_hints(props).items() if k not in hints})
    return hints


def _record_hints(props: dict[str, Any]) -> dict[str, str]:
    names = {snake(k): k for k in props}
    strings = {s for s, k in names.items() if _typ(props[k]) == "string"}
    numbers = {s for s, k in names.items() if _typ(props[k]) in ("integer", "number", "string")}
    out: dict[str, str] = {}
    # Groups of siblings that name each other: a candle, a quote, an image size.
    for group, within in ((_OHLC, numbers), (_BID_ASK, set(names)), (_PIXELS, numbers)):
        if set(group) <= within:
            out.update({names[f]: kind for f, kind in group.items()})
    if _DSN_FIELDS & set(names):
        out.update({names[f]: "datasource_type" for f in _ENGINE_FIELDS & strings})
    if any(s.endswith("artcc") for s in names):
        out.update(_route_hints(names, strings))
    if "state_full" in names and "state" in strings:  # the full name beside it: "state" is the code
        out[names["state"]] = "state_code"
    if "verse" in strings:
        out[names["verse"]] = "verse_text"
    return out


def _route_hints(names: dict[str, str], strings: set[str]) -> dict[str, str]:
    """An FAA preferred route's fields, beside the ARTCC that publishes it."""
    out = {names[f]: kind for f, kind in _ROUTE_FIELDS.items() if f in strings}
    out.update({k: "route_hours" for s, k in names.items() if _HOURS.match(s) and s in strings})
    return out


def described_codes(schema: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The schema with each string field whose description lists its codes given those codes
    as its ``enum``; and the paths it changed."""
    out = copy.deepcopy(schema)
    changed: list[str] = []
    for path, props in _records_with_paths(out, "output"):
        for key, sub in props.items():
            if not isinstance(sub, dict) or _typ(sub) != "string" or "enum" in sub or "format" in sub:
                continue
            codes = listed_codes(str(sub.get("description") or ""))
            if codes:
                sub["enum"] = codes
                changed.append(f"{path}.{key}")
    return out, changed


def listed_codes(description: str) -> list[str]:
    """The codes a description lists (two or more), in its order, or none."""
    pairs = list(dict.fromkeys(_CODE_PAIR.findall(description)))
    if len(pairs) >= 2:
        return pairs
    slashed = _SLASHED.search(description)
    return [w.strip() for w in slashed.group(1).split("/")] if slashed else []


def _typ(schema: Any) -> str:
    typ = schema.get("type", "string") if isinstance(schema, dict) else ""
    return next((t for t in typ if t != "null"), "") if isinstance(typ, list) else str(typ)


def _records(schema: Any) -> Iterator[dict[str, Any]]:
    for _, props in _records_with_paths(schema, ""):
        yield props


def _records_with_paths(schema: Any, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    if not isinstance(schema, dict):
        return
    props = schema.get("properties")
    if isinstance(props, dict):
        yield path, props
        for key, sub in props.items():
            yield from _records_with_paths(sub, f"{path}.{key}")
    items = schema.get("items")
    if isinstance(items, dict):
        yield from _records_with_paths(items, f"{path}[]")
