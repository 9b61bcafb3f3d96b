"""Argument validation against a tool's input schema, with messages an agent can act on.

One ``ArgumentValidator`` per tool is built when the catalog loads. ``problems(args)``
returns human-readable sentences that name the parameter, what was expected (type, enum,
range, format) and what was received, e.g.::

    parameter 'unit': expected one of ['celsius', 'fahrenheit'], got 'kelvin'
    missing required parameter 'city' (string: The name of the city.)
    unknown parameter 'citi' (did you mean 'city'?)
"""

from __future__ import annotations

import datetime
import difflib
import json
import re
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

# Formats a real API would reject when malformed. jsonschema's own date-time check needs
# an extra package, so the three we enforce are registered here.
_FORMATS = FormatChecker(formats=())
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$")


@_FORMATS.checks("date")
def _is_date(value: object) -> bool:
    if not isinstance(value, str):
        return True
    if not _DATE.match(value):
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


@_FORMATS.checks("date-time")
def _is_datetime(value: object) -> bool:
    return not isinstance(value, str) or bool(_DATETIME.match(value)) and _is_date(value[:10])


@_FORMATS.checks("email")
def _is_email(value: object) -> bool:
    return not isinstance(value, str) or ("@" in value and "." in value.rsplit("@", 1)[-1])


_RS_FORMATS = {"date": _is_date, "date-time": _is_datetime, "email": _is_email}

MAX_REPORTED = 5


def _fast_validator(schema: dict[str, Any]) -> Any:
    """A Rust validator for the common case (valid arguments), or None if it can't compile.

    It only ever answers "valid"; any other answer goes to the Python validator, which is
    authoritative and words the messages. Its format checks are ours; the formats we don't
    enforce it checks strictly, which at worst sends a valid call down the slow path.
    """
    try:
        return jsonschema_rs.Draft202012Validator(schema, formats=_RS_FORMATS, validate_formats=True)
    except (ValueError, jsonschema_rs.ReferencingError):
        return None


# JSON types a flat schema's property may have, as Python checks (bool is not a number).
_FLAT_TYPES: dict[str, tuple[type, ...]] = {"string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,)}
_ANNOTATIONS = frozenset({"description", "title", "examples", "default", "$schema", "$comment"})


def _flat_checks(schema: dict[str, Any]) -> tuple[dict[str, tuple[type, ...]], tuple[str, ...]] | None:
    """For a flat schema (an object of typed scalars, no other constraint): the Python type
    of each property and the required names. Most imported tools look like that (784 of
    WildToolBench's 1,248), and checking them in Python keeps a call out of the Rust
    validator, whose code a busy server has evicted from the caches by the next call."""
    if set(schema) - _ANNOTATIONS - {"type", "properties", "required", "additionalProperties"}:
        return None
    props, required = schema.get("properties"), schema.get("required", [])
    if schema.get("type") != "object" or schema.get("additionalProperties", True) is not True:
        return None
    if not isinstance(props, dict) or not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        return None
    checks: dict[str, tuple[type, ...]] = {}
    for name, sub in props.items():
        kind = sub.get("type") if isinstance(sub, dict) else None
        if not isinstance(kind, str) or kind not in _FLAT_TYPES or set(sub) - _ANNOTATIONS - {"type"}:
            return None
        checks[name] = _FLAT_TYPES[kind]
    return checks, tuple(required)


class ArgumentValidator:
    """A precompiled validator for one tool's arguments."""

    __slots__ = ("tool", "schema", "_validator", "_fast", "_flat", "_known", "_strict")

    def __init__(self, tool: str, schema: dict[str, Any], *, strict_params: bool = True) -> None:
        self.tool = tool
        self.schema = schema
        self._validator = Draft202012Validator(schema, format_checker=_FORMATS)
        self._fast = _fast_validator(schema)
        self._flat = _flat_checks(schema)
        props = schema.get("properties")
        self._known: tuple[str, ...] = tuple(props) if isinstance(props, dict) else ()
        # A schema that lists no properties accepts anything, like a free-form API.
        self._strict = strict_params and bool(self._known)

    def problems(self, args: dict[str, Any]) -> list[str]:
        """Every way ``args`` breaks the schema, most useful first; empty when valid."""
        found: list[str] = []
        if self._strict:
            for key in sorted(args):
                if key not in self._known:
                    close = difflib.get_close_matches(key, self._known, n=1, cutoff=0.6)
                    hint = f" (did you mean '{close[0]}'?)" if close else f" (known: {', '.join(self._known)})"
                    found.append(f"unknown parameter '{_cut(key)}'{hint}")
        if not found and self._flat is not None and _passes_flat(args, *self._flat):
            return found
        if not found and self._fast is not None:
            try:
                if self._fast.is_valid(args):
                    return found
            except ValueError:  # a value JSON can't carry; the Python validator will say which
                pass
        errors = sorted(self._validator.iter_errors(args), key=lambda e: (list(map(str, e.absolute_path)), e.validator))
        found += [_describe(e, self.schema) for e in errors]
        return found[:MAX_REPORTED]


def _passes_flat(args: dict[str, Any], checks: dict[str, tuple[type, ...]], required: tuple[str, ...]) -> bool:
    """True only if ``args`` surely satisfies a flat schema; anything else (a missing name, a
    wrong type, 1.0 for an integer, which JSON Schema accepts) goes to the validators."""
    for name in required:
        if name not in args:
            return False
    for name, value in args.items():
        kinds = checks.get(name)
        if kinds is not None and (not isinstance(value, kinds) or (value is True or value is False) and bool not in kinds):
            return False
    return True


def _param_path(error: ValidationError) -> str:
    parts: list[str] = []
    for p in error.absolute_path:
        parts.append(f"[{p}]" if isinstance(p, int) else (f".{p}" if parts else str(p)))
    return "".join(parts)


def _cut(name: str) -> str:
    """A parameter name as messages show it: an agent's 60 KB key is not repeated back."""
    return name if len(name) <= 80 else name[:80] + "…"


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    kind = _json_type(value)
    # A string or null speaks for itself ("x", null); other values get their JSON type.
    return text[:80] if kind in ("string", "null") else f"{kind} {text[:80]}"


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


def _describe(error: ValidationError, root: dict[str, Any]) -> str:
    where = _param_path(error)
    label = f"parameter '{where}'" if where else "arguments"
    v, schema = error.validator, error.schema if isinstance(error.schema, dict) else {}
    if v == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        sub = (schema.get("properties") or {}).get(missing, {})
        typ = sub.get("type", "any")
        detail = " or ".join(map(str, typ)) if isinstance(typ, list) else str(typ)  # ["integer", "string"]
        if sub.get("description"):
            detail += f": {sub['description']}"
        prefix = f"{where}." if where else ""
        return f"missing required parameter '{prefix}{missing}' ({detail})"
    if v == "type":
        return f"{label}: expected {error.validator_value}, got {_show(error.instance)}"
    if v == "enum":
        return f"{label}: expected one of {error.validator_value}, got {_show(error.instance)}"
    if v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return f"{label}: {v} is {error.validator_value}, got {_show(error.instance)}"
    if v == "format":
        return f"{label}: expected {error.validator_value} format, got {_show(error.instance)}"
    if v == "additionalProperties":
        return f"{label}: {error.message}"
    return f"{label}: {error.message}"
