"""The simulated world stays consistent: searches resolve, writes stick, sessions are isolated."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database
from state.store import Durability

TICKETS = [
    "ticketmaster_search_shows", "ticketmaster_get_show", "ticketmaster_book_tickets",
    "ticketmaster_get_booking", "ticketmaster_list_bookings", "ticketmaster_cancel_booking",
]
CUSTOMER = {"customer_name": "Ana Diaz", "customer_email": "ana@example.com"}


def _env(catalog, durability: Durability = Durability.PER_CALL) -> ToolEnvironment:
    return ToolEnvironment(catalog, Database(), ServerSettings(durability=durability))


def _call(env, sid, name, args):
    out = env.call_tool(sid, name, args)
    return out


def test_search_detail_book_list_cancel_trace_is_consistent(builtin_catalog):
    env = _env(builtin_catalog)
    env.create_session(tools=TICKETS, session_id="lv", seed=1, base_world="empty")
    shows = _call(env, "lv", "ticketmaster_search_shows", {"city": "Las Vegas", "size": 3}).result["shows"]
    assert shows and all(s["city"] == "Las Vegas" for s in shows)
    for show in shows[:2]:
        detail = _call(env, "lv", "ticketmaster_get_show", {"show_id": show["show_id"]}).result
        assert (detail["show_id"], detail["title"], detail["venue"]) == (show["show_id"], show["title"], show["venue"])
    booking = _call(env, "lv", "ticketmaster_book_tickets", {"show_id": shows[0]["show_id"], "quantity": 2, **CUSTOMER}).result
    assert booking["status"] == "confirmed" and booking["show_id"] == shows[0]["show_id"]
    listed = _call(env, "lv", "ticketmaster_list_bookings", {}).result["bookings"]
    assert [b["booking_id"] for b in listed] == [booking["booking_id"]]
    cancelled = _call(env, "lv", "ticketmaster_cancel_booking", {"booking_id": booking["booking_id"]}).result
    assert cancelled["status"] == "cancelled"
    again = _call(env, "lv", "ticketmaster_cancel_booking", {"booking_id": booking["booking_id"]})
    assert again.is_error and "already cancelled" in again.message
    listed = _call(env, "lv", "ticketmaster_list_bookings", {}).result["bookings"]
    assert listed[0]["status"] == "cancelled"
    assert _call(env, "lv", "ticketmaster_get_booking", {"booking_id": booking["booking_id"]}).result["status"] == "cancelled"
    repeat = _call(env, "lv", "ticketmaster_search_shows", {"city": "Las Vegas", "size": 3}).result["shows"]
    assert [s["show_id"] for s in repeat] == [s["show_id"] for s in shows]


def test_unknown_ids_are_404_tool_errors(builtin_catalog):
    env = _env(builtin_catalog)
    env.create_session(tools=TICKETS, session_id="s", seed=1)
    missing = _call(env, "s", "ticketmaster_get_show", {"show_id": "show_nope"})
    assert missing.is_error and missing.error_kind.value == "not_found" and "404" in missing.message
    bad_ref = _call(env, "s", "ticketmaster_book_tickets", {"show_id": "show_nope", "quantity": 1, **CUSTOMER})
    assert bad_ref.is_error and "show_nope" in bad_ref.message


def test_natural_keys_are_accepted_and_stable(builtin_catalog):
    env = _env(builtin_catalog)
    first = _call(env, "free", "openmeteo_get_air_quality", {"latitude": 1.0, "longitude": 2.0}).result
    assert first == _call(env, "free", "openmeteo_get_air_quality", {"latitude": 1.0, "longitude": 2.0}).result


def test_wildtoolbench_city_show_ids_resolve_in_show_detail(wtb_catalog):
    env = _env(wtb_catalog)
    env.create_session(group="wild_tool_bench_0", session_id="w0", seed=3)
    found = _call(env, "w0", "getCityShow", {"city": "Las Vegas", "startDate": "2026-02-01", "endDate": "2026-02-07"})
    assert not found.is_error, found.message
    items = found.result["results"]
    assert items and all(i["city"] == "Las Vegas" for i in items)
    detail = _call(env, "w0", "getShowDetail", {"activity_id": items[0]["show_id"]})
    assert not detail.is_error and detail.result["name"] == items[0]["name"]
    assert _call(env, "w0", "getShowDetail", {"activity_id": "made_up"}).is_error


def test_sessions_never_see_each_others_writes(builtin_catalog):
    env = _env(builtin_catalog)
    env.create_session(tools=TICKETS, session_id="a", seed=1, base_world="empty")
    env.create_session(tools=TICKETS, session_id="b", seed=1, base_world="empty")
    show = _call(env, "a", "ticketmaster_search_shows", {"city": "Reno"}).result["shows"][0]
    booking = _call(env, "a", "ticketmaster_book_tickets", {"show_id": show["show_id"], "quantity": 1, **CUSTOMER}).result
    # Same seed, so b's base world has the same shows, but a's booking must not exist in b.
    for name, args in [("ticketmaster_get_booking", {"booking_id": booking["booking_id"]}),
                       ("ticketmaster_cancel_booking", {"booking_id": booking["booking_id"]})]:
        out = _call(env, "b", name, args)
        assert out.is_error and out.error_kind.value == "not_found"
    assert _call(env, "b", "ticketmaster_list_bookings", {}).result["bookings"] == []
    assert _call(env, "a", "ticketmaster_get_booking", {"booking_id": booking["booking_id"]}).result["status"] == "confirmed"
    assert env.state_digest("a") != env.state_digest("b")


def test_reset_returns_to_the_base_world(builtin_catalog):
    env = _env(builtin_catalog)
    env.create_session(tools=TICKETS, session_id="r", seed=4, base_world="empty")
    env.create_session(tools=TICKETS, session_id="fresh", seed=4, base_world="empty")
    base = env.state_digest("fresh")
    show = _call(env, "r", "ticketmaster_search_shows", {"city": "Austin"}).result["shows"][0]
    _call(env, "r", "ticketmaster_book_tickets", {"show_id": show["show_id"], "quantity": 1, **CUSTOMER})
    assert env.state_digest("r") != base
    env.reset_session("r")
    assert env.state_digest("r") == base
    assert _call(env, "r", "ticketmaster_list_bookings", {}).result["bookings"] == []


def test_fork_copies_state_and_log_then_diverges(builtin_catalog):
    env = _env(builtin_catalog)
    env.create_session(tools=TICKETS, session_id="p", seed=5)
    show = _call(env, "p", "ticketmaster_search_shows", {"city": "Denver"}).result["shows"][0]
    booking = _call(env, "p", "ticketmaster_book_tickets", {"show_id": show["show_id"], "quantity": 1, **CUSTOMER}).result
    fork = env.fork_session("p", "p_fork")
    assert env.state_digest("p_fork") == env.state_digest("p")
    assert [c.tool for c in env.calls("p_fork")] == [c.tool for c in env.calls("p")]
    _call(env, "p_fork", "ticketmaster_cancel_booking", {"booking_id": booking["booking_id"]})
    assert _call(env, "p", "ticketmaster_get_booking", {"booking_id": booking["booking_id"]}).result["status"] == "confirmed"
    assert env.state_digest("p_fork") != env.state_digest("p")
    assert fork.record.seed == 5 and [c.seq for c in env.calls("p_fork")] == [0, 1, 2]


def test_pinned_observation_is_returned_exactly_and_its_entities_resolve(builtin_catalog):
    env = _env(builtin_catalog)
    env.create_session(tools=TICKETS, session_id="pin", seed=1)
    recorded = {"shows": [{"show_id": "show123", "title": "Blue Man Group", "venue": "Luxor", "city": "Las Vegas",
                           "date": "2026-02-01T20:00:00Z", "genre": "theatre", "price": 89.0, "currency": "USD"}]}
    env.pin_observation("pin", "ticketmaster_search_shows", {"city": "Las Vegas"}, recorded)
    assert _call(env, "pin", "ticketmaster_search_shows", {"city": "Las Vegas"}).result == recorded
    detail = _call(env, "pin", "ticketmaster_get_show", {"show_id": "show123"}).result
    assert (detail["title"], detail["venue"], detail["price"]) == ("Blue Man Group", "Luxor", 89.0)


def test_state_survives_reloading_from_the_database(builtin_catalog, tmp_path):
    path = tmp_path / "w.duckdb"
    db = Database(path)
    env = ToolEnvironment(builtin_catalog, db, ServerSettings())
    env.create_session(tools=TICKETS, session_id="d", seed=2)
    show = _call(env, "d", "ticketmaster_search_shows", {"city": "Boston"}).result["shows"][0]
    booking = _call(env, "d", "ticketmaster_book_tickets", {"show_id": show["show_id"], "quantity": 3, **CUSTOMER}).result
    digest = env.state_digest("d")
    db.close()
    env2 = ToolEnvironment(builtin_catalog, Database(path), ServerSettings())
    assert env2.state_digest("d") == digest
    assert _call(env2, "d", "ticketmaster_get_booking", {"booking_id": booking["booking_id"]}).result["quantity"] == 3


OPS = st.lists(
    st.tuples(st.sampled_from(["search", "detail", "book", "list", "cancel", "get_booking", "bogus"]),
              st.integers(0, 5), st.sampled_from(["Paris", "Lima", "Oslo"])),
    min_size=1, max_size=12,
)


def _run_ops(catalog, ops, sid="h"):
    # Deferred durability: this test is about consistency; durability has its own tests.
    env = _env(catalog, Durability.DEFERRED)
    env.create_session(tools=TICKETS, session_id=sid, seed=7, base_world="empty")
    shows: list[str] = []
    bookings: dict[str, str] = {}
    for op, k, city in ops:
        if op == "search":
            out = _call(env, sid, "ticketmaster_search_shows", {"city": city})
            new = [s["show_id"] for s in out.result["shows"]]
            for show_id in new:
                assert not _call(env, sid, "ticketmaster_get_show", {"show_id": show_id}).is_error
            shows += [s for s in new if s not in shows]
        elif op == "detail" and shows:
            assert not _call(env, sid, "ticketmaster_get_show", {"show_id": shows[k % len(shows)]}).is_error
        elif op == "book" and shows:
            before = env.state_digest(sid)
            out = _call(env, sid, "ticketmaster_book_tickets", {"show_id": shows[k % len(shows)], "quantity": k + 1, **CUSTOMER})
            assert not out.is_error
            bookings[out.result["booking_id"]] = "confirmed"
            assert env.state_digest(sid) != before
        elif op == "list":
            listed = {b["booking_id"]: b["status"] for b in _call(env, sid, "ticketmaster_list_bookings", {}).result["bookings"]}
            assert listed == bookings
        elif op == "cancel" and bookings:
            bid = sorted(bookings)[k % len(bookings)]
            out = _call(env, sid, "ticketmaster_cancel_booking", {"booking_id": bid})
            assert out.is_error == (bookings[bid] == "cancelled")
            bookings[bid] = "cancelled"
        elif op == "get_booking" and bookings:
            bid = sorted(bookings)[k % len(bookings)]
            assert _call(env, sid, "ticketmaster_get_booking", {"booking_id": bid}).result["status"] == bookings[bid]
        elif op == "bogus":
            assert _call(env, sid, "ticketmaster_get_booking", {"booking_id": f"book_{k}"}).is_error
    return env.state_digest(sid), [c.replay_view() for c in env.calls(sid)]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_random_call_sequences_keep_the_world_consistent_and_replay_identically(builtin_catalog, ops):
    first = _run_ops(builtin_catalog, ops)
    assert _run_ops(builtin_catalog, ops) == first


@pytest.mark.parametrize("seed", [1, 2])
def test_different_seeds_give_different_worlds(builtin_catalog, seed):
    env = _env(builtin_catalog)
    env.create_session(tools=TICKETS, session_id="x", seed=seed)
    env.create_session(tools=TICKETS, session_id="y", seed=seed + 10)
    a = _call(env, "x", "ticketmaster_search_shows", {"city": "Paris"}).result
    b = _call(env, "y", "ticketmaster_search_shows", {"city": "Paris"}).result
    assert a != b


def test_a_seeded_base_world_lists_prior_rows_that_resolve_and_survive_reset(builtin_catalog):
    env = _env(builtin_catalog)
    env.create_session(tools=TICKETS, session_id="seeded", seed=4)
    before = _call(env, "seeded", "ticketmaster_list_bookings", {}).result["bookings"]
    assert 3 <= len(before) <= 5
    for row in before:
        detail = _call(env, "seeded", "ticketmaster_get_booking", {"booking_id": row["booking_id"]}).result
        assert detail["booking_id"] == row["booking_id"]
    show = _call(env, "seeded", "ticketmaster_search_shows", {"city": "Austin"}).result["shows"][0]
    made = _call(env, "seeded", "ticketmaster_book_tickets", {"show_id": show["show_id"], "quantity": 1, **CUSTOMER})
    after = _call(env, "seeded", "ticketmaster_list_bookings", {}).result["bookings"]
    assert {b["booking_id"] for b in after} == {b["booking_id"] for b in before} | {made.result["booking_id"]}
    env.reset_session("seeded")
    again = _call(env, "seeded", "ticketmaster_list_bookings", {}).result["bookings"]
    assert again == before


def test_an_empty_base_world_starts_with_no_owned_rows(builtin_catalog):
    env = _env(builtin_catalog)
    env.create_session(tools=TICKETS, session_id="bare", seed=4, base_world="empty")
    assert _call(env, "bare", "ticketmaster_list_bookings", {}).result["bookings"] == []
