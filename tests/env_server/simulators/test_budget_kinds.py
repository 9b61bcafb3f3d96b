"""A budget's transactions sit in accounts and categories a person keeps, not in companies."""

from __future__ import annotations

import datetime as dt
import json
from importlib import resources

from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.simulators.naming import resolve_kind
from state import Database


def _values(kind: str) -> set[str]:
    return set(json.loads(resources.files("tool_specs").joinpath(f"vocab/{kind}.json").read_text())["values"])


def test_a_transactions_account_and_category_names_are_budget_ones_over_broad_hints():
    hints = {"account_name": "company", "category_name": "category"}
    assert resolve_kind("account_name", "transaction", "", hints) == "budget_account"
    assert resolve_kind("category_name", "transaction", "", hints) == "budget_category"
    assert resolve_kind("category", "expense", "", {}) == "budget_category"


def test_a_product_category_and_a_cloud_account_keep_their_own_kinds():
    assert resolve_kind("category", "product", "", {}) != "budget_category"
    assert resolve_kind("account_name", "instance", "", {}) != "budget_account"
    assert resolve_kind("category_name", "transaction", "", {"category_name": "shop_name"}) == "shop_name"


def test_ynab_transactions_name_budget_accounts_and_categories():
    accounts, categories = _values("budget_account"), _values("budget_category")
    env = ToolEnvironment(load_catalog(), Database(), ServerSettings())
    for seed in range(4):
        env.create_session(tools=["ynab_list_transactions"], session_id=f"s{seed}", seed=seed, today=dt.date(2026, 12, 7))
        for row in env.call_tool(f"s{seed}", "ynab_list_transactions", {"budget_id": "last-used"}).result["transactions"]:
            assert row["account_name"] in accounts
            assert row["category_name"] in categories
