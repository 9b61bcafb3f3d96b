"""A budget's transactions sit in accounts and categories a person keeps, not in companies.

Budgeting and banking tools (YNAB, Plaid-style transaction lists, expense trackers) name an
account the way its owner labels it ("Joint Checking", "Visa Rewards Card") and file each
transaction under a budget category ("Groceries", "Rent", "Dining Out"). ``budget_kind`` is
asked once per field when a plan is compiled (``naming._fixed_kind``); it beats the broad
hints older profiles gave these fields ("company", "category").
"""

from __future__ import annotations

import functools

from env_server.catalog import words

_ENTITIES = frozenset({"transaction", "transactions", "budget", "budgets", "expense", "expenses", "spending",
                       "ledger", "txn", "bank", "banking", "subtransaction", "scheduled"})
_ACCOUNT_FIELDS = frozenset({"account_name", "account_nickname", "account_label", "account_display_name",
                             "transfer_account_name", "from_account_name", "to_account_name"})
_CATEGORY_FIELDS = frozenset({"category_name", "category", "budget_category", "spending_category",
                              "expense_category", "category_group_name"})
_BROAD_HINTS = frozenset({None, "company", "category", "title", "name", "tag", "word", "entity_title"})


@functools.lru_cache(maxsize=4096)
def budget_kind(low: str, entity: str, hint: str | None) -> str | None:
    """``budget_account`` or ``budget_category`` for a budget record's account and category
    names (a snake_case ``low``), unless a specific hint says otherwise; else None."""
    if hint not in _BROAD_HINTS or not _ENTITIES & set(words.snake(entity).split("_")):
        return None
    if low in _ACCOUNT_FIELDS:
        return "budget_account"
    return "budget_category" if low in _CATEGORY_FIELDS else None
