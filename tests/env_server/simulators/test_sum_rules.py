"""Wholes that add up: basket totals and shares of a whole (``simulators/sum_rules.py``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from env_server.simulators import invariants
from env_server.simulators.sum_rules import LinesTotal, SharesOfWhole

_LINE = st.fixed_dictionaries({"quantity": st.integers(1, 99), "price": st.floats(0.01, 999.99).map(lambda p: round(p, 2))})
_MONEY = st.floats(0, 99999).map(lambda v: round(v, 2))


@given(lines=st.lists(_LINE, min_size=1, max_size=8), base=_MONEY, total=_MONEY)
def test_a_basket_total_is_the_sum_of_quantity_times_price(lines, base, total):
    record = {"base_price": base, "total_price": total, "packages": lines}
    invariants.enforce(record, {}, invariants.rules_for(record))
    want = sum(line["quantity"] * line["price"] for line in lines)
    assert abs(record["base_price"] - want) < 0.011
    assert abs(record["total_price"] - want) < 0.011
    assert invariants.violations(record, {}) == []


@given(lines=st.lists(_LINE, min_size=1, max_size=8), discount=_MONEY, tax=_MONEY, total=_MONEY)
def test_a_cart_total_takes_its_discount_off_and_adds_its_tax(lines, discount, tax, total):
    record = {"items": lines, "subtotal": 0.0, "discount": discount, "tax": tax, "total": total}
    invariants.enforce(record, {}, invariants.rules_for(record))
    assert record["discount"] <= record["subtotal"]
    assert abs(record["total"] - (record["subtotal"] - record["discount"] + tax)) < 0.011
    assert invariants.violations(record, {}) == []


def test_the_audit_reports_a_basket_whose_total_is_not_its_lines():
    broken = {"base_price": 32.86, "packages": [{"quantity": 2, "price": 10.0}]}
    assert LinesTotal().violation(broken, {}) is not None


@given(base=_MONEY, discount=_MONEY, total=_MONEY)
def test_a_sale_total_is_its_base_price_less_a_discount_no_larger(base, discount, total):
    record = {"base_price": base, "sale_discount": discount, "total_price": total}
    invariants.enforce(record, {}, invariants.rules_for(record))
    assert record["sale_discount"] <= record["base_price"]
    assert abs(record["total_price"] - (record["base_price"] - record["sale_discount"])) < 0.011
    assert invariants.violations(record, {}) == []


@given(rows=st.lists(st.fixed_dictionaries({"budget_authority_amount": st.floats(1e6, 1e12),
                                            "percentage_of_total_budget_authority": st.floats(0, 100)}),
                     min_size=1, max_size=20))
def test_shares_of_a_whole_sum_to_at_most_100_and_follow_the_amounts(rows):
    record = {"results": rows}
    invariants.enforce(record, {}, invariants.rules_for(record))
    shares = [r["percentage_of_total_budget_authority"] for r in rows]
    assert sum(shares) <= 100.0
    biggest = max(rows, key=lambda r: r["budget_authority_amount"])
    assert biggest["percentage_of_total_budget_authority"] == max(shares)
    assert invariants.violations(record, {}) == []


def test_the_audit_reports_shares_that_pass_100():
    broken = {"results": [{"amount": 1.0, "percentage_of_total": 60.0}, {"amount": 1.0, "percentage_of_total": 55.0}]}
    assert SharesOfWhole().violation(broken, {}) is not None
