"""Audit checks for fields whose siblings fix their values (see ``catalog.shape_hints``):

* a candle's ``low`` is at most its ``open`` and ``close``, which are at most its ``high``;
* a two-sided quote's ``bid`` is below its ``ask``, and near it (within 5 %);
* a page number is at most the page count;
* a position in seconds of arc (``latitude_sec`` ``"171382.3200N"``) is the one its
  degrees give (``latitude`` 47.6062), hemisphere included.

Findings are tagged ``numeric``: numbers that do not add up.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from env_server.simulators.naming import snake
from env_server.specs.audit_checks import read_number

Hit = tuple[str, str]  # (path, detail), as in audit_checks

_SECONDS = re.compile(r"^(\d+(?:\.\d+)?)([NSEW])$")
_PAGE_PAIRS = (("current_page", "total_pages"), ("page", "total_pages"), ("page", "pages"), ("page", "page_count"))


def shape_hits(result: Any) -> list[Hit]:
    """Every finding in every record of an answer."""
    return list(_walk(result, "$"))


def _walk(value: Any, path: str) -> Iterator[Hit]:
    if isinstance(value, list):
        for i, item in enumerate(value[:20]):
            yield from _walk(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        yield from _record_hits(value, path)
        for key, sub in value.items():
            if isinstance(sub, (dict, list)):
                yield from _walk(sub, f"{path}.{key}")


def _record_hits(record: dict[str, Any], path: str) -> Iterator[Hit]:
    values: dict[str, float] = {}
    for key, raw in record.items():
        number = read_number(raw)
        if number is not None:
            values[snake(key)] = number
    if {"open", "high", "low", "close"} <= values.keys():
        o, h, lo, c = (values[k] for k in ("open", "high", "low", "close"))
        if not (lo <= min(o, c) and max(o, c) <= h):
            yield path, f"a candle out of order: open {o}, high {h}, low {lo}, close {c}"
    if {"bid", "ask"} <= values.keys():
        bid, ask = values["bid"], values["ask"]
        if not (0 < bid < ask <= bid * 1.05):
            yield path, f"bid {bid} and ask {ask} are not a quote's two sides"
    for page, pages in _PAGE_PAIRS:
        if {page, pages} <= values.keys() and values[page] > max(values[pages], 1):
            yield path, f"page {values[page]} of {values[pages]}"
    yield from _arc_seconds(record, path)


def _arc_seconds(record: dict[str, Any], path: str) -> Iterator[Hit]:
    names = {snake(k): k for k in record}
    for axis, plus, minus in (("latitude", "N", "S"), ("longitude", "E", "W")):
        degrees = read_number(record.get(names.get(axis, ""), None))
        text = record.get(names.get(f"{axis}_sec", ""), None)
        found = _SECONDS.match(text) if isinstance(text, str) else None
        if degrees is None or found is None:
            continue
        signed = float(found.group(1)) / 3600 * (1 if found.group(2) == plus else -1 if found.group(2) == minus else 0)
        if abs(signed - degrees) > 0.01:
            yield f"{path}.{names[axis + '_sec']}", f"{text!r} is {signed:.4f}°, not the {axis} {degrees}"


