"""Sums of public money at the magnitudes they have: a public tender is worth thousands to
millions of euros, a federal award as much, an agency's budget billions, and a charity's
income, gifts, spending and balance sheet the figures of an organisation, not of a purchase.

``public_money_kind(name, entity, hint)`` names a field's role once per schema node
(``plans``), before the generic ``amount`` (10 to 5,000) could draw it. Each record draws one
scale (log-uniform between its kind's bounds) and each of its figures is a share of it, so a
charity's contributions stay within its revenue, its liabilities under its assets, and an
agency outlays no more than it obligated.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_LOOSE_HINTS = frozenset({None, "amount", "price", "count", "score"})

# Record kinds: the words of their entities and the bounds of their scale (in the currency shown).
_SCALES: dict[str, tuple[frozenset[str], float, float]] = {
    "charity": (frozenset({"charity", "charities", "nonprofit", "nonprofits", "ngo", "foundation", "financials"}),
                6e4, 9e7),
    "agency": (frozenset({"agency", "department", "ministry"}), 2e9, 9e11),
    "tender": (frozenset({"tender", "tenders", "procurement", "notice", "purchaser", "supplier", "award", "awards",
                          "grant", "grants"}), 2e4, 3e7),
}
# A figure's role, its share of its record's scale (low, high), by the field's snake_case name.
_SHARES: tuple[tuple[re.Pattern[str], str, tuple[float, float]], ...] = tuple((re.compile(p), r, s) for p, r, s in (
    (r"(^|_)(total_)?(revenue|income|budgetary_resources)(_|$)", "revenue", (1.0, 1.0)),
    (r"(^|_)(total_)?(contributions|donations|gifts|grants_received)(_|$)", "contributions", (0.55, 0.95)),
    (r"(^|_)program(_service)?_expenses?(_|$)", "program_expenses", (0.62, 0.85)),
    (r"(^|_)(fundraising|management|administrative)_expenses?(_|$)", "overhead", (0.03, 0.12)),
    (r"(^|_)(total_)?expenses?(_|$)", "expenses", (0.8, 0.98)),
    (r"(^|_)(total_)?assets(_|$)", "assets", (0.8, 3.0)),
    (r"(^|_)(total_)?liabilities(_|$)", "liabilities", (0.05, 0.6)),
    (r"(^|_)(total_)?obligat(ed|ion|ions)(_|$)", "obligated", (0.75, 0.95)),
    (r"(^|_)(total_)?outlay(ed|s)?(_|$)", "outlayed", (0.55, 0.74)),
    (r"(^|_)contracts_value(_|$)", "contracts_value", (8.0, 40.0)),  # a supplier's whole record of contracts
    (r"(^|_)(value|amount|award_amount|awarded_value|estimated_value|contract_value|price)(_[a-z]{3})?$", "value",
     (1.0, 1.0)),
))
_SKIPPED = ("_count", "_id", "_year", "_rate", "_pct", "_percent")


@functools.lru_cache(maxsize=8192)
def public_money_kind(name: str, entity: str, hint: str | None) -> str | None:
    """``<scale>_<role>`` (``charity_assets``, ``tender_value``) for a sum of public money, else None."""
    if hint not in _LOOSE_HINTS or not name:
        return None
    words = set(snake(entity).split("_"))
    scale = next((kind for kind, (marks, _, _) in _SCALES.items() if words & marks), None)
    low = snake(name)
    if scale is None or low.endswith(_SKIPPED):
        return None
    role = next((r for pattern, r, _ in _SHARES if pattern.search(low)), None)
    return f"{scale}_{role}" if role is not None else None


def _drawer(scale: str, share: tuple[float, float]) -> Callable[[Generation], Any]:
    _, lo, hi = _SCALES[scale]

    def draw(gen: Generation) -> float:
        base: float = gen.scope.once(f"public_scale:{scale}", lambda: math.exp(
            gen.rng.uniform(math.log(lo), math.log(hi))))
        return round(base * gen.rng.uniform(*share), 2)

    return draw


def public_money_floor(kind: str) -> float:
    """Half the least a figure of ``kind`` is drawn at: the audit's floor for it."""
    return _FLOORS[kind]


PUBLIC_MONEY_KINDS: dict[str, Callable[[Generation], Any]] = {
    f"{scale}_{role}": _drawer(scale, share) for scale in _SCALES for _, role, share in _SHARES}
_FLOORS = {f"{scale}_{role}": lo * share[0] / 2 for scale, (_, lo, _) in _SCALES.items() for _, role, share in _SHARES}
