"""The audit's checks of carbon estimates, named days and exchange pairs.

``world_hits(spec, args, result, today)`` reports:

* one record's carbon masses in different units that disagree (``carbon_kg`` 45.2 with
  ``carbon_g`` 127), or an estimate whose emission factor is per a unit the call's
  amount is not in (an energy amount estimated with a per-km factor);
* a holiday list for a year with a date outside it, out of date order, or a list of the
  next holidays that starts before the session's date;
* an observance that is no named day (a public holiday, or a day of ``named_day``);
* a coin pair ticker ("btcusd") priced far from the market's level for the coin;
* a journey whose duration is not the sum of its legs, or not the time from its start to
  its arrival.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from env_server.catalog.models import Operation, ToolSpec
from env_server.simulators.naming import snake
from env_server.simulators.records import INSTRUMENT_ARGS, default_facts
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]

# A mass field's name and how many of it make one kg.
_MASS_PER_KG = {"carbon_g": 1000.0, "carbon_kg": 1.0, "carbon_lb": 2.20462, "carbon_mt": 0.001}
_AMOUNT_TYPES = {"energy": "Energy", "weight": "Weight", "money": "Money"}
_DATE_FIELDS = ("date", "observed", "holiday_date")


def world_hits(spec: ToolSpec, args: Mapping[str, Any], result: Any, today: dt.date) -> list[Hit]:
    """Findings of this module's checks in ``result`` for a call of ``spec`` with ``args``."""
    found: list[Hit] = []
    for path, record in walk_records(result):
        found += mass_hits(path, record)
        found += journey_hits(path, record)
    found += factor_hits(args, result)
    found += holiday_hits(spec, args, result, today)
    found += observance_hits(spec, result)
    if spec.profile.operation is Operation.READ:
        found += pair_hits(args, result)
    return found


def mass_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    """Carbon masses of one record in several units must say one amount."""
    kgs = {k: float(v) / per for k, per in _MASS_PER_KG.items()
           if isinstance(v := record.get(k), (int, float)) and not isinstance(v, bool)}
    if len(kgs) < 2:
        return []
    lo, hi = min(kgs.values()), max(kgs.values())
    if hi - lo <= max(0.002, 0.01 * hi):
        return []
    return [(path, "carbon masses disagree: " + ", ".join(f"{k}={record[k]}" for k in kgs))]


def factor_hits(args: Mapping[str, Any], result: Any) -> list[Hit]:
    """An estimate's factor is per the kind of amount the call gives."""
    factor = result.get("emission_factor") if isinstance(result, dict) else None
    params = args.get("parameters")
    if not isinstance(factor, dict) or not isinstance(params, dict):
        return []
    row = default_facts().vocab.index("emission_activity").get(str(factor.get("activity_id", "")).lower())
    given = {t for k, t in _AMOUNT_TYPES.items() if isinstance(params.get(k), (int, float))}
    if row is None or len(given) != 1 or row["unit_type"] in given:
        return []
    return [("$.emission_factor", f"a {row['unit_type']} factor ({row['unit']}) for an amount of {given.pop()}")]


def _rows(spec: ToolSpec, result: Any) -> list[dict[str, Any]]:
    coll = spec.profile.collection
    rows = result.get(coll) if coll and isinstance(result, dict) else None
    return [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []


def _year_asked(args: Mapping[str, Any]) -> int | None:
    value = args.get("year")
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def holiday_hits(spec: ToolSpec, args: Mapping[str, Any], result: Any, today: dt.date) -> list[Hit]:
    """A year's holidays are in that year, in order; the next ones start today or later."""
    if "holiday" not in snake(spec.profile.entity or "").split("_"):
        return []
    rows = _rows(spec, result)
    key = next((k for k in _DATE_FIELDS if rows and k in rows[0]), None)
    if key is None:
        return []
    dates = [str(r.get(key, ""))[:10] for r in rows]
    hits: list[Hit] = []
    if dates != sorted(dates):
        hits.append((f"$.{spec.profile.collection}", "holidays out of date order"))
    year = _year_asked(args)
    if year is not None:
        hits += [(f"$.{spec.profile.collection}[{i}].{key}", f"{d} in a list of {year}'s holidays")
                 for i, d in enumerate(dates) if not d.startswith(str(year))]
    elif "future_date" in spec.profile.hints.values():
        hits += [(f"$.{spec.profile.collection}[{i}].{key}", f"{d}, before {today}, among the next holidays")
                 for i, d in enumerate(dates) if d < today.isoformat()]
    return hits


def _known_days() -> frozenset[str]:
    return frozenset(str(r["name"]) for r in default_facts().vocab.get("named_day").records)


def observance_hits(spec: ToolSpec, result: Any) -> list[Hit]:
    """An observance is a named day: a day of the vocabulary or a public holiday."""
    if snake(spec.profile.entity or "") != "observance":
        return []
    known = _known_days()
    hits: list[Hit] = []
    for path, record in walk_records(result):
        name = record.get("name")
        if isinstance(name, str) and "id" in record and name not in known and not _is_holiday(name):
            hits.append((f"{path}.name", f"{name!r} is no named day"))
    return hits


def _is_holiday(name: str) -> bool:
    ref = default_facts().reference
    return any(name == n for year in (2025, 2026, 2027) for _, n in ref.holidays("US", year))


def pair_hits(args: Mapping[str, Any], result: Any) -> list[Hit]:
    """A coin pair written as one word is priced near the market's level for the coin."""
    table = default_facts().market_table
    symbol = next((v for k, v in args.items() if snake(k) in INSTRUMENT_ARGS and isinstance(v, str)), None)
    coin, quote = table.pair_of(symbol) if symbol and len(symbol) <= 12 else (None, None)
    if coin is None or quote not in ("USD", "USDT", "USDC") or not isinstance(result, dict):
        return []
    last = result.get("last") or result.get("price")
    if not isinstance(last, (int, float)) or isinstance(last, bool):
        return []
    if coin.price_usd / 3 <= last <= coin.price_usd * 3:
        return []
    return [("$.last", f"{symbol} at {last}; the coin trades near {coin.price_usd:g} USD")]


_START_FIELDS = ("startDateTime", "departure_date_time", "first_departure", "departure_time")
_END_FIELDS = ("arrivalDateTime", "arrival_date_time", "last_arrival", "arrival_time")


def _moment(text: Any) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None


def journey_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    """A journey lasts the sum of its legs, from its start to its arrival."""
    legs, total = record.get("legs"), record.get("duration")
    if not isinstance(legs, list) or not isinstance(total, int) or isinstance(total, bool):
        return []
    raw = [leg.get("duration") for leg in legs if isinstance(leg, dict)]
    spans = [m for m in raw if isinstance(m, int)]
    hits: list[Hit] = []
    if spans and len(spans) == len(raw) and sum(spans) != total:
        hits.append((f"{path}.duration", f"a {total}-minute journey whose legs add up to {sum(spans)} minutes"))
    start = next((_moment(record[k]) for k in _START_FIELDS if k in record), None)
    end = next((_moment(record[k]) for k in _END_FIELDS if k in record), None)
    if start is not None and end is not None and abs((end - start).total_seconds() / 60 - total) > 1:
        hits.append((f"{path}.duration", f"a {total}-minute journey from {start:%H:%M} arriving {end:%Y-%m-%d %H:%M}"))
    return hits
