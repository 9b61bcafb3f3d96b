"""A stored list pages, filters and windows its rows by the same rules as a search.

Pagination has one owner (``simulators/paging``): a search's answer, a user's own stored
list and any generated record that holds a list count their pages alike. A stored row is
judged against the call's term and date window by one test (``answers.fits_question``).
"""

from __future__ import annotations

import math
from typing import Any

from env_server import ToolEnvironment
from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.simulators import paging
from state import Database

INVOICE_DAYS = ("2025-01-03", "2025-01-09", "2025-01-15", "2025-01-21", "2025-01-27")


def _invoices(catalog: Catalog) -> ToolEnvironment:
    """A session whose user wrote five invoices, a week apart (on top of the base world's)."""
    env = ToolEnvironment(catalog, Database(), ServerSettings())
    family = catalog.tools["zohobooks_list_invoices"].family
    env.create_session(tools=[n for n, s in catalog.tools.items() if s.family == family], session_id="s", seed=3)
    for i, day in enumerate(INVOICE_DAYS):
        made = env.call_tool("s", "zohobooks_create_invoice", {
            "organization_id": "org_1", "customer_id": "cust_1", "date": day, "invoice_number": f"INV-{i:03d}",
            "line_items": [{"item_id": "item_1", "quantity": 1, "rate": 10.0}]})
        assert not made.is_error, made.message
    return env


def _list(env: ToolEnvironment, **args: Any) -> dict[str, Any]:
    outcome = env.call_tool("s", "zohobooks_list_invoices", {"organization_id": "org_1", **args})
    assert not outcome.is_error, outcome.message
    return outcome.result


def _ids(rows: list[dict[str, Any]]) -> list[str]:
    return [r["invoice_id"] for r in rows]


def _session(catalog: Catalog, tool: str, sid: str) -> ToolEnvironment:
    env = ToolEnvironment(catalog, Database(), ServerSettings())
    family = catalog.tools[tool].family
    env.create_session(tools=[n for n, s in catalog.tools.items() if s.family == family], session_id=sid, seed=3)
    return env


def _figures_agree(out: dict[str, Any], rows: str, *, page: int, per_page: int, total: str, pages: str) -> None:
    """The paging figures of one answer, by the rule every list follows."""
    shown = len(out[rows])
    assert shown <= per_page
    assert out[total] >= (page - 1) * per_page + shown
    assert out[pages] == max(page, math.ceil(out[total] / per_page))


def test_the_second_page_of_a_stored_list_holds_the_rows_after_the_first(builtin_catalog: Catalog):
    env = _invoices(builtin_catalog)
    everything = _ids(_list(env)["invoices"])
    assert len(everything) >= 5
    first, second = _list(env, page=1, per_page=2), _list(env, page=2, per_page=2)
    assert _ids(first["invoices"]) == everything[:2] and _ids(second["invoices"]) == everything[2:4]


def test_a_search_and_a_stored_list_count_their_pages_alike(builtin_catalog: Catalog):
    env = _session(builtin_catalog, "reqres_list_users", "s")
    for i in range(5):
        assert not env.call_tool("s", "reqres_create_user", {"name": f"Ada {i}", "job": "engineer"}).is_error
    every = env.call_tool("s", "reqres_list_users", {"per_page": 12}).result
    stored = env.call_tool("s", "reqres_list_users", {"page": 2, "per_page": 2}).result
    assert stored["page"] == 2 and stored["per_page"] == 2
    assert stored["total"] == len(every["data"]) and stored["data"] == every["data"][2:4]
    _figures_agree(stored, "data", page=2, per_page=2, total="total", pages="total_pages")
    search = _session(builtin_catalog, "guardian_search_content", "g")
    found = search.call_tool("g", "guardian_search_content", {"q": "climate", "page": 2, "page_size": 2}).result
    assert found["current_page"] == 2
    _figures_agree(found, "results", page=2, per_page=2, total="total", pages="pages")


def test_a_date_window_on_stored_rows_keeps_those_inside_it(builtin_catalog: Catalog):
    env = _invoices(builtin_catalog)
    rows = _list(env, date_start="2025-01-08", date_end="2025-01-22")["invoices"]
    mine = [r for r in rows if r.get("invoice_number", "").startswith("INV-")]
    assert sorted(r["date"][:10] for r in mine) == ["2025-01-09", "2025-01-15", "2025-01-21"]
    assert all("2025-01-08" <= r["date"][:10] <= "2025-01-22" for r in rows)
    later = _list(env, date_start="2025-01-20")["invoices"]
    assert {r["date"][:10] for r in later if r.get("invoice_number", "").startswith("INV-")} == {
        "2025-01-21", "2025-01-27"}


def test_a_generated_record_counts_its_page_from_the_offset_asked():
    record: dict[str, Any] = {"total": 100, "page": 4, "per_page": 50, "offset": 0, "items": [{}] * 3}
    props = {k: {"type": "integer", "minimum": 0} for k in ("total", "page", "per_page", "offset")}
    args = {"offset": 10, "limit": 3}
    paging.page_record(record, args, props)
    assert record == {"total": 100, "page": 1, "per_page": 3, "offset": 10, "items": [{}] * 3}
    assert paging.page_violations(record, args) == []
    short: dict[str, Any] = {"total": 100, "items": [{}] * 2}
    paging.page_record(short, args, props)
    assert short["total"] == 12  # a short page is the last: the rows before it and its own
