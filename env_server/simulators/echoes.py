"""Echoes: which of the caller's values an answer may repeat, and where.

An output field named like an argument repeats it when the value fits the field's schema
(``fits_schema``: type, enum, range, format, length); a long string repeats only in the
call's own record (``LONG_ECHO_CHARS``); a caller's own records are laid over generated
ones (``echo_record``). ``MISSING`` marks an argument the call did not send.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from env_server.simulators.values import snake

DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# Echoes accept a local time without an offset ("2026-03-20T09:00:00"), as calendars send it.
_DATETIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$")
# A string argument longer than this is echoed only into the call's own record, not into
# each listed item or nested record: a filter repeated in every search hit turned a 4 MB
# argument into a 40 MB answer. Short values (a city, a status) repeat as a real API's do.
LONG_ECHO_CHARS = 256


def short_values(args: Mapping[str, Any]) -> dict[str, Any]:
    """``args`` without long strings: the context rows are rendered in, once per row."""
    return {k: v for k, v in args.items() if not isinstance(v, str) or len(v) <= LONG_ECHO_CHARS}


MISSING: Any = object()


def echo_record(made: Any, sent: dict[str, Any], props: dict[str, Any]) -> Any:
    """A generated record with the caller's values laid over it, matched by snake_case name
    ("firstName" fills "first_name") where they fit the field."""
    if not isinstance(made, dict):
        return made
    by_snake = {snake(k): v for k, v in sent.items()}
    for key, sub in props.items():
        value = by_snake.get(snake(key), MISSING)
        if value is not MISSING and isinstance(sub, dict) and fits_schema(value, sub):
            made[key] = value
    return made


_TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def enum_member(value: str, enum: list[Any]) -> Any:
    """The member of ``enum`` a sent text means: itself, the same in another case, or one that
    starts with the other ("Democrat" asks for "Democratic"); MISSING when none does."""
    if value in enum:
        return value
    low = value.strip().lower()
    texts = [m for m in enum if isinstance(m, str)]
    same = next((m for m in texts if m.lower() == low), None)
    if same is None and len(low) >= 4:
        same = next((m for m in texts if len(m) >= 4 and (m.lower().startswith(low) or low.startswith(m.lower()))), None)
    return MISSING if same is None else same


def fits_schema(value: Any, schema: dict[str, Any]) -> bool:
    """Cheap check that a scalar satisfies a schema's type, enum, range and format."""
    typ = schema.get("type")
    if isinstance(typ, list):
        return any(fits_schema(value, {**schema, "type": t}) for t in typ)
    if typ is not None and not (typ in _TYPE_CHECKS and _TYPE_CHECKS[typ](value)):
        return False  # the wrong scalar type; arrays/objects are generated, not echoed
    if "enum" in schema and value not in schema["enum"]:
        return False
    if "const" in schema and value != schema["const"]:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _fits_range(value, schema)
    if isinstance(value, str):
        return _fits_string(value, schema)
    return True


def _fits_range(value: float, schema: dict[str, Any]) -> bool:
    return not ("minimum" in schema and value < schema["minimum"] or "maximum" in schema and value > schema["maximum"])


def _fits_string(value: str, schema: dict[str, Any]) -> bool:
    """Format (date, date-time, email, uri/url) and length."""
    fmt = schema.get("format")
    if fmt == "date" and not DATE_RE.match(value) or fmt == "date-time" and not _DATETIME_RE.match(value):
        return False
    if fmt in ("email", "uri", "url") and ("@" not in value if fmt == "email" else "://" not in value):
        return False
    return not (len(value) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", 1 << 30))
