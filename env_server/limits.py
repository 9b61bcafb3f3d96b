"""Limits every tool call's arguments obey before any schema check: no string longer than
``ServerSettings.max_arg_chars`` and no number JSON cannot carry (NaN, Infinity), at any
depth of the arguments.

Python's JSON parsers (and so the MCP SDK's, over HTTP and stdio) read ``NaN`` and
``Infinity``, and JSON Schema range checks let NaN through (every comparison with it is
false), so a NaN latitude would reach a simulator. A call that breaks a limit is answered
as an ``isError`` result naming the parameter, like a schema violation; hooks and the call
log see ``within_limits(args)``, a copy that JSON can carry and that stays small.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from state.call_log import truncation_marker

MAX_REPORTED = 5
_SHOWN_NAME_CHARS = 60


def limit_problems(args: Mapping[str, Any], max_chars: int) -> list[str]:
    """A sentence per value (or key) that breaks a limit, naming its parameter path."""
    found: list[str] = []
    for key, value in args.items():
        # Scalars inline: this runs on every call, and most arguments are a few scalars.
        kind = type(value)
        if (kind is str and len(value) <= max_chars or kind is int or kind is bool
                or kind is float and math.isfinite(value)) and len(key) <= max_chars:
            continue
        _check(value, _name(key, ""), max_chars, found)
        if len(key) > max_chars:
            found.append(f"a parameter name of {len(key):,} characters is longer than the limit of {max_chars:,}")
        if len(found) >= MAX_REPORTED:
            break
    return found[:MAX_REPORTED]


def within_limits(value: Any, max_chars: int) -> Any:
    """``value`` with each over-long string (or key) replaced by a truncation marker and each
    non-finite number by its name as a string ("NaN", "Infinity", "-Infinity")."""
    kind = type(value)
    if kind is str:
        return truncation_marker(value) if len(value) > max_chars else value
    if kind is float:
        return value if math.isfinite(value) else _float_name(value)
    if kind is list:
        return [within_limits(v, max_chars) for v in value]
    if kind is dict:
        return {(k if len(k) <= max_chars else f"{k[:_SHOWN_NAME_CHARS]}…"): within_limits(v, max_chars)
                for k, v in value.items()}
    return value


def _check(value: Any, path: str, max_chars: int, found: list[str]) -> None:
    kind = type(value)
    if kind is str:
        if len(value) > max_chars:
            found.append(f"parameter '{path}': a string of {len(value):,} characters is longer than "
                         f"the limit of {max_chars:,}")
    elif kind is float:
        if not math.isfinite(value):
            found.append(f"parameter '{path}': expected a finite number, got {_float_name(value)}")
    elif kind is list:
        for i, item in enumerate(value):
            _check(item, f"{path}[{i}]", max_chars, found)
    elif kind is dict:
        for key, item in value.items():
            if len(key) > max_chars:
                found.append(f"parameter '{path}': a key of {len(key):,} characters is longer than "
                             f"the limit of {max_chars:,}")
            _check(item, _name(key, path), max_chars, found)


def _name(key: str, parent: str) -> str:
    shown = key if len(key) <= _SHOWN_NAME_CHARS else f"{key[:_SHOWN_NAME_CHARS]}…"
    return f"{parent}.{shown}" if parent else shown


def _float_name(value: float) -> str:
    return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
