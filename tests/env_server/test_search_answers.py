"""Searches and lists answer their call; writes read back; arguments echo and are checked."""

from __future__ import annotations

import datetime as dt
import math

import pytest
from mcp import Client

from env_server.catalog import Catalog
from env_server.simulators.answers import answer_rows, term_words
from env_server.simulators.draws import slugify
from env_server.simulators.paging import answer_pages, order_rows
from env_server.simulators.term_weave import titled_by
from env_server.specs.audit_lists import question_hits
from tests.env_server.free_play import ok, session
from tests.servers import running_server

# -- pure rules ----------------------------------------------------------------------------


def test_term_words_drop_field_prefixes_operators_and_stopwords():
    assert term_words("ti:quantum AND au:smith") == ["quantum", "smith"]
    assert term_words("the kids-activities") == ["kids", "activities"]


def test_fresh_rows_take_the_term_the_filter_and_the_window():
    props = {"title": {"type": "string"}, "hazard": {"type": "string", "enum": ["IFR", "TURB"]},
             "tags": {"type": "array", "items": {"type": "string"}},
             "published": {"type": "string", "format": "date-time"}, "ends": {"type": "string", "format": "date-time"}}
    rows = [{"title": "Storm warning", "hazard": "IFR", "tags": ["a"], "published": "2025-03-01T10:00:00Z",
             "ends": "2025-03-02T10:00:00Z"}]
    answer_rows(rows, {"q": "icing", "hazard": "turb", "tags": "b", "start_date": "2026-01-01",
                       "end_date": "2026-01-10"}, {"properties": props})
    row = rows[0]
    # The term goes to the tags before the title: a title's slug and URL were drawn from it.
    assert "icing" in row["tags"] and row["title"] == "Storm warning"
    assert row["hazard"] == "TURB" and "b" in row["tags"]
    assert "2026-01-01" <= row["published"][:10] <= "2026-01-10"
    assert row["ends"] > row["published"]  # the end moved with the start


def test_a_term_woven_into_a_title_carries_the_page_url_along():
    props = {"name": {"type": "string"}, "url": {"type": "string", "format": "uri"}}
    rows = [{"name": "Team lunch", "url": "https://www.checkiday.com/observances/team-lunch"}]
    answer_rows(rows, {"q": "pizza"}, {"properties": props})
    # Retitled around the term as a real hit would be called, not "Pizza: Team lunch".
    assert rows[0]["name"] == titled_by("pizza", "Team lunch") and "Pizza" in rows[0]["name"]
    assert rows[0]["url"] == f"https://www.checkiday.com/observances/{slugify(rows[0]['name'])}"


def test_rows_are_sorted_as_asked_and_cut_to_the_limit():
    rows = [{"name": "b", "stars": 5}, {"name": "a", "stars": 9}, {"name": "c", "stars": 1}]
    assert [r["stars"] for r in order_rows(rows, {"sort": "stars"})] == [9, 5, 1]
    assert [r["name"] for r in order_rows(rows, {"sort_by": "name", "order": "asc", "limit": 2})] == ["a", "b"]
    assert [r["stars"] for r in order_rows(rows, {"sort": "-stars", "per_page": 1})] == [9]


def test_paging_fields_agree_with_the_page_asked_and_the_rows_shown():
    schema = {"properties": {"page": {"type": "integer"}, "total_results": {"type": "integer"},
                             "total_pages": {"type": "integer"}, "per_page": {"type": "integer"}}}
    out = {"page": 779, "total_results": 33, "total_pages": 390, "per_page": 215}
    answer_pages(out, schema, {"page": 2, "per_page": 10}, 10)
    assert out["page"] == 2 and out["per_page"] == 10 and out["total_results"] >= 20
    assert out["total_pages"] == math.ceil(out["total_results"] / 10)


def test_the_audit_names_each_way_a_search_can_disagree_with_its_call(builtin_catalog: Catalog):
    spec = builtin_catalog.tools["currents_search_news"]
    rows = [{"title": f"Budget vote {i}", "language": "pt", "published": "2026-01-0{i}T00:00:00Z"} for i in (1, 2, 3)]
    hits = question_hits(spec, {"keywords": "harbour", "language": "en", "limit": 2}, {"news": rows})
    details = " | ".join(d for _, d in hits)
    assert "3 rows for a limit of 2" in details
    assert "does not show the search term 'harbour'" in details
    assert "language='pt' but the call filtered language='en'" in details


# -- through the simulator -----------------------------------------------------------------


def test_a_news_search_shows_its_keywords_in_every_article(builtin_catalog: Catalog):
    env = session(builtin_catalog, "currents_search_news")
    news = ok(env, "currents_search_news", keywords="kids activities")["news"]
    assert news and all("kids" in (a["title"] + a["description"]).lower() for a in news)


def test_a_loosely_written_filter_value_holds_in_every_row(builtin_catalog: Catalog):
    env = session(builtin_catalog, "aviationweather_list_airsigmets")
    rows = ok(env, "aviationweather_list_airsigmets", hazard="turb")["airsigmets"]
    assert rows and {r["hazard"] for r in rows} == {"TURB"}


def test_a_repeated_query_with_a_smaller_limit_returns_fewer_rows(builtin_catalog: Catalog):
    env = session(builtin_catalog, "currents_search_news")
    first = ok(env, "currents_search_news", keywords="harbour", page_size=5)["news"]
    again = ok(env, "currents_search_news", keywords="harbour", page_size=2)["news"]
    assert len(first) > 2 and [a["id"] for a in again] == [a["id"] for a in first[:2]]


def test_rows_merged_under_one_id_leave_the_page_count_what_a_repeat_shows(builtin_catalog: Catalog):
    # Two drawn articles shared a url (the rows' id): the first answer counted 4, a repeat 3.
    env = session(builtin_catalog, "mediastack_get_historical_news")
    first = ok(env, "mediastack_get_historical_news", date="2025-02-10")
    again = ok(env, "mediastack_get_historical_news", date="2025-02-10")
    assert first["pagination"]["count"] == len(first["data"]) and first == again


def test_an_unasked_page_is_the_first_and_the_page_count_follows_the_total(builtin_catalog: Catalog):
    env = session(builtin_catalog, "artic_list_exhibitions")
    out = ok(env, "artic_list_exhibitions")
    pages = out["pagination"]
    assert pages["current_page"] == 1
    assert pages["total_pages"] == math.ceil(pages["total"] / len(out["data"]))


def test_reminders_of_a_window_start_inside_it(builtin_catalog: Catalog):
    env = session(builtin_catalog, "outlook_calendar_list_reminders")
    rows = ok(env, "outlook_calendar_list_reminders", startDateTime="2025-12-17T19:30:00Z",
              endDateTime="2026-01-03T09:15:00Z")["value"]
    assert rows and all("2025-12-17" <= r["eventStartTime"][:10] <= "2026-01-03" for r in rows)


def test_a_cancelled_return_reads_back_cancelled_in_its_state(builtin_catalog: Catalog):
    env = session(builtin_catalog, "ebaypostorder_create_return")
    made = ok(env, "ebaypostorder_create_return", itemId="item_1", transactionId="tran_1", reason="DEFECTIVE_ITEM")
    ok(env, "ebaypostorder_cancel_return", returnId=made["returnId"])
    assert ok(env, "ebaypostorder_get_return", returnId=made["returnId"])["state"] == "CANCELLED"


def test_a_revoked_key_reads_back_disabled(builtin_catalog: Catalog):
    env = session(builtin_catalog, "unkey_create_key")
    made = ok(env, "unkey_create_key", apiId="api_123", name="ci")
    ok(env, "unkey_revoke_key", keyId=made["keyId"])
    assert ok(env, "unkey_get_key", keyId=made["keyId"])["enabled"] is False


def test_an_update_changes_only_what_it_sent(wtb_catalog: Catalog):
    env = session(wtb_catalog, "createOrder")
    made = ok(env, "createOrder", currency="BTC", amount=0.5, type="buy")
    before = ok(env, "getOrderDetails", order_id=made["order_id"])
    ok(env, "manageOrder", action="modify", order_id=made["order_id"], symbol="BTC/USDT", price=61000.0)
    after = ok(env, "getOrderDetails", order_id=made["order_id"])
    changed = {k for k in before if before[k] != after.get(k) and not isinstance(before[k], (dict, list))}
    assert changed <= {"price", "updated_at"}, changed


def test_elapsed_time_covers_the_requested_delay(builtin_catalog: Catalog):
    env = session(builtin_catalog, "httpbin_delay_response")
    assert ok(env, "httpbin_delay_response", delay=9)["elapsed_ms"] >= 9000


@pytest.mark.anyio
async def test_bluesky_posts_are_at_uris_and_a_web_url_is_refused_by_name(builtin_catalog: Catalog):
    env = session(builtin_catalog, "bluesky_create_post", sid="bsky")
    with running_server(env) as base:
        async with Client(f"{base}/sessions/bsky/mcp") as client:
            made = await client.call_tool("bluesky_create_post", {"repo": "ana.bsky.social", "text": "hello"})
            uri = made.structured_content["uri"]
            thread = await client.call_tool("bluesky_get_post_thread", {"uri": uri})
            web = await client.call_tool("bluesky_get_post_thread", {"uri": "https://bsky.app/profile/ana/post/3k"})
    assert uri.startswith("at://did:plc:") and "/app.bsky.feed.post/" in uri
    assert not thread.is_error and thread.structured_content["text"] == "hello"
    assert web.is_error and "'uri'" in web.content[0].text and "at://" in web.content[0].text


def test_answers_are_deterministic(builtin_catalog: Catalog):
    args = {"keywords": "harbour", "page_size": 3}
    first = ok(session(builtin_catalog, "currents_search_news"), "currents_search_news", **args)
    assert ok(session(builtin_catalog, "currents_search_news"), "currents_search_news", **args) == first
    assert dt.date.fromisoformat(first["news"][0]["published"][:10])  # still a date
