"""Exchange-rate answers that agree with the question and with the session market.

A rate table answers for the base the call asked for (``from=USD`` → ``base: "USD"``),
lists exactly the targets it asked for (or the ECB's thirty-odd currencies when it asked
for none), and each value is the session market's rate on the call's day, times the
amount when the tool converts. A conversion therefore agrees with a rate lookup in the
same session, and a historical day gives a slightly different rate than today.

Two parts: ``fx_kind`` maps a field of an exchange-rate entity to its role, once per
schema node (at plan time); the ``FX_KINDS`` draw a role's value from the call's
``FxQuery`` (built once per call, on first use).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from env_server.simulators.records import BASE_ARGS, CURRENCY_ARGS, arg_number

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# Entities whose records are exchange rates or conversions (by their whole name: a
# "vat_rate" or a "user_rate" is not one).
FX_ENTITIES = frozenset({
    "rate_table", "historical_rate_table", "rate_series", "quote_table", "historical_quote_table", "quote_series",
    "pair_rate", "conversion", "price_conversion", "fluctuation", "currency_rate", "exchange_rate", "fx_rate",
    "spot_price", "currency_conversion", "exchange_rates", "rates",
})
_SERIES_WORDS = frozenset({"series", "timeframe", "timeseries", "history"})
# What the ECB publishes: the currencies a rate table may list.
ECB_SET = ("AUD", "BGN", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "EUR", "GBP", "HKD", "HUF", "IDR", "ILS", "INR",
           "ISK", "JPY", "KRW", "MXN", "MYR", "NOK", "NZD", "PHP", "PLN", "RON", "SEK", "SGD", "THB", "TRY", "USD",
           "ZAR")
# What a table lists when the call names no targets: the most traded currencies (the
# whole ECB set would make each such call six times dearer than the answer is worth).
MAJORS = ("USD", "EUR", "JPY", "GBP", "CNY", "AUD", "CAD", "CHF", "HKD")
# Field roles by snake_case name.
_BASE = frozenset({"base", "source", "base_code", "base_currency", "from", "from_currency", "source_currency"})
_TARGET = frozenset({"target", "to", "target_code", "to_currency", "target_currency", "quote_currency"})
_ITEM_CURRENCY = frozenset({"currency", "code", "symbol", "currency_code", "iso", "iso_code"})
_RATE = frozenset({"rate", "mid", "conversion_rate", "exchange_rate", "quote", "info_rate", "fx_rate"})
_CONVERTED = frozenset({"value", "result", "conversion_result", "converted_amount", "converted", "converted_value"})
_PAIR = frozenset({"pair", "currency_pair"})
_ROLE_BY_NAME = {"bid": "fx_bid", "ask": "fx_ask", "start_rate": "fx_start_rate", "end_rate": "fx_end_rate"}
# Hints that an older profile wrote for these fields and that the role replaces.
_LOOSE_HINTS = frozenset({None, "currency_code", "code", "price", "amount", "rate", "exchange_rate", "past_date",
                          "date", "ticker", "currency_name"})
_DAY_ARGS = ("date", "on_date", "historical_date", "end_date", "date_to", "to_date")
_SERIES_START = ("start_date", "startDate", "date_from", "from_date", "start")
_SERIES_END = ("end_date", "endDate", "date_to", "to_date", "end")
_AMOUNT_ARGS = ("amount", "from_amount", "given_amount", "value", "quantity")
_PAIR_ARGS = ("currency_pair", "pair", "symbol", "instrument")
MAX_SERIES_DAYS = 31
MAX_ITEMS = 62  # rows of one answer: a month of two pairs, or the ECB table twice over
_CODE_RE = re.compile(r"^[A-Za-z]{3,5}$")
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def _snake(name: str) -> str:
    return _CAMEL.sub("_", name).lower()


def is_fx_entity(entity: str) -> bool:
    return entity.lower() in FX_ENTITIES


def fx_kind(field: str, entity: str, parent: str, hint: str | None) -> str | None:
    """The exchange-rate role of a field, or None (decided once per schema node)."""
    if not field or not is_fx_entity(entity) or hint not in _LOOSE_HINTS:
        return None
    low = _snake(field)
    return _NAME_ROLES.get(low) or _amount_role(low, entity, parent) or _context_role(low, entity, parent, hint)


# Roles a field's name alone decides.
_NAME_ROLES = {
    **_ROLE_BY_NAME,
    **dict.fromkeys(_BASE, "fx_base"),
    **dict.fromkeys(_TARGET, "fx_target"),
    **dict.fromkeys(_PAIR, "fx_pair"),
    **dict.fromkeys(_RATE, "fx_rate"),
    **dict.fromkeys(_CONVERTED, "fx_converted"),
}


def _amount_role(low: str, entity: str, parent: str) -> str | None:
    """An amount is what the call gives, or (inside a row) what it converts to; a spot price's is its rate."""
    spot = entity.lower() == "spot_price"
    if low == "price" and spot:
        return "fx_rate"
    if low in ("given_amount", "from_amount", "amount_given") or low == "amount" and not parent and entity != "spot_price":
        return "fx_amount"
    if low == "amount":
        return "fx_converted" if parent and not spot else "fx_rate" if spot else None
    return None


def _context_role(low: str, entity: str, parent: str, hint: str | None) -> str | None:
    """Roles that depend on the hint, on being a list item or on the entity being a series."""
    if hint == "currency_name":
        return "fx_currency_name"
    if low in _ITEM_CURRENCY:
        return "fx_currency" if parent else "fx_target"
    series = bool(set(entity.lower().split("_")) & _SERIES_WORDS)
    if series and low in ("end_date", "end") and not parent:
        return "fx_series_end"
    if series and low in ("date", "day", "effective_date") and parent:
        return "fx_day"
    return None


def sizes_list(item_kinds: list[str | None]) -> bool:
    """Whether a list's length follows the call's targets (its items name a currency)."""
    return "fx_currency" in item_kinds or "fx_pair" in item_kinds


@dataclass(frozen=True)
class FxQuery:
    """What one call asks of the market: base, targets, amount and days."""

    base: str
    targets: tuple[str, ...]
    amount: float
    day: dt.date
    days: tuple[dt.date, ...]  # a series' days (one, for a table)
    rates: dict[tuple[str, dt.date], float] = field(default_factory=dict)  # this call's, by (quote, day)

    @property
    def count(self) -> int:
        return min(len(self.targets) * len(self.days), MAX_ITEMS)

    def item(self, index: int) -> tuple[str, dt.date]:
        """Item ``index`` of a list: day-major, then the targets in the order asked."""
        n = len(self.targets)
        return self.targets[index % n], self.days[min(index // n, len(self.days) - 1)]


def _codes(value: Any, known: Callable[[str], bool]) -> list[str]:
    texts = value if isinstance(value, list) else str(value).split(",") if isinstance(value, str) else []
    found: list[str] = []
    for text in texts:
        code = str(text).strip().upper()
        if _CODE_RE.match(code) and known(code) and code not in found:
            found.append(code)
    return found


def _pair(args: dict[str, Any], known: Callable[[str], bool]) -> tuple[str, str] | None:
    for key in _PAIR_ARGS:
        text = args.get(key)
        if not isinstance(text, str):
            continue
        for sep in ("-", "/", "_", ":"):
            a, found, b = text.partition(sep)
            if found and known(a.strip().upper()) and known(b.strip().upper()):
                return a.strip().upper(), b.strip().upper()
        if len(text) == 6 and known(text[:3].upper()) and known(text[3:].upper()):
            return text[:3].upper(), text[3:].upper()
    return None


def _day(args: dict[str, Any], names: tuple[str, ...]) -> dt.date | None:
    for key in names:
        value = args.get(key)
        if isinstance(value, str) and len(value) >= 10:
            try:
                return dt.date.fromisoformat(value[:10])
            except ValueError:
                continue
    year, month, day = (args.get(k) for k in ("year", "month", "day"))
    if all(isinstance(v, int) and not isinstance(v, bool) for v in (year, month, day)):
        try:
            return dt.date(year, month, day)  # type: ignore[arg-type]
        except ValueError:
            return None
    return None


_BASE_ARG_NAMES = (*BASE_ARGS, "base_code")
_TARGET_ARG_NAMES = (*CURRENCY_ARGS, "symbols", "currencies", "target_code", "code", "codes")


def build_query(gen: Generation) -> FxQuery:
    """The call's question, read from its arguments (snake_case) once."""
    args = gen.snaked_args
    table = gen.facts.market_table

    def known(code: str) -> bool:
        return code in table.fx_per_usd or code in table.instruments

    series = bool(set(gen.entity.lower().split("_")) & _SERIES_WORDS)
    base, targets = _currencies(args, known, series)
    amount = arg_number(args, _AMOUNT_ARGS)
    day = min(_day(args, _DAY_ARGS) or gen.today, gen.today)
    days = _series_days(args, gen.today) if series else None
    return FxQuery(base, targets, amount if amount is not None and amount > 0 else 1.0, day, days or (day,))


def _currencies(args: dict[str, Any], known: Callable[[str], bool], series: bool) -> tuple[str, tuple[str, ...]]:
    """(base, targets) the call names, by code or as a pair; a table without targets lists
    the majors, a series follows one pair (the base's usual partner)."""
    pair = _pair(args, known)
    bases = [c for key in _BASE_ARG_NAMES if key in args for c in _codes(args[key], known)]
    base = bases[0] if bases else pair[0] if pair else "USD"
    targets = [c for key in _TARGET_ARG_NAMES if key in args for c in _codes(args[key], known)]
    if not targets and pair:
        targets = [pair[1]]
    targets = [c for c in dict.fromkeys(targets) if c != base]
    if not targets:
        targets = [c for c in MAJORS if c != base][: 1 if series else len(MAJORS)]
    return base, tuple(targets)


def _series_days(args: dict[str, Any], today: dt.date) -> tuple[dt.date, ...] | None:
    """The days of a series window the call asks for (at most ``MAX_SERIES_DAYS``), or None without a start."""
    start = _day(args, _SERIES_START)
    if start is None:
        return None
    end = min(_day(args, _SERIES_END) or today, today)
    span = max(0, min((end - start).days, MAX_SERIES_DAYS - 1))
    return tuple(start + dt.timedelta(days=i) for i in range(span + 1))


def with_defaults(args: dict[str, Any], input_schema: dict[str, Any]) -> dict[str, Any]:
    """``args`` with the input schema's scalar defaults for what the call left out: a rate
    table asked for no base answers for the API's default base (EUR at the ECB)."""
    props = input_schema.get("properties") or {}
    missing = {k: sub["default"] for k, sub in props.items()
               if k not in args and isinstance(sub, dict) and isinstance(sub.get("default"), (str, int, float))}
    return {**missing, **args} if missing else args


def fx_round(value: float) -> float:
    """Rates as services print them: more decimals for small numbers."""
    if value >= 100:
        return round(value, 2)
    if value >= 1:
        return round(value, 4)
    return round(value, 6)


def _item(gen: Generation) -> tuple[str, dt.date]:
    """The target and day of the record being built (a list item's own, or the first)."""
    scope = gen.scope
    query = gen.fx
    picked: tuple[str, dt.date] = scope.once(
        "fx_item", lambda: query.item(scope.index) if scope.in_list else (query.targets[0], query.day), inherit=True)
    return picked


def _rate(gen: Generation, quote: str, day: dt.date) -> float:
    memo = gen.fx.rates
    rate = memo.get((quote, day))
    if rate is None:
        rate = memo[(quote, day)] = gen.market.rate(gen.fx.base, quote, day) or 1.0
    return rate


def item_rate(gen: Generation) -> float:
    quote, day = _item(gen)
    return fx_round(_rate(gen, quote, day))


def _converted(gen: Generation) -> float:
    quote, day = _item(gen)
    value = _rate(gen, quote, day) * gen.fx.amount
    return fx_round(value) if gen.fx.amount == 1 else round(value, 2)


def _spread(gen: Generation, factor: float) -> float:
    quote, day = _item(gen)
    return fx_round(_rate(gen, quote, day) * factor)


def _series_end(gen: Generation) -> dt.date:
    return _day(gen.snaked_args, _SERIES_END) or gen.today


FX_KINDS: dict[str, Callable[[Generation], Any]] = {
    "fx_base": lambda g: g.fx.base,
    "fx_amount": lambda g: g.fx.amount,
    "fx_target": lambda g: _item(g)[0],
    "fx_currency": lambda g: _item(g)[0],
    "fx_pair": lambda g: f"{g.fx.base}{_item(g)[0]}",
    "fx_rate": item_rate,
    "fx_converted": _converted,
    "fx_bid": lambda g: _spread(g, 0.99),
    "fx_ask": lambda g: _spread(g, 1.01),
    "fx_day": lambda g: _item(g)[1].isoformat(),
    "fx_series_end": lambda g: g.fx.days[-1].isoformat(),
    "fx_currency_name": lambda g: g.facts.reference.currencies.get(_item(g)[0], _item(g)[0]),
    "fx_start_rate": lambda g: fx_round(_rate(g, _item(g)[0], min(_day(g.snaked_args, _SERIES_START) or g.today, g.today))),
    "fx_end_rate": lambda g: fx_round(_rate(g, _item(g)[0], min(_series_end(g), g.today))),
}


_SAMPLE_BASES = ("EUR", "GBP", "USD")
_SAMPLE_TARGETS = tuple(c for c in ECB_SET if c not in _SAMPLE_BASES) + ("USD",)


def sample_currency(name: str, schema: dict[str, Any], gen: Generation) -> Any:
    """A sample value for a currency parameter (real ISO codes, a base apart from its
    targets), or None when ``name`` does not take currency codes."""
    low = _snake(name)
    text = str(schema.get("description", "")).lower()
    if "enum" in schema or "currenc" not in text or "pair" in low:
        return None
    is_base = low in BASE_ARGS or low in _BASE
    if not is_base and low not in CURRENCY_ARGS + ("symbols", "currencies", "target_code", "code", "codes"):
        return None
    pool = _SAMPLE_BASES if is_base else _SAMPLE_TARGETS
    if schema.get("type") == "array":
        return gen.rng.sample(pool, gen.rng.randint(1, 3))
    if schema.get("type", "string") != "string":
        return None
    return gen.rng.choice(pool)
