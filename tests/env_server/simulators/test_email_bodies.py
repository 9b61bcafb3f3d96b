"""A message's preview is the start of its body, and the body is about its subject."""

from __future__ import annotations

import datetime as dt

from env_server.environment import ToolEnvironment
from env_server.simulators.email_bodies import email_step, preview_of, topic_lines
from env_server.simulators.generate import Generation
from env_server.specs.email_checks import email_hits
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)


def test_an_inbox_previews_the_start_of_a_body_about_each_subject(env: ToolEnvironment):
    messages = call(env, "mail_tm_list_messages")["messages"]
    assert messages
    for message in messages:
        lines, _ = topic_lines(message["subject"])
        assert message["intro"].startswith(("Hi", "Hello", "Dear", "Good morning", "Hey"))
        if lines:
            assert any(line.startswith(message["intro"].split(",", 1)[1].strip()[:30]) for line in lines)


def test_a_preview_is_cut_from_the_body_the_record_carries():
    step = email_step("message", {"subject": {"type": "string"}, "body": {"type": "string"},
                                  "snippet": {"type": "string"}})
    assert step is not None
    gen = Generation(4, dt.date(2026, 12, 7), {})
    record = {"subject": "Invoice overdue", "body": "Beach this weekend?", "snippet": "Traffic's clear now"}
    step(record, gen, None)
    assert "payment" in record["body"].lower() or "amount" in record["body"].lower() or "figures" in record["body"]
    assert preview_of(record["body"], 10_000).startswith(record["snippet"]) and len(record["snippet"]) <= 140
    assert email_hits(record) == []


def test_the_audit_reports_a_preview_unrelated_to_the_body():
    record = {"subject": "Grades posted", "body": "Hi Ann,\n\nGrades are up.", "intro": "Beach this weekend?"}
    assert [path for path, _ in email_hits(record)] == ["$.intro"]
