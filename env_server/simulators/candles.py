"""Candles as a market-data API returns them: one bar per interval asked ("30min" bars half
an hour apart, not a day), ending now (or running from the start asked), each bar's open the
previous bar's close, prices moving along the session market's walk, volumes in shares or
coins that trade in a day.

``candle_step(entity, props)`` is asked once per object schema (``record_steps``); for an
item of a series with open, high, low and close it redraws the bar from its place in the
series and the call's interval.
"""

from __future__ import annotations

import datetime as dt
import re
import zlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators import timeline
from env_server.simulators.market_figures import day_close
from env_server.simulators.scripture import call_once

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation
    from env_server.simulators.market import InstrumentFact

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_OHLC = (("open", "o", "open_price"), ("high", "h", "high_price"), ("low", "l", "low_price"),
         ("close", "c", "last", "close_price"))
_VOLUME = ("volume", "v", "vol")
_ADJUSTED = ("adj_close", "adjClose", "adjusted_close", "adj_close_price")
_VWAP = ("vwap", "vw", "volume_weighted_average_price")
_WHEN = ("datetime", "date", "timestamp", "time", "t", "dt", "date_time", "period_start", "begins_at")
_INTERVAL_ARGS = ("interval", "resolution", "timeframe", "timespan", "granularity", "period", "bar", "frequency")
_START_ARGS = ("start_date", "start", "from", "date_from", "start_time", "from_date", "since", "startDate")
_UNITS = {"min": 60, "m": 60, "minute": 60, "h": 3600, "hr": 3600, "hour": 3600, "d": 86_400, "day": 86_400,
          "daily": 86_400, "w": 604_800, "wk": 604_800, "week": 604_800, "weekly": 604_800, "mo": 2_592_000,
          "month": 2_592_000, "monthly": 2_592_000}
_INTERVAL = re.compile(r"^\s*(\d*)\s*([a-z]+?)s?\s*(\d*)\s*$")
_DAY = 86_400


def parse_interval(text: Any) -> int | None:
    """Seconds in "30min", "1h", "h1", "5m", "1day", "D", "1week", "month"; None for anything else."""
    if not isinstance(text, str):
        return None
    low = text.strip().lower()
    low = {"1": "1min", "5": "5min", "15": "15min", "30": "30min", "60": "1h"}.get(low, low)
    match = _INTERVAL.match(low)
    if match is None:
        return None
    lead, unit, tail = match.groups()
    seconds = _UNITS.get(unit)
    if seconds is None:
        return None
    return seconds * int(lead or tail or 1)


def candle_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    keys = [next((k for k in names if k in props), None) for names in _OHLC]
    when = next((k for k in _WHEN if k in props), None)
    if None in keys or when is None:
        return None
    volume = next((k for k in _VOLUME if k in props), None)
    names = tuple(str(k) for k in keys)

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        fact = _instrument(record, gen)
        if index is None or fact is None:
            return
        seconds = _interval(gen)
        moment = _bar_moment(gen, index, seconds)
        record[when] = timeline.render_like(record[when], moment, when)
        per = gen.market.per_usd(gen.call_currency() or "USD", gen.today) or 1.0
        opened = _price(gen, fact, moment - dt.timedelta(seconds=seconds)) * per
        close = _price(gen, fact, moment) * per
        spread = fact.volatility * (min(seconds, 30 * _DAY) / (365 * _DAY)) ** 0.5
        wiggle = 1 + spread * (0.1 + 0.4 * abs(_unit(gen, fact.symbol, moment, "w")))
        prices = (opened, max(opened, close) * wiggle, min(opened, close) / wiggle, close)
        for key, value in zip(names, prices, strict=True):
            if isinstance(record.get(key), (int, float)) and not isinstance(record[key], bool):
                record[key] = _within(round(value, 2 if value >= 1 else 6), props.get(key))
        typical = round(sum(prices[1:]) / 3, 2 if close >= 1 else 6)  # a bar's VWAP sits near its typical price
        for derived, value in [*((k, record[names[3]]) for k in _ADJUSTED), *((k, typical) for k in _VWAP)]:
            if isinstance(record.get(derived), (int, float)) and not isinstance(record[derived], bool):
                record[derived] = value  # no dividend or split in the session: adjusted is the close
        if volume is not None and isinstance(record.get(volume), (int, float)):
            record[volume] = _within(_volume(gen, fact, moment, seconds, close / per), props.get(volume))

    return step


def _instrument(record: dict[str, Any], gen: Generation) -> InstrumentFact | None:
    """The bar's own instrument (its symbol, when the market knows it), else the call's."""
    symbol = record.get("symbol") or record.get("ticker")
    own = gen.facts.market_table.find(symbol) if isinstance(symbol, str) else None
    named = gen.call_instruments()
    if own is not None and (not named or own in named):
        return own
    return named[0] if named else own


def _interval(gen: Generation) -> int:
    args = gen.snaked_args
    for key in _INTERVAL_ARGS:
        seconds = parse_interval(args.get(key))
        if seconds:
            multiplier = args.get("multiplier")
            return seconds * multiplier if isinstance(multiplier, int) and multiplier > 0 else seconds
    return _DAY


def _bar_moment(gen: Generation, index: int, seconds: int) -> dt.datetime:
    """Bar ``index``: from the start the call asks (forward), else back from the latest bar."""
    start = gen.call_date(_START_ARGS)
    if start is not None and start <= gen.today:
        return dt.datetime.combine(start, dt.time()) + dt.timedelta(seconds=seconds * index)
    if seconds >= _DAY:
        latest = dt.datetime.combine(gen.today, dt.time())
    else:
        stamp = int(gen.now.replace(tzinfo=dt.UTC).timestamp()) // seconds * seconds
        latest = dt.datetime.fromtimestamp(stamp, dt.UTC).replace(tzinfo=None)
    return latest - dt.timedelta(seconds=seconds * index)


def _price(gen: Generation, fact: InstrumentFact, moment: dt.datetime) -> float:
    """The walk's price at a moment (once per call: a bar's open is the previous bar's close)."""
    memo: dict[tuple[str, dt.datetime], float] = call_once(gen, "candle:prices", dict)
    key = (fact.symbol, moment)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _walk_price(gen, fact, moment)
    return found


def _walk_price(gen: Generation, fact: InstrumentFact, moment: dt.datetime) -> float:
    """The day's close, reached along the day from the previous close."""
    day = moment.date()
    close = _close(gen, fact, day)
    previous = _close(gen, fact, day - dt.timedelta(days=1))
    share = (moment - dt.datetime.combine(day, dt.time())).total_seconds() / _DAY
    noise = fact.volatility * 0.004 * _unit(gen, fact.symbol, moment, "p")
    return (previous + (close - previous) * share) * (1 + noise) if share else previous


def _close(gen: Generation, fact: InstrumentFact, day: dt.date) -> float:
    """The walk's close of a day (once per call: the bars of a day share it)."""
    return day_close(gen, fact.symbol, day) or fact.price_usd


def _volume(gen: Generation, fact: InstrumentFact, moment: dt.datetime, seconds: int, price: float) -> int | float:
    """Units traded in the bar: a day's turnover (a share of the coins or shares out) split by the bar's length."""
    daily_usd = (fact.supply * price * 0.03) if fact.supply else 2e9 * (0.6 + 0.8 * abs(_unit(gen, fact.symbol,
                                                                                             moment, "v")))
    units = daily_usd / max(price, 1e-9) * min(seconds, _DAY) / _DAY * (1 + 0.3 * _unit(gen, fact.symbol, moment, "u"))
    return int(units) if units >= 10 else round(units, 4)


def _within(value: int | float, schema: Any) -> int | float:
    """``value`` kept inside its schema's bounds."""
    if isinstance(schema, dict):
        lo, hi = schema.get("minimum"), schema.get("maximum")
        if isinstance(lo, (int, float)) and value < lo:
            value = type(value)(lo)
        if isinstance(hi, (int, float)) and value > hi:
            value = type(value)(hi)
    return value


def _unit(gen: Generation, symbol: str, moment: dt.datetime, salt: str) -> float:
    """A stable number in [-1, 1) for one instrument at one moment in this session."""
    key = f"{gen.session_seed}|{symbol}|{moment.isoformat()}|{salt}".encode()
    return zlib.crc32(key) / 2**31 - 1
