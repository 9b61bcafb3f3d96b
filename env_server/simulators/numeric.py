"""Numbers of one record that must agree: a min/avg/max summary.

Of ``min_x``/``x_min``/``minx`` (or ``minimum``/``lowest``), ``avg_x`` (``mean``, ``average``)
and ``max_x`` (``maximum``/``highest``), one group per ``x``, the minimum is at most the
average, the average at most the maximum; a group of any two of them is ordered too (a
budget's minimum and maximum, a lowest and an average price). ``stat_groups`` binds a schema
once, ``enforce_stats`` repairs a generated record and ``stat_violations`` reports what a
result breaks (for the audit). Pages of results that must add up are ``paging``'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

_WORDS = "minimum|maximum|average|lowest|highest|min|max|avg|mean"  # longest first: "minimum" is no "min"+"imum"
_STAT = re.compile(rf"^(?:({_WORDS})_?(.*)|(.*?)_?({_WORDS}))$")
_ROLE = {"min": "min", "max": "max", "avg": "avg", "mean": "avg", "average": "avg", "minimum": "min",
         "maximum": "max", "lowest": "min", "highest": "max"}


# -- min / avg / max -------------------------------------------------------------------------


def stat_groups(props: Iterable[str]) -> tuple[tuple[str | None, str | None, str | None], ...]:
    """(min, avg, max) field names of each summarised quantity with a min and a max."""
    groups: dict[str, dict[str, str]] = {}
    for name in props:
        low = name.lower()
        match = _STAT.match(low)
        if match is None:
            continue
        role = _ROLE[match.group(1) or match.group(4)]
        stem = (match.group(2) if match.group(1) else match.group(3)) or ""
        groups.setdefault(stem.strip("_"), {}).setdefault(role, name)
    bounded = [g for _, g in sorted(groups.items()) if len(g) >= 2]
    _join_lone_average(groups, bounded)
    return tuple((g.get("min"), g.get("avg"), g.get("max")) for g in bounded)


def _join_lone_average(groups: dict[str, dict[str, str]], bounded: list[dict[str, str]]) -> None:
    """A lone average of another stem joins the one min/max pair it belongs to (temp_avg with
    maxt and mint)."""
    lone_avgs = [g["avg"] for g in groups.values() if set(g) == {"avg"}]
    no_avg = [g for g in bounded if "avg" not in g and "min" in g and "max" in g]
    if len(lone_avgs) == 1 and len(no_avg) == 1:
        lone_stem, stem = _stem(lone_avgs[0]), _stem(no_avg[0]["max"])
        if lone_stem and stem and (lone_stem in stem or stem in lone_stem):
            no_avg[0]["avg"] = lone_avgs[0]


def _stem(name: str) -> str:
    match = _STAT.match(name.lower())
    if match is None:
        return ""
    return ((match.group(2) if match.group(1) else match.group(3)) or "").strip("_")


def _num(record: Mapping[str, Any], key: str | None) -> float | None:
    value = record.get(key) if key else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def enforce_stats(record: dict[str, Any], groups: tuple[tuple[str | None, str | None, str | None], ...]) -> None:
    for lo_key, avg_key, hi_key in groups:
        lo, avg, hi = _num(record, lo_key), _num(record, avg_key), _num(record, hi_key)
        if lo is not None and hi is not None and lo > hi:
            record[lo_key], record[hi_key] = record[hi_key], record[lo_key]  # type: ignore[index]
            lo, hi = hi, lo
        if avg is None:
            continue
        if lo is not None and hi is not None and not lo <= avg <= hi:
            middle = (lo + hi) / 2
            record[avg_key] = int(round(middle)) if isinstance(record[avg_key], int) else round(middle, 1)  # type: ignore[index]
        elif hi is None and lo is not None and lo > avg:  # a lowest price above the average
            record[lo_key], record[avg_key] = record[avg_key], record[lo_key]  # type: ignore[index]
        elif lo is None and hi is not None and avg > hi:
            record[hi_key], record[avg_key] = record[avg_key], record[hi_key]  # type: ignore[index]


def stat_violations(record: Mapping[str, Any]) -> list[str]:
    found: list[str] = []
    for lo_key, avg_key, hi_key in stat_groups(record):
        lo, avg, hi = _num(record, lo_key), _num(record, avg_key), _num(record, hi_key)
        if lo is not None and hi is not None and lo > hi:
            found.append(f"{lo_key}={lo} is above {hi_key}={hi}")
        elif avg is not None and (lo is not None and avg < lo or hi is not None and avg > hi):
            found.append(f"{avg_key}={avg} is outside {lo_key}..{hi_key} ({lo}..{hi})")
    return found
