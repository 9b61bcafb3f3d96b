"""Market magnitudes in their real units: caps in dollars (trillions for all of crypto),
supplies in coins, dominance as each coin's share of the whole market.

``magnitude_kind`` names a field's role once per schema node; ``MAGNITUDE_KINDS`` draw it
from the session market (``market.json`` keeps each coin's circulating supply), so a
coin's cap is its price times its supply and the dominance shares add up to under 100.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# The coins the table keeps are about this share of the whole crypto market.
_KEPT_SHARE = 0.93
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_LOOSE_HINTS = frozenset({None, "amount", "price", "percentage", "count", "score"})
_ROLES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), k) for p, k in (
    (r"^(btc|bitcoin)_dominance(_percentage|_pct)?$", "btc_dominance"),
    (r"^(eth|ethereum)_dominance(_percentage|_pct)?$", "eth_dominance"),
    (r"^total_market_cap(_usd)?$", "crypto_total_cap"),
    (r"^total_volume(_24h)?(_usd)?$", "crypto_total_volume"),
    (r"^defi_market_cap(_usd)?$", "defi_total_cap"),
    (r"^(market_?cap|current_market_?cap)(_usd)?$", "market_cap"),
    (r"^(circulating_supply|supply|available_supply)$", "circulating_supply"),
))


def magnitude_kind(field: str, parent: str, hint: str | None) -> str | None:
    """The role of a market figure; totals of the whole market only on the top record
    (a coin's own ``total_volume`` in a list of markets is that coin's)."""
    if hint not in _LOOSE_HINTS or not field:
        return None
    low = _CAMEL.sub("_", field).lower()
    kind = next((kind for pattern, kind in _ROLES if pattern.match(low)), None)
    if kind in ("crypto_total_cap", "crypto_total_volume") and parent:
        return "market_cap" if kind == "crypto_total_cap" else "coin_volume"
    return kind


def _cap(gen: Generation, symbol: str) -> float:
    fact = gen.facts.market_table.instruments.get(symbol)
    price = gen.market.usd_price(symbol, gen.today) if fact is not None else None
    return price * fact.supply if fact is not None and price is not None else 0.0


def total_cap(gen: Generation) -> float:
    """The whole crypto market in USD today: BTC and ETH at the session's prices, the
    other kept coins at their base prices (summed once per table), and the rest of the
    market on top (once per record)."""
    table = gen.facts.market_table
    total: float = gen.scope.root.once(
        "crypto_total_cap", lambda: (_cap(gen, "BTC") + _cap(gen, "ETH") + table.crypto_cap_rest) / _KEPT_SHARE)
    return total


def _share(gen: Generation, symbol: str) -> float:
    total = total_cap(gen)
    return round(_cap(gen, symbol) / total * 100, 2) if total else 0.0


def _instrument_cap(gen: Generation) -> float:
    fact = gen.scope.instrument()
    if fact.supply:
        return round(_cap(gen, fact.symbol), 0)
    price = gen.market.usd_price(fact.symbol, gen.today) or fact.price_usd
    return round(price * gen.rng.uniform(0.8e9, 6e9), 0)  # a large listed company's shares


def _supply(gen: Generation) -> float:
    fact = gen.scope.instrument()
    return fact.supply or round(gen.rng.uniform(0.8e9, 6e9), 0)


MAGNITUDE_KINDS: dict[str, Callable[[Generation], Any]] = {
    "btc_dominance": lambda g: _share(g, "BTC"),
    "eth_dominance": lambda g: _share(g, "ETH"),
    "crypto_total_cap": lambda g: round(total_cap(g), 0),
    "crypto_total_volume": lambda g: round(total_cap(g) * g.rng.uniform(0.025, 0.06), 0),
    "defi_total_cap": lambda g: round(total_cap(g) * g.rng.uniform(0.03, 0.05), 0),
    "market_cap": _instrument_cap,
    "coin_volume": lambda g: round(_instrument_cap(g) * g.rng.uniform(0.01, 0.08), 0),
    "circulating_supply": _supply,
}
