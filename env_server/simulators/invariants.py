"""Invariants: the rules that bind a record's fields, declared once as data.

Each rule names the fields it binds, by their possible names, and knows how to *enforce*
itself on a generated record (the generator calls it after drawing the fields) and how
to *check* a record (the audit and the property tests call that). Three shapes cover the
catalog:

* ``Derived``: one field follows from others (°F from °C, change from price and previous
  close, a converted amount from amount × rate, total from quantity × unit price);
* ``Ordered``: one field is at least another (high ≥ low, end ≥ start);
* ``Bounded``: a field stays within a call argument (distance ≤ the search radius).

An air-quality record's index, dominant pollutant and category follow its concentrations by
published tables; ``air_quality`` draws them together and ``specs/air_checks`` audits them.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from env_server.simulators.agreement_rules import AGREEMENT_RULES, FILLED, ORDERED
from env_server.simulators.content_rules import CONTENT_RULES
from env_server.simulators.count_rules import COUNT_RULES
from env_server.simulators.feels_like import feels_like_c
from env_server.simulators.measure_rules import EPISODES as _EPISODES
from env_server.simulators.measure_rules import MEASURE_RULES
from env_server.simulators.measure_rules import WATCHED as _WATCHED
from env_server.simulators.nutrient_names import ENERGY, KILOJOULES, KJ_PER_KCAL
from env_server.simulators.sum_rules import SUM_RULES
from env_server.simulators.usage_rules import USAGE_RULES

Number = int | float


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if isinstance(value, int) else float(value)  # whole numbers stay exact (wei, gas)


def _first(record: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    for name in names:
        if name in record:
            return name
    return None


@dataclass(frozen=True)
class Derived:
    """``target = formula(*sources)``, rounded to ``ndigits``; names are alternatives."""

    name: str
    target: tuple[str, ...]
    sources: tuple[tuple[str, ...], ...]
    formula: Callable[..., float]
    ndigits: int = 2
    tolerance: float = 0.011
    from_args: bool = False

    def _bind(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[str, list[float]] | None:
        target = _first(record, self.target)
        if target is None or _num(record[target]) is None:
            return None
        values = []
        for alternatives in self.sources:
            key = _first(record, alternatives)
            value = _num(record[key]) if key is not None else None
            if value is None and self.from_args:  # "amount" is often the call's, not the record's
                arg = _first(args, alternatives)
                value = _num(args[arg]) if arg is not None else None
            if value is None:
                return None
            values.append(value)
        return target, values

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        bound = self._bind(record, args)
        if bound is None:
            return
        target, values = bound
        try:
            value = self.formula(*values)
        except ZeroDivisionError:
            return
        if math.isfinite(value):
            record[target] = int(round(value)) if isinstance(record[target], int) else round(value, self.ndigits)

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        bound = self._bind(record, args)
        if bound is None:
            return None
        target, values = bound
        try:
            want = self.formula(*values)
        except ZeroDivisionError:
            return None
        have = float(record[target])
        slack = max(self.tolerance, abs(want) * 0.005) if isinstance(record[target], float) else 0.51
        if abs(have - want) > slack:
            return f"{self.name}: {target}={record[target]} but expected {round(want, self.ndigits)}"
        return None


@dataclass(frozen=True)
class Ordered:
    """``record[high] >= record[low]`` (numbers, or ISO dates and times as text)."""

    name: str
    high: tuple[str, ...]
    low: tuple[str, ...]
    # When set, a broken pair is mended by the low taking the high's value (a message that is
    # its own thread's parent), not by the high moving past the low.
    lowers: bool = False

    def _pair(self, record: Mapping[str, Any]) -> tuple[str, str] | None:
        hi, lo = _first(record, self.high), _first(record, self.low)
        if hi is None or lo is None:
            return None
        a, b = record[hi], record[lo]
        if _num(a) is not None and _num(b) is not None:
            return hi, lo
        if isinstance(a, str) and isinstance(b, str) and a[:4].isdigit() and b[:4].isdigit() and len(a) == len(b):
            return hi, lo
        return None

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        pair = self._pair(record)
        if pair is None or record[pair[0]] >= record[pair[1]]:
            return
        high, low = pair
        if self.lowers:
            record[low] = record[high]
        elif isinstance(record[low], str):
            # Dates keep their start (often echoed or stamped): the end moves after it.
            record[high] = _mirror_after(record[high], record[low])
        else:
            record[high], record[low] = record[low], record[high]

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        pair = self._pair(record)
        if pair is not None and record[pair[0]] < record[pair[1]]:
            return f"{self.name}: {pair[0]}={record[pair[0]]!r} is below {pair[1]}={record[pair[1]]!r}"
        return None


@dataclass(frozen=True)
class Bounded:
    """``record[field] <= args[limit]``."""

    name: str
    field: tuple[str, ...]
    limit: tuple[str, ...]

    def _bound(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[str, float] | None:
        key, arg = _first(record, self.field), _first(args, self.limit)
        if key is None or arg is None or _num(record[key]) is None or _num(args[arg]) is None:
            return None
        return key, float(args[arg])

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        bound = self._bound(record, args)
        if bound is not None and record[bound[0]] > bound[1]:
            value = record[bound[0]]
            record[bound[0]] = type(value)(bound[1] * 0.9)

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        bound = self._bound(record, args)
        if bound is not None and record[bound[0]] > bound[1]:
            return f"{self.name}: {bound[0]}={record[bound[0]]} exceeds the requested {bound[1]}"
        return None


@dataclass(frozen=True)
class Floored:
    """``record[field] >= args[floor] * scale``: a reply to /delay/9 took at least 9000 ms."""

    name: str
    field: tuple[str, ...]
    floor: tuple[str, ...]
    scale: float

    def _floor(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[str, float] | None:
        key, arg = _first(record, self.field), _first(args, self.floor)
        if key is None or arg is None or _num(record[key]) is None or _num(args[arg]) is None:
            return None
        return key, float(args[arg]) * self.scale

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        floor = self._floor(record, args)
        if floor is not None and record[floor[0]] < floor[1]:
            value = record[floor[0]]
            record[floor[0]] = type(value)(floor[1] + abs(value) % (0.05 * self.scale or 1))  # plus some overhead

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        floor = self._floor(record, args)
        if floor is not None and record[floor[0]] < floor[1]:
            return f"{self.name}: {floor[0]}={record[floor[0]]} is below the requested {floor[1]:g}"
        return None


Rule = Derived | Ordered | Bounded | Floored


def _mirror_after(end: str, start: str) -> str:
    """An ISO date or date-time as far after ``start`` as ``end`` was before it."""
    try:
        if len(start) == 10:
            a, b = dt.date.fromisoformat(start), dt.date.fromisoformat(end)
            return (a + (a - b)).isoformat()
        a_t, b_t = dt.datetime.fromisoformat(start.replace("Z", "+00:00")), dt.datetime.fromisoformat(
            end.replace("Z", "+00:00"))
        moved = (a_t + (a_t - b_t)).isoformat()
    except (ValueError, TypeError):
        return start
    return moved.replace("+00:00", "Z") if start.endswith("Z") else moved

PRICE = ("c", "price", "current_price", "last", "last_price", "regularMarketPrice", "latestPrice", "close")
PREVIOUS = ("pc", "previous_close", "prev_close", "previousClose", "regularMarketPreviousClose")
CHANGE = ("d", "change", "price_change", "regularMarketChange", "net_change")
CHANGE_PCT = ("dp", "change_percent", "percent_change", "changePercent", "change_pct", "regularMarketChangePercent",
              "changesPercentage")


def _unit_pairs() -> list[Rule]:
    rules: list[Rule] = []
    for c_name, f_name in (("temp_c", "temp_f"), ("feelslike_c", "feelslike_f"), ("maxtemp_c", "maxtemp_f"),
                           ("mintemp_c", "mintemp_f"), ("avgtemp_c", "avgtemp_f"), ("dewpoint_c", "dewpoint_f"),
                           ("windchill_c", "windchill_f"), ("heatindex_c", "heatindex_f"),
                           ("temperature_c", "temperature_f"), ("celsius", "fahrenheit")):
        rules.append(Derived(f"fahrenheit from celsius ({c_name})", (f_name,), ((c_name,),),
                             lambda c: c * 9 / 5 + 32, 1, 0.11))
    for km, mi, factor in (("wind_kph", "wind_mph", 1 / 1.609344), ("gust_kph", "gust_mph", 1 / 1.609344),
                           ("vis_km", "vis_miles", 1 / 1.609344), ("distance_km", "distance_miles", 1 / 1.609344),
                           ("precip_mm", "precip_in", 1 / 25.4), ("pressure_mb", "pressure_in", 0.02953),
                           ("weight_kg", "weight_lb", 2.20462), ("elevation_m", "elevation_ft", 3.28084),
                           ("maxwind_kph", "maxwind_mph", 1 / 1.609344)):
        rules.append(Derived(f"{mi} from {km}", (mi,), ((km,),), lambda v, f=factor: v * f, 2, 0.011))
    return rules


_MAX_TEMP = ("maxtemp_c", "temp_max", "max_temp", "tempmax", "temperature_max", "high_temp", "temperature_2m_max")
_MIN_TEMP = ("mintemp_c", "temp_min", "min_temp", "tempmin", "temperature_min", "low_temp", "temperature_2m_min")
# A day's (or a city's) mean or current temperature, beside its maximum and minimum.
_MEAN_TEMP = ("avgtemp_c", "temp", "temp_avg", "avg_temp", "mean_temp", "temperature_mean", "temperature_2m_mean")

RULES: tuple[Rule, ...] = (
    # First: the air is at least as warm as its dew point (a METAR's dewp under its temp),
    # before the felt temperature and the °F pairs follow the °C values.
    Ordered("temperature at least dew point", ("temp_c", "temp", "temperature", "temperature_c", "air_temperature"),
            ("dewpoint_c", "dewp", "dewpoint", "dew_point", "dew_point_c")),
    # Temperatures in order first (the max at least the mean, the mean at least the min), so the
    # °F pairs and the feels-like follow the ordered °C.
    Ordered("maximum temperature at least minimum", _MAX_TEMP, _MIN_TEMP),
    Ordered("maximum temperature at least the mean", _MAX_TEMP, _MEAN_TEMP),
    Ordered("mean temperature at least the minimum", _MEAN_TEMP, _MIN_TEMP),
    # Before the °F pairs, so feelslike_f follows the felt °C.
    Derived("feels-like is wind chill or heat index", ("feelslike_c", "feels_like_c", "apparent_temperature_c"),
            (("temp_c", "temperature_c"), ("wind_kph", "wind_kmh", "wind_speed_kmh"), ("humidity", "relative_humidity")),
            feels_like_c, 1, 0.11),
    *_unit_pairs(),
    Ordered("high at least low", ("high", "h", "day_high", "dayHigh", "high_price", "regularMarketDayHigh",
                                  "high_24h", "max", "maximum"),
            ("low", "l", "day_low", "dayLow", "low_price", "regularMarketDayLow", "low_24h", "min", "minimum")),
    Ordered("high at least price", ("high", "h", "day_high", "high_24h"), PRICE),
    Ordered("price at least low", PRICE, ("low", "l", "day_low", "low_24h")),
    Ordered("high at least open", ("high", "h", "day_high"), ("open", "o", "open_price")),
    Ordered("open at least low", ("open", "o", "open_price"), ("low", "l", "day_low")),
    Ordered("maximum price at least price", ("max_price", "price_max", "maxPrice", "priceMax", "highest_price"),
            ("min_price", "price_min", "minPrice", "priceMin", "lowest_price", "price")),
    Ordered("52-week high at least low", ("year_high", "week_52_high", "fiftyTwoWeekHigh", "52_week_high"),
            ("year_low", "week_52_low", "fiftyTwoWeekLow", "52_week_low")),
    Ordered("end after start", ("end", "end_time", "ends_at", "end_date", "endDate", "end_datetime", "finish",
                                "to_date", "check_out", "checkout", "arrival_time", "arrival", "return_date",
                                "valid_until", "expires_at", "due_date"),
            ("start", "start_time", "starts_at", "start_date", "startDate", "start_datetime", "begin",
             "from_date", "check_in", "checkin", "departure_time", "departure", "departure_date", "valid_from",
             "created_at", "created")),
    Ordered("updated after created", ("updated_at", "updated", "modified_at", "last_modified"),
            ("created_at", "created", "created_on")),
    # A reply's thread_ts is its parent's ts, never after its own (Slack): a message listed with
    # a thread that seems to start later is that thread's parent.
    Ordered("thread starts at or before its message", ("ts",), ("thread_ts",), lowers=True),
    # A part is at most its whole: an order fills no more than was ordered, a quota is not overdrawn.
    Ordered("ordered quantity at least the filled", ORDERED, FILLED),
    # Every listener played a track at least once (Last.fm's playcount and listeners).
    Ordered("plays at least listeners", ("playcount", "play_count", "plays"), ("listeners", "unique_listeners")),
    Ordered("quota at least its use", ("quota", "plan_quota", "limit", "rate_limit", "total_quota"),
            ("used", "quota_used", "requests_used", "remaining", "requests_remaining", "quota_remaining")),
    Derived("change is price minus previous close", CHANGE, (PRICE, PREVIOUS), lambda p, pc: p - pc, 2, 0.011),
    Derived("change percent follows change", CHANGE_PCT, (CHANGE, PREVIOUS), lambda d, pc: d / pc * 100, 2, 0.011),
    Derived("change is end rate minus start rate", ("change",), (("end_rate",), ("start_rate",)),
            lambda e, s: e - s, 6, 0.000002),
    Derived("change percent follows the start rate", ("change_pct", "change_percent", "percent_change"),
            (("change",), ("start_rate",)), lambda d, s: d / s * 100, 4, 0.0002),
    Derived("converted amount is amount times rate", ("result", "converted_amount", "converted", "converted_value",
                                                      "conversion_result"),
            (("amount", "from_amount", "value"), ("rate", "exchange_rate", "conversion_rate", "info_rate")),
            lambda a, r: a * r, 2, 0.011, from_args=True),
    Derived("total is quantity times unit price", ("total", "total_price", "line_total", "subtotal"),
            (("quantity", "qty"), ("unit_price", "price_per_unit", "price_each")), lambda q, p: q * p, 2, 0.011),
    Bounded("distance within the radius", ("distance", "distance_km", "dist", "distance_m"),
            ("radius", "radius_km", "max_distance")),
    Floored("elapsed covers the requested delay", ("elapsed_ms", "duration_ms", "response_time_ms"),
            ("delay", "delay_seconds", "delay_s"), 1000.0),
)
RULES = (*RULES, *CONTENT_RULES)  # what records say: energy from macros, slugs that spell names (content_rules)
# After the energy follows the macros: its kilojoules follow its kilocalories.
RULES = (*RULES, Derived("kilojoules from kilocalories", KILOJOULES, (ENERGY,), lambda kcal: kcal * KJ_PER_KCAL, 1, 0.11))
RULES = (*RULES, *COUNT_RULES)  # a count of the record's own list is its length (count_rules)
RULES = (*RULES, *AGREEMENT_RULES)  # fills that follow statuses, abbreviations that spell names (agreement_rules)
_GAS_USED = ("gasUsed", "gas_used", "cumulativeGasUsed")
# Parts within wholes and units that convert (watch progress, gas, VAT, a sale), after the sums
# and measures of sum_rules and measure_rules (an outside-EU rate is 0 before prices follow it).
RULES = (*RULES, *SUM_RULES, *MEASURE_RULES,
         Ordered("total episodes at least the watched", _EPISODES, _WATCHED),
         Derived("percent watched is watched over total", ("percent_watched", "progress_percent", "watched_percent",
                                                           "percent_complete", "completion_percent", "progress_pct"),
                 (_WATCHED, _EPISODES), lambda w, t: w / t * 100, 1, 0.051),
         Derived("total length is episodes times their length", ("totalLength", "total_length"),
                 (("episodeCount", "episode_count"), ("episodeLength", "episode_length")), lambda c, m: c * m, 0, 0.51),
         Ordered("gas limit at least gas used", ("gas", "gasLimit", "gas_limit"), _GAS_USED),
         Derived("fee is gas used times gas price", ("txFee", "tx_fee", "transaction_fee", "fee_wei"),
                 (_GAS_USED, ("gasPrice", "gas_price", "effectiveGasPrice")), lambda u, p: u * p, 0, 0.51),
         Ordered("a sale's base price at least its discount", ("base_price",), ("sale_discount",)),
         Derived("a sale's total is its base price less its discount", ("total_price",),
                 (("base_price",), ("sale_discount",)), lambda b, d: b - d, 2, 0.011))
RULES = (*RULES, *USAGE_RULES)  # a use within its limit, the rest remaining; a fee under its minimum (usage_rules)


def rules_for(fields: Iterable[str]) -> tuple[Rule, ...]:
    """The rules that can bind a record with these fields (chosen once per schema)."""
    names = set(fields)
    # A field the schema closes to an enum keeps its listed value (a real team code stays).
    closed = {k for k, v in fields.items() if isinstance(v, dict) and "enum" in v} if isinstance(fields, Mapping) else set()

    def binds(rule: Rule) -> bool:
        if getattr(rule, "open_fields_only", False) and names & set(getattr(rule, "field", ())) <= closed:
            return False
        if hasattr(rule, "binds"):  # a rule that finds its fields by name pattern (usage_rules)
            return bool(rule.binds(names))
        if isinstance(rule, Derived):
            return bool(names & set(rule.target))
        if isinstance(rule, Ordered):
            return bool(names & set(rule.high)) and bool(names & set(rule.low))
        return bool(names & set(rule.field))

    return tuple(rule for rule in RULES if binds(rule))


def enforce(record: dict[str, Any], args: Mapping[str, Any], rules: tuple[Rule, ...] = RULES) -> None:
    for rule in rules:
        rule.enforce(record, args)


def violations(record: Mapping[str, Any], args: Mapping[str, Any], rules: tuple[Rule, ...] = RULES) -> list[str]:
    """Every broken rule of one record (not its nested records)."""
    return [v for rule in rules if (v := rule.violation(record, args)) is not None]


def walk_violations(value: Any, args: Mapping[str, Any], path: str = "$") -> list[str]:
    """Broken rules anywhere in a result, each prefixed with the record's path."""
    found: list[str] = []
    if isinstance(value, dict):
        found += [f"{path}: {v}" for v in violations(value, args)]
        for key, sub in value.items():
            found += walk_violations(sub, args, f"{path}.{key}")
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            found += walk_violations(sub, args, f"{path}[{i}]")
    return found
