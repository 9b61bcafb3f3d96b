"""One market per session: FX rates and prices that every tool of the session agrees on.

Base levels are facts we keep as data (``tool_specs/reference/market.json``: units per US
dollar, typical prices). A session seed moves each instrument to its own level within a
realistic band, and the level moves smoothly along the session clock: a sum of three
seeded waves in log space, so any date's level costs O(1) and a history series is a
believable walk. A conversion therefore agrees with a rate lookup, and two exchanges quote
the same coin within a spread.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import math
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

_EPOCH = dt.date(2026, 1, 1)
# Quote sides an exchange glues to a coin's ticker ("btcusd"); stablecoins are priced as USD.
_PAIR_QUOTES = ("USDT", "USDC", "USD", "EUR", "GBP", "JPY", "SGD", "AUD", "CAD", "CHF")
_WAVES = ((23.0, 0.45), (71.0, 0.35), (211.0, 0.2))  # period in days, share of the yearly move


# What market a tool is about, from its catalog category or the words of its provider and
# description: a crypto exchange's balances are coins, a broker's positions are stocks.
_CRYPTO_CATEGORIES = frozenset({"cryptocurrency", "blockchain"})
_CRYPTO_TEXT = re.compile(r"\b(crypto\w*|bitcoin|btc|ethereum|blockchain|altcoins?|stablecoins?|defi|web3|"
                          r"satoshis?|on-chain|tokens? prices?|coins?)\b")
_STOCK_TEXT = re.compile(r"\b(stocks?|equit(y|ies)|shares?|nasdaq|nyse|brokerage|etfs?|dividends?|earnings)\b")


@functools.lru_cache(maxsize=4096)
def market_domain(category: str, provider: str, about: str) -> str:
    """``"crypto"``, ``"stock"`` or ``""`` (a tool about both, or neither) for a tool's catalog
    category, provider name and description; decided once per tool (cached)."""
    if category.lower() in _CRYPTO_CATEGORIES:
        return "crypto"
    text = f"{provider} {about}".lower()
    crypto, stock = bool(_CRYPTO_TEXT.search(text)), bool(_STOCK_TEXT.search(text))
    return "crypto" if crypto and not stock else "stock" if stock and not crypto else ""


@dataclass(frozen=True)
class InstrumentFact:
    symbol: str
    name: str
    price_usd: float
    volatility: float  # yearly, as a fraction
    kind: str  # "stock", "crypto", "commodity", "currency"
    exchange: str = ""
    coin_id: str = ""
    supply: float = 0.0  # circulating units (coins); 0 when not kept


class MarketTable:
    """The base table, read once from ``tool_specs/reference/market.json``."""

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        if data is None:
            path = resources.files("tool_specs") / "reference" / "market.json"
            data = json.loads(path.read_text(encoding="utf-8"))
        self.fx_per_usd: dict[str, float] = dict(sorted(data["fx_per_usd"].items()))
        self.fx_volatility = float(data["currency_volatility"])
        found: dict[str, InstrumentFact] = {}
        for kind, key in (("stock", "stocks"), ("crypto", "crypto"), ("commodity", "commodities")):
            vol = float(data[f"{kind}_volatility"])
            for symbol, row in sorted(data[key].items()):
                found[symbol] = InstrumentFact(
                    symbol=symbol, name=row["name"], price_usd=float(row["price"]),
                    volatility=0.0 if row.get("stable") else vol, kind=kind,
                    exchange=row.get("exchange", ""), coin_id=row.get("id", ""),
                    supply=float(row.get("supply", 0.0)),
                )
        self.instruments = found
        self.by_coin_id = {f.coin_id: f for f in found.values() if f.coin_id}

    @functools.cached_property
    def crypto_cap_rest(self) -> float:
        """Base market cap (USD) of the kept coins other than BTC and ETH, computed once."""
        return sum(f.price_usd * f.supply for f in self.instruments.values()
                   if f.kind == "crypto" and f.symbol not in ("BTC", "ETH"))

    def symbols(self, kind: str) -> tuple[str, ...]:
        return tuple(s for s, f in self.instruments.items() if f.kind == kind)

    def find(self, text: str) -> InstrumentFact | None:
        """An instrument by ticker, coin id or name ("AAPL", "bitcoin", "Ethereum", "BTC-USD")."""
        key = text.strip()
        hit = self.instruments.get(key.upper()) or self.by_coin_id.get(key.lower())
        if hit is not None:
            return hit
        for sep in ("-", "/", "_"):
            if sep in key:
                return self.instruments.get(key.split(sep)[0].upper())
        low = key.lower()
        named = next((f for f in self.instruments.values() if f.name.lower() == low), None)
        return named or self.pair_of(key)[0]

    def pair_of(self, text: str) -> tuple[InstrumentFact | None, str | None]:
        """An exchange pair written as one word or split ("btcusd", "ETH-EUR", "BTC/USD"): the
        coin and the quote currency, or (None, None) when the text is not one."""
        key = "".join(ch for ch in text.upper() if ch.isalnum())
        for quote in _PAIR_QUOTES:
            coin = self.instruments.get(key[: -len(quote)]) if key.endswith(quote) and len(key) > len(quote) else None
            if coin is not None and coin.kind == "crypto":
                return coin, quote if quote in self.fx_per_usd else "USD"
        return None, None


def _unit(seed: int, *parts: object) -> float:
    """A stable number in [0, 1) from the seed and parts (no RNG state involved)."""
    blob = "|".join([str(seed), *map(str, parts)]).encode()
    return int.from_bytes(hashlib.blake2b(blob, digest_size=8).digest(), "big") / 2**64


@dataclass(frozen=True)
class SessionMarket:
    """The market of one session seed: levels for any instrument on any date."""

    table: MarketTable
    seed: int

    def _factor(self, symbol: str, volatility: float, day: dt.date) -> float:
        if volatility <= 0:
            return 1.0
        t = (day - _EPOCH).days
        # The session's own level: within about one yearly move of the base.
        log_level = (2 * _unit(self.seed, symbol, "level") - 1) * volatility * 0.8
        for period, share in _WAVES:
            phase = 2 * math.pi * _unit(self.seed, symbol, period)
            log_level += volatility * share * 0.5 * math.sin(2 * math.pi * t / period + phase)
        return math.exp(log_level)

    def usd_price(self, symbol: str, day: dt.date) -> float | None:
        fact = self.table.instruments.get(symbol)
        if fact is None:
            return None
        return fact.price_usd * self._factor(symbol, fact.volatility, day)

    def per_usd(self, currency: str, day: dt.date) -> float | None:
        base = self.table.fx_per_usd.get(currency.upper())
        if base is None:
            return None
        if currency.upper() == "USD":
            return 1.0
        return base * self._factor(currency.upper(), self.table.fx_volatility, day)

    def rate(self, base: str, quote: str, day: dt.date) -> float | None:
        """Units of ``quote`` for one ``base``: a currency pair, or an instrument in a currency."""
        quote_per_usd = self.per_usd(quote, day)
        if quote_per_usd is None:
            return None
        base_per_usd = self.per_usd(base, day)
        if base_per_usd is not None:
            return quote_per_usd / base_per_usd
        price = self.usd_price(base.upper(), day)
        return None if price is None else price * quote_per_usd

    def day_range(self, symbol: str, day: dt.date) -> tuple[float, float, float, float]:
        """(open, high, low, close) in USD for one day: open is the previous close."""
        close = self.usd_price(symbol, day) or 0.0
        previous = self.usd_price(symbol, day - dt.timedelta(days=1)) or close
        swing = abs(close - previous) + close * 0.004 * (1 + _unit(self.seed, symbol, day, "swing"))
        high = max(previous, close) + swing * _unit(self.seed, symbol, day, "high")
        low = min(previous, close) - swing * _unit(self.seed, symbol, day, "low")
        return previous, high, max(low, close * 0.5), close


@functools.lru_cache(maxsize=1)
def default_table() -> MarketTable:
    """The shipped base table (immutable after load, shared by every session)."""
    return MarketTable()
