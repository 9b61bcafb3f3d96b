"""The audit's check of sums of public money (``simulators/public_money``).

``public_money_hits(spec, result)`` reports a tender's, an award's, an agency's or a charity's
figure (its value, revenue, contributions, assets …) at the magnitude of a shop purchase: below
a twentieth of the least its kind of record holds (a tender worth €106, a charity with $228 of
revenue). The field is found as the value engine names it, so the check covers every provider
whose records have such a field, not one tool.
"""

from __future__ import annotations

from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators.public_money import public_money_floor, public_money_kind
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]


def public_money_hits(spec: ToolSpec, result: Any) -> list[Hit]:
    entity = spec.profile.entity or ""
    hints = spec.profile.hints
    found: list[Hit] = []
    for path, record in walk_records(result):
        for key, value in record.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                continue
            kind = public_money_kind(key, entity, hints.get(key))
            if kind is not None and value < (floor := public_money_floor(kind)):
                found.append((f"{path}.{key}", f"{key}={value:g} is no sum a {entity} holds (at least {floor:g})"))
    return found
