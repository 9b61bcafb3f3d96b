"""The audit's checks of sea states: a series of hours walks, and its heights add up.

``sea_hits(result)`` reports, in any list of records that carry a wave height:

* a wave height that jumps from one item to the next by more than a third and half a metre
  (15.9 m, then 2.4 m, then 15.1 m: no sea does that in an hour);
* a significant wave height below the record's own swell height (the total of swell and wind
  sea is at least either of them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from env_server.simulators.sea_state import field_role
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]


def sea_hits(result: Any) -> list[Hit]:
    """Findings of this module's checks in ``result``."""
    found: list[Hit] = []
    for path, record in walk_records(result):
        for key, items in record.items():
            if isinstance(items, list) and len(items) > 1 and all(isinstance(i, dict) for i in items):
                found += jump_hits(f"{path}.{key}", items)
        found += sum_hits(path, record)
    return found


def _heights(record: Mapping[str, Any], role: str) -> list[tuple[str, float]]:
    return [(k, float(v)) for k, v in record.items()
            if field_role(k) == role and isinstance(v, (int, float)) and not isinstance(v, bool)]


def jump_hits(path: str, items: list[dict[str, Any]]) -> list[Hit]:
    """Consecutive items' wave heights stay within a third and half a metre of each other."""
    found: list[Hit] = []
    for i in range(1, len(items)):
        before, now = dict(_heights(items[i - 1], "wave_m")), _heights(items[i], "wave_m")
        for key, height in now:
            last = before.get(key)
            if last is not None and abs(height - last) > 0.5 + max(height, last) / 3:
                found.append((f"{path}[{i}].{key}", f"wave height jumps from {last} to {height} m in one step"))
    return found


def sum_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    """A significant wave height is at least the record's swell height."""
    waves, swells = _heights(record, "wave_m"), _heights(record, "swell_m")
    if not waves or not swells:
        return []
    (wkey, wave), (skey, swell) = waves[0], swells[0]
    if wave + 0.01 >= swell:
        return []
    return [(f"{path}.{wkey}", f"significant wave height {wave} m below the swell's {swell} m ({skey})")]
