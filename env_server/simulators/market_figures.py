"""A coin's figures as a market-data API lists them: its rank by typical market cap, its price
change over the last hour, day or week (from the session market's own price walk), its
trading volume and its fully diluted value.

``figure_kind(field, hint)`` names a field's role once per schema node (``plans``);
``FIGURE_KINDS`` draw it for the record's instrument (``RecordScope.instrument``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.magnitudes import MAGNITUDE_KINDS
from env_server.simulators.naming import snake
from env_server.simulators.scripture import call_once

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_LOOSE_HINTS = frozenset({None, "amount", "price", "percentage", "count", "score", "rating"})
_CHANGE = re.compile(r"^(percent_change|change_percent|price_change_percentage|pct_change|change_pct|change_percentage)"
                     r"_(1h|24h|7d|30d)(_in_currency|_usd)?$|^()(?:price_)?change_(1h|24h|7d|30d)_(percent|pct|percentage)$")
_ROLES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), k) for p, k in (
    (r"^(cmc_rank|market_cap_rank|coin_rank)$", "coin_rank"),
    (r"^(volume_24h|volume_usd_24h|volume_24h_usd|quote_volume_24h|volume_usd)$", "coin_volume"),
    (r"^fully_diluted_(market_cap|valuation)(_usd)?$", "fully_diluted_cap"),
))
_COIN_WORDS = frozenset({"coin", "coins", "crypto", "cryptocurrency", "asset", "assets", "token", "currency"})
_SPAN_DAYS = {"1h": 0, "24h": 1, "7d": 7, "30d": 30}


def _snake(field: str) -> str:
    """snake_case with spans written one way: "changePercent24Hr" -> "change_percent_24h"."""
    low = re.sub(r"(?<=[a-z])(?=\d)", "_", snake(field))
    return re.sub(r"(\d+)_?(h|hr|d)\b", lambda m: m.group(1) + ("h" if m.group(2) in ("h", "hr") else "d"), low)


def figure_kind(field: str, entity: str, hint: str | None) -> str | None:
    """The role of a coin's figure (a rank, a change over a span, a volume), or None."""
    if hint not in _LOOSE_HINTS or not field:
        return None
    low = _snake(field)
    if low == "rank" and set(entity.lower().split("_")) & _COIN_WORDS:
        return "coin_rank"
    change = _CHANGE.match(low)
    if change:
        return f"coin_change_{change.group(2) or change.group(5)}"
    return next((kind for pattern, kind in _ROLES if pattern.match(low)), None)


def day_close(gen: Generation, symbol: str, day: dt.date) -> float | None:
    """The session walk's price of ``symbol`` on ``day``, once per call (rows and bars share it)."""
    memo: dict[tuple[str, dt.date], float | None] = call_once(gen, "market:closes", dict)
    key = (symbol, day)
    if key not in memo:
        memo[key] = gen.market.usd_price(symbol, day)
    return memo[key]


def coin_rank(gen: Generation) -> int:
    """The instrument's place among the table's coins by market cap (BTC is 1)."""
    return rank_of(gen, gen.scope.instrument().symbol)


def rank_of(gen: Generation, symbol: str) -> int:
    """A coin's place among the table's coins by market cap (BTC is 1)."""
    ranks: dict[str, int] = call_once(gen, "coin_ranks", lambda: _ranks(gen))
    return ranks.get(symbol) or len(ranks) + gen.rng.randint(20, 900)


def _ranks(gen: Generation) -> dict[str, int]:
    """The market's coins by their typical cap (the table's price × supply; a session's walk
    moves each coin within about a year's swing, which rarely reorders them)."""
    coins = [f for f in gen.facts.market_table.instruments.values() if f.kind == "crypto" and f.supply]
    caps = sorted(coins, key=lambda f: -f.price_usd * f.supply)
    return {f.symbol: i + 1 for i, f in enumerate(caps)}


def coin_change(days: int) -> Callable[[Generation], float]:
    """The price change in percent over ``days`` on the session's walk (an hour: a small move)."""

    def draw(gen: Generation) -> float:
        fact = gen.scope.instrument()
        now = day_close(gen, fact.symbol, gen.today)
        if not days or now is None:
            return round(gen.rng.gauss(0.0, fact.volatility * 0.6), 2)
        then = day_close(gen, fact.symbol, gen.today - dt.timedelta(days=days))
        return round((now / then - 1) * 100, 2) if then else 0.0

    return draw


FIGURE_KINDS: dict[str, Callable[[Generation], Any]] = {
    "coin_rank": coin_rank,
    "fully_diluted_cap": lambda g: round(MAGNITUDE_KINDS["market_cap"](g) * g.rng.uniform(1.0, 1.4), 0),
    **{f"coin_change_{span}": coin_change(days) for span, days in _SPAN_DAYS.items()},
}
