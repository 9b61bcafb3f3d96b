"""The audit's numeric-coherence detector: numbers a person who knows the API would not believe.

Over every record of a result it reports:

* pagination that does not add up (``paging.page_violations``): a total below the rows
  shown, pages that are not ``ceil(total / per_page)``, a current page other than the one
  asked for, more rows than the call's limit;
* a minimum above its maximum or an average outside them (``numeric.stat_violations``);
* a percentage or share outside 0..100 (change percentages may be negative, not the rest),
  and dominance shares that add up to more than 100;
* a negative count;
* a rate table that does not answer the question: its base is not the base asked for,
  it quotes the base against itself, or it leaves out a target the call named.
"""

from __future__ import annotations

import re
from typing import Any

from env_server.simulators.fx import is_fx_entity
from env_server.simulators.numeric import stat_violations
from env_server.simulators.paging import page_violations
from env_server.simulators.records import BASE_ARGS, CURRENCY_ARGS

Hit = tuple[str, str]

_PERCENT = re.compile(r"(percent|pct|percentage|dominance|humidity|probability|share)$")
_SIGNED = re.compile(r"change|delta|diff|growth|return|roi|yield|performance|variation")
_COUNT = re.compile(r"(^|_)(count|total|views|likes|followers|num_[a-z]+|[a-z]+_count)$")
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_CODE = re.compile(r"^[A-Z]{3}$")


def _snake(name: str) -> str:
    return _CAMEL.sub("_", name).lower()


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _record_hits(record: dict[str, Any], args: dict[str, Any], path: str) -> list[Hit]:
    hits = [(path, text) for text in page_violations(record, args) + stat_violations(record)]
    dominance = 0.0
    for key, value in record.items():
        number, low = _number(value), _snake(key)
        if number is None:
            continue
        if _PERCENT.search(low) and not _SIGNED.search(low) and not 0 <= number <= 100:
            hits.append((f"{path}.{key}", f"{key}={value} is a percentage outside 0..100"))
        if "dominance" in low:
            dominance += number
        if _COUNT.search(low) and number < 0:
            hits.append((f"{path}.{key}", f"{key}={value} is a negative count"))
    if dominance > 100.5:
        hits.append((path, f"dominance shares add up to {dominance:.1f}%"))
    return hits


def _asked(args: dict[str, Any], names: tuple[str, ...]) -> list[str]:
    found: list[str] = []
    for name in names:
        value = args.get(name)
        texts = value if isinstance(value, list) else str(value).split(",") if isinstance(value, str) else []
        found += [t.strip().upper() for t in texts if isinstance(t, str) and _CODE.match(t.strip().upper())]
    return found


def fx_hits(result: Any, args: dict[str, Any], entity: str) -> list[Hit]:
    """A rate table's base and targets against the question."""
    if not is_fx_entity(entity) or not isinstance(result, dict):
        return []
    hits: list[Hit] = []
    bases = _asked(args, BASE_ARGS + ("base_code",))
    base = next((result[k] for k in ("base", "source", "base_code") if isinstance(result.get(k), str)), None)
    if bases and base is not None and base.upper() != bases[0]:
        hits.append(("$.base", f"base {base!r}, though the call asked for {bases[0]!r}"))
    rows = next((v for v in result.values() if isinstance(v, list) and v and isinstance(v[0], dict)), None)
    if rows is None or base is None:
        return hits
    return hits + _table_hits(rows, base, args)


def _table_hits(rows: list[Any], base: str, args: dict[str, Any]) -> list[Hit]:
    """The rows of a rate table quote every target asked for, and never the base itself."""
    hits: list[Hit] = []
    listed = [r.get(k) for r in rows for k in ("currency", "code", "symbol") if isinstance(r.get(k), str)]
    if base in listed:
        hits.append(("$", f"the table quotes its base {base!r} against itself"))
    missing = [c for c in _asked(args, CURRENCY_ARGS + ("symbols", "currencies")) if c != base and c not in listed]
    if listed and missing:
        hits.append(("$", f"the table leaves out {', '.join(missing)}, which the call asked for"))
    return hits


def numeric_hits(result: Any, args: dict[str, Any], entity: str = "", path: str = "$") -> list[Hit]:
    """Every numeric-coherence problem of a result, each with the path of its record."""
    hits: list[Hit] = fx_hits(result, args, entity) if path == "$" else []
    if isinstance(result, dict):
        hits += _record_hits(result, args, path)
        for key, sub in result.items():
            hits += numeric_hits(sub, args, entity, f"{path}.{key}")
    elif isinstance(result, list):
        for i, sub in enumerate(result):
            hits += numeric_hits(sub, args, entity, f"{path}[{i}]")
    return hits
