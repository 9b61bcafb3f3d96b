"""Rules for usage and quota records: what was used fits its limit, and what remains is the rest.

* ``UsageWithinLimit``: a limit field names what it limits (``daily_bytes_limit`` limits
  ``bytes``, ``requests_limit`` and ``max_requests`` limit ``requests``, ``api_calls_quota``
  limits ``api_calls_used``); the use beside it is at most the limit, and a remaining field
  beside both (``bytes_remaining``, ``remaining_requests``) is the limit less the use. A use
  drawn above its limit swaps with it (the larger number was the limit). The pairs are found
  by name in each record, so the rule reaches every usage record the catalog has.
* ``FeeBelowMinimum``: a withdrawal's minimum fee is below its minimum size (a fee larger
  than the least one may withdraw would leave nothing to receive); a drawn fee above a fifth
  of the size becomes a twentieth of it.

They have the shape of ``invariants`` rules (``binds`` says whether a schema's field names can
bind the rule, ``enforce`` repairs a generated record, ``violation`` reports a broken one) and
join ``invariants.RULES``, so the generator, the audit and the property tests share them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from env_server.simulators.naming import snake

# ``daily_bytes_limit`` -> ``bytes``; ``max_requests`` -> ``requests``; ``api_calls_quota`` -> ``api_calls``.
_LIMIT = re.compile(r"^(?:(?:daily|monthly|hourly|weekly|plan|total|max)_)*(?P<base>[a-z][a-z0-9_]*?)_(?:limit|quota|allowance)$"
                    r"|^max_(?P<plain>[a-z][a-z0-9_]*?)$")
_PERIODS = ("", "daily_", "monthly_", "hourly_", "weekly_")
_USED = ("{b}", "{b}_used", "used_{b}", "{b}_count", "{b}_consumed", "{b}_today", "{b}_this_month")
_REMAINING = ("{b}_remaining", "remaining_{b}", "{b}_left")
# A limit's own base that is no use (``max_temp`` limits nothing, ``rate_limit`` is a rate).
_NOT_USES = frozenset({"temp", "temperature", "price", "speed", "wind_spd", "wind", "rate", "results", "size",
                       "page", "per_page", "items", "length", "zoom", "ticket", "value", "age", "level", "score"})


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _base(name: str) -> str | None:
    found = _LIMIT.match(snake(name))
    if found is None:
        return None
    base = found["base"] or found["plain"]
    return None if base in _NOT_USES else base


def _triples(names: Iterable[str]) -> list[tuple[str, str, str | None]]:
    """(limit, use, remaining or None) for each limit field whose use the record also has."""
    by_snake = {snake(n): n for n in names}
    found = []
    for name in by_snake.values():
        base = _base(name)
        if base is None:
            continue
        bases = [p + base for p in _PERIODS]
        use = next((by_snake[f.format(b=b)] for f in _USED for b in bases if f.format(b=b) in by_snake
                    and by_snake[f.format(b=b)] != name), None)
        if use is None:
            continue
        rest = next((by_snake[f.format(b=b)] for f in _REMAINING for b in bases if f.format(b=b) in by_snake), None)
        found.append((name, use, rest))
    return found


@dataclass(frozen=True)
class UsageWithinLimit:
    name: str = "usage within its limit, the rest remaining"

    def binds(self, names: Iterable[str]) -> bool:
        return bool(_triples(names))

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        for limit, use, rest in _triples(record):
            cap, used = _number(record[limit]), _number(record[use])
            if cap is None or used is None:
                continue
            if used > cap:
                record[limit], record[use] = record[use], record[limit]
                cap, used = used, cap
            if rest is not None and _number(record[rest]) is not None:
                left = cap - used
                record[rest] = int(left) if isinstance(record[rest], int) else round(left, 2)

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        for limit, use, rest in _triples(record):
            cap, used = _number(record[limit]), _number(record[use])
            if cap is None or used is None:
                continue
            if used > cap:
                return f"{self.name}: {use}={record[use]} is above {limit}={record[limit]}"
            left = _number(record[rest]) if rest is not None else None
            if rest is not None and left is not None and abs(left - (cap - used)) > 0.011:
                return f"{self.name}: {rest}={record[rest]} but {limit} - {use} is {round(cap - used, 2)}"
        return None


_MIN_SIZE = ("withdrawMinSize", "withdraw_min_size", "min_withdraw_amount", "minWithdrawAmount", "withdrawal_min",
             "min_withdrawal", "minimum_withdrawal", "withdrawMin")
_MIN_FEE = ("withdrawMinFee", "withdraw_min_fee", "withdrawFee", "withdraw_fee", "withdrawal_fee", "min_fee")
# A fee drawn above this share of the minimum size becomes a twentieth of it (fees are a few percent).
_FEE_CAP, _FEE_SHARE = 0.2, 0.05


@dataclass(frozen=True)
class FeeBelowMinimum:
    name: str = "a withdrawal's fee below its minimum size"
    field: tuple[str, ...] = _MIN_FEE

    def _pair(self, record: Mapping[str, Any]) -> tuple[str, str] | None:
        size = next((k for k in _MIN_SIZE if k in record and _number(record[k]) is not None), None)
        fee = next((k for k in _MIN_FEE if k in record and _number(record[k]) is not None), None)
        return (size, fee) if size is not None and fee is not None else None

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        pair = self._pair(record)
        if pair is None or record[pair[1]] <= record[pair[0]] * _FEE_CAP or record[pair[0]] <= 0:
            return
        size, fee = pair
        share = record[size] * _FEE_SHARE
        record[fee] = int(share) if isinstance(record[fee], int) else round(share, 2 if share >= 1 else 8)

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        pair = self._pair(record)
        if pair is not None and record[pair[0]] > 0 and record[pair[1]] >= record[pair[0]]:
            return f"{self.name}: {pair[1]}={record[pair[1]]} is not below {pair[0]}={record[pair[0]]}"
        return None


USAGE_RULES: tuple[Any, ...] = (UsageWithinLimit(), FeeBelowMinimum())
