"""Wholes that add up: a basket's total is its lines, a list of shares is at most the whole.

* ``LinesTotal``: a basket, cart, order or checkout that carries its lines (``packages``,
  ``items``, ``line_items``) has a subtotal equal to the sum of quantity × price over them, and
  a total equal to that subtotal less its discount plus its tax and shipping (the ones the
  record has). A basket's discount is at most its subtotal, and a line holds one to five of
  its item (a drawn quantity above five becomes one to three).
* ``SharesOfWhole``: rows that each give a percentage of one whole (USAspending's
  ``percentage_of_total_budget_authority``) beside their amount give each row its amount's
  share of the rows' sum, so the shares add up to at most 100 and follow the amounts.

They have the shape of ``invariants`` rules and join ``invariants.RULES``: the generator
enforces them once per record, the audit and the property tests check them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

LINES = ("packages", "items", "line_items", "lines", "products", "cart_items", "order_items", "basket_items")
LINE_QTY = ("quantity", "qty", "count")
LINE_PRICE = ("price", "unit_price", "price_each", "price_per_unit", "unit_amount")
SUBTOTAL = ("subtotal", "sub_total", "base_price", "items_total", "subtotal_amount", "amount_subtotal")
TOTAL = ("total", "total_price", "grand_total", "total_amount", "amount_total", "order_total", "total_due")
DISCOUNT = ("discount", "discount_amount", "sale_discount", "total_discount", "discounts")
ADDED = ("tax", "tax_amount", "total_tax", "vat", "vat_amount", "shipping", "shipping_amount", "shipping_cost")
SHARES = ("percentage_of_total_budget_authority", "percentage_of_total", "percent_of_total", "share_of_total",
          "pct_of_total", "percentage_of_total_obligations")
AMOUNTS = ("budget_authority_amount", "obligated_amount", "amount", "total_obligations", "value", "total_amount")
_ROWS = ("results", "data", "rows", "agencies", "items")


def _first(record: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    return next((name for name in names if name in record), None)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _line_sum(lines: list[Any]) -> float | None:
    total = 0.0
    for line in lines:
        if not isinstance(line, dict):
            return None
        qty_key, price_key = _first(line, LINE_QTY), _first(line, LINE_PRICE)
        qty = _number(line.get(qty_key)) if qty_key else 1.0
        price = _number(line.get(price_key)) if price_key else None
        if qty is None or price is None:
            return None
        total += qty * price
    return round(total, 2)


def _extras(record: Mapping[str, Any]) -> float:
    """What the total adds to the subtotal: tax and shipping, less the discount."""
    added = sum(_number(record[k]) or 0.0 for k in ADDED if k in record)
    cut = _number(record.get(_first(record, DISCOUNT) or "")) or 0.0
    return added - cut


@dataclass(frozen=True)
class LinesTotal:
    name: str = "a basket's total is its lines"
    field: tuple[str, ...] = SUBTOTAL + TOTAL

    def _want(self, record: Mapping[str, Any]) -> tuple[float, str | None, str | None] | None:
        lines = next((record[k] for k in LINES if isinstance(record.get(k), list) and record[k]), None)
        sub, total = _first(record, SUBTOTAL), _first(record, TOTAL)
        if lines is None or (sub is None and total is None):
            return None
        summed = _line_sum(lines)
        return None if summed is None else (summed, sub, total)

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        want = self._want(record)
        if want is None:
            return
        summed, sub, total = want
        lines = next(record[k] for k in LINES if isinstance(record.get(k), list) and record[k])
        if _few_of_each(lines):  # a shopper's basket holds one to three of a line, not dozens
            summed = _line_sum(lines) or summed
        discount = _first(record, DISCOUNT)
        if discount is not None and (_number(record[discount]) or 0.0) > summed:
            record[discount] = round(summed * 0.1, 2)  # a sale takes a tenth off, never more than the lines
        if sub is not None:
            record[sub] = _typed(record[sub], summed)
        if total is not None:
            record[total] = _typed(record[total], summed + _extras(record))

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        want = self._want(record)
        if want is None:
            return None
        summed, sub, total = want
        if sub is not None and _off(record[sub], summed):
            return f"{self.name}: {sub}={record[sub]} but the lines sum to {summed:.2f}"
        if total is not None and _off(record[total], summed + _extras(record)):
            return f"{self.name}: {total}={record[total]} but the lines, tax and discount make {summed + _extras(record):.2f}"
        return None


_MOST_OF_A_LINE = 5


def _few_of_each(lines: list[dict[str, Any]]) -> bool:
    """Bring a line's integer quantity above five down to one to three; True when any changed."""
    changed = False
    for line in lines:
        key = _first(line, LINE_QTY)
        qty = line.get(key) if key else None
        if isinstance(qty, int) and not isinstance(qty, bool) and qty > _MOST_OF_A_LINE:
            line[key] = 1 + qty % 3  # type: ignore[index]
            changed = True
    return changed


def _typed(old: Any, value: float) -> Any:
    if isinstance(old, str):
        return f"{value:.2f}"
    return int(round(value)) if isinstance(old, int) and not isinstance(old, bool) else round(value, 2)


def _off(have: Any, want: float) -> bool:
    try:
        value = float(have)
    except (TypeError, ValueError):
        return False
    return abs(value - want) > max(0.011, abs(want) * 0.001)


@dataclass(frozen=True)
class SharesOfWhole:
    name: str = "shares of a whole add up to at most 100"
    field: tuple[str, ...] = _ROWS

    def _rows(self, record: Mapping[str, Any]) -> tuple[list[dict[str, Any]], str, str] | None:
        for key in _ROWS:
            rows = record.get(key)
            if not isinstance(rows, list) or not rows or not isinstance(rows[0], dict):
                continue
            share, amount = _first(rows[0], SHARES), _first(rows[0], AMOUNTS)
            if share is not None and amount is not None:
                if all(isinstance(r, dict) and _number(r.get(share)) is not None and _number(r.get(amount)) is not None
                       for r in rows):
                    return rows, share, amount
        return None

    def _shares(self, rows: list[dict[str, Any]], amount: str) -> list[float] | None:
        whole = sum(abs(float(r[amount])) for r in rows)
        return None if whole <= 0 else [abs(float(r[amount])) / whole * 100 for r in rows]

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        found = self._rows(record)
        if found is None:
            return
        rows, share, amount = found
        shares = self._shares(rows, amount)
        if shares is None:
            return
        for row, value in zip(rows, shares, strict=True):  # rounded down, so they never pass 100
            row[share] = int(value * 100) / 100 if isinstance(row[share], float) else int(value)

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        found = self._rows(record)
        if found is None:
            return None
        rows, share, amount = found
        total = sum(float(r[share]) for r in rows)
        if total > 100.05:
            return f"{self.name}: the rows' {share} sum to {total:.2f}"
        shares = self._shares(rows, amount)
        if shares is not None and any(abs(float(r[share]) - s) > 1.01 for r, s in zip(rows, shares, strict=True)):
            return f"{self.name}: a row's {share} does not follow its {amount}"
        return None


SUM_RULES: tuple[Any, ...] = (LinesTotal(), SharesOfWhole())
