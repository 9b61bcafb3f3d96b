"""A comment write adds one comment, the caller's, after the thread's earlier ones
(``simulators/comment_threads.py``); a page of a record without a title names its id."""

from __future__ import annotations

import datetime as dt

import pytest

from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from state import Database

_TOOLS = ["openstreetmap_comment_note", "openstreetmap_get_note", "openstreetmap_create_note"]


@pytest.fixture(scope="module")
def env() -> ToolEnvironment:
    return ToolEnvironment(load_catalog(), Database(), ServerSettings())


def _session(env: ToolEnvironment, seed: int) -> str:
    sid = f"thread{seed}"
    env.create_session(tools=_TOOLS, session_id=sid, seed=seed, today=dt.date(2026, 1, 15))
    return sid


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_a_comment_is_appended_once_and_the_earlier_ones_keep_their_texts(env, seed):
    sid = _session(env, seed)
    out = env.call_tool(sid, "openstreetmap_comment_note", {"note_id": 878717, "text": "I'll handle the review"}).result
    comments = out["comments"]
    assert [c["text"] for c in comments].count("I'll handle the review") == 1
    assert comments[-1]["text"] == "I'll handle the review" and comments[-1]["action"] == "commented"
    assert comments[-1]["date"] == max(c["date"] for c in comments)
    assert comments[0]["action"] == "opened" and all(c["action"] == "commented" for c in comments[1:])
    assert out["status"] == "open" and "date_closed" not in out
    assert out["url"].endswith("/notes/878717")


def test_a_note_read_after_two_comments_shows_both_in_order(env):
    sid = _session(env, 11)
    env.call_tool(sid, "openstreetmap_comment_note", {"note_id": 5150, "text": "The bench is gone"})
    env.call_tool(sid, "openstreetmap_comment_note", {"note_id": 5150, "text": "Confirmed on site today"})
    read = env.call_tool(sid, "openstreetmap_get_note", {"note_id": 5150}).result
    texts = [c["text"] for c in read["comments"]]
    assert texts[-2:] == ["The bench is gone", "Confirmed on site today"]
    assert read["status"] == "open" and "date_closed" not in read


def test_a_new_note_opens_with_the_callers_one_comment(env):
    sid = _session(env, 12)
    out = env.call_tool(sid, "openstreetmap_create_note", {"lat": 51.5, "lon": -0.12, "text": "Cafe has closed"}).result
    assert [(c["action"], c["text"]) for c in out["comments"]] == [("opened", "Cafe has closed")]
    assert out["url"].endswith(f"/notes/{out['note_id']}") and "date_closed" not in out
