"""A price is written in its record's currency: a listing in VND costs a million dong, not 42.

Retail prices, totals, budgets and charges are drawn at dollar magnitudes; a record that says
its currency (its own ``currency``/``currency_code`` field, or the call's) shows them in that
currency at the session's market rate (``SessionMarket.per_usd``), so a ¥ price is about 150
times the dollar one and the totals and line items of one record keep their proportions. A
price whose schema caps it at dollar magnitudes (Etsy's 1,000), or in a currency the market
table does not rate, stays, and its currency is the dollar.
Values the call sent stay as sent; only records of buying and selling are written this way
(quotes, exchange rates, coins and balances keep the market's own levels: ``fx``,
``market_figures``).

``money_step(entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

CURRENCY_FIELDS = ("currency", "currency_code", "currency_id", "price_currency", "currencycode")
MONEY = re.compile(r"(^|_)(price|prices|cost|fee|fare|total|subtotal|amount|budget|salary|charge|charges|bid|"
                   r"bid_avg|line_total|shipping|value)(_|$)")
# Records of buying and selling (a listing, an order, a basket, a project's budget, a shipping
# rate): their prices are a shop's, drawn at dollar magnitudes. Quotes, coins, trades, balances
# and exchange rates keep the market's own levels and are not listed here.
COMMERCE = frozenset({"product", "products", "item", "items", "listing", "listings", "offer", "offers", "deal",
                      "deals", "order", "orders", "cart", "basket", "line", "sku", "variant", "shipment", "shipping",
                      "project", "projects", "bid", "bids", "gig", "booking", "reservation", "part", "parts",
                      "component", "components", "menu", "dish", "meal", "room", "hotel", "course", "app"})


def money_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that writes a record's prices in its currency, or None."""
    if not set(snake(entity).split("_")) & COMMERCE:
        return None
    currency_key = next((k for k in props if snake(k) in CURRENCY_FIELDS and _is_text(props[k])), None)
    money = tuple(k for k, sub in props.items() if isinstance(sub, dict) and sub.get("type") == "number"
                  and MONEY.search(snake(k)) and not snake(k).endswith(("_count", "_percent", "_pct")))
    if currency_key is None or not money:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        code = record.get(currency_key)
        if not isinstance(code, str) or code.upper() == "USD":
            return
        per = gen.market.per_usd(code, gen.today)
        if per is not None and 0.5 <= per <= 2.0:  # within a factor of two of the dollar: magnitudes hold
            return
        sent = gen.snaked_args
        shown = [k for k in money if isinstance(record.get(k), float) and snake(k) not in sent]
        if per is None or not all(_fits(record[k] * per, props[k]) for k in shown):
            # The schema bounds its prices at dollar magnitudes: they are dollars, then.
            if snake(currency_key) not in sent and _takes(props[currency_key], "USD"):
                record[currency_key] = "USD"
            return
        for key in shown:
            value = record[key] * per
            record[key] = round(value, 2) if per < 100 else float(round(value))

    return step


def _fits(value: float, schema: Mapping[str, Any]) -> bool:
    high = schema.get("maximum", schema.get("exclusiveMaximum"))
    return high is None or value <= high


def _takes(schema: Any, code: str) -> bool:
    enum = schema.get("enum") if isinstance(schema, dict) else None
    return not isinstance(enum, list) or code in enum


def _is_text(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type", "string") == "string"
