"""Ids that every reader accepts: a search's ids are shaped by its family's read tools.

A list of excuses numbers them 1-200 when the excuse reader takes ``id <= 200``; a list of
malware samples gives 64-hex-digit hashes when the sample reader takes a SHA-256; a list of
SWAPI people whose only key is a URL ends each URL in the number the person reader takes.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from env_server.simulators.echoes import fits_schema

_DIGITS = re.compile(r"\\d|\[0-9\]")
_HEX = re.compile(r"a-f|A-F")


def _number(value: Any) -> int:
    """A stable non-negative number from any id value."""
    text = str(value)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def _fit_integer(value: Any, schema: dict[str, Any]) -> int:
    lo = int(schema.get("minimum", schema.get("exclusiveMinimum", 0) + (1 if "exclusiveMinimum" in schema else 0)))
    lo = max(lo, 1)
    hi = int(schema.get("maximum", lo + 999_999))
    if isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi:
        return value
    return lo + _number(value) % (hi - lo + 1)


def _fit_string(value: Any, schema: dict[str, Any]) -> str:
    lo, hi = int(schema.get("minLength", 1)), int(schema.get("maxLength", 0)) or None
    pattern = str(schema.get("pattern", ""))
    length = max(lo, min(hi or 10, max(lo, 10)))
    seed = _number(value)
    if pattern and _DIGITS.search(pattern) and not _HEX.search(pattern) or schema.get("type") == "integer":
        digits = str(seed).rjust(length, "0")
        return digits[-length:]
    text = hashlib.sha256(str(value).encode()).hexdigest()
    while len(text) < length:
        text += hashlib.sha256(text.encode()).hexdigest()
    return text[:length]


def matches_pattern(value: Any, reader: dict[str, Any] | None) -> bool:
    """Whether a drawn id already has the shape a reader's ``pattern`` requires (an AT URI)."""
    pattern = reader.get("pattern") if reader is not None else None
    return isinstance(pattern, str) and isinstance(value, str) and re.search(pattern, value) is not None


def conform_id(value: Any, reader: dict[str, Any], field: dict[str, Any], item: dict[str, Any], name: str) -> Any:
    """``item[name]`` rewritten so that the reader's id parameter accepts it; returns the
    key the row is stored under (the value the reader will be called with)."""
    wanted = reader.get("type")
    own = field.get("type")
    if wanted == "integer":
        key: Any = _fit_integer(value, reader)
        if own == "integer":
            item[name] = key
        elif isinstance(value, str) and "://" in value:
            item[name] = f"{value.rstrip('/')}/{key}/"  # REST resource URLs end in the id
        else:
            item[name] = str(key)
        return key
    if wanted == "string":
        # The id as text first ("42", or zero-padded to the reader's length: a CIK), else a
        # new id of the reader's shape.
        text = str(value).zfill(int(reader.get("minLength", 0))) if isinstance(value, int) else str(value)
        key = text if fits_schema(text, reader) else _fit_string(value, reader)
        if own in ("string", None):
            item[name] = key
        return key
    return value
