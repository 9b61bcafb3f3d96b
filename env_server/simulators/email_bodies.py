"""A message's body about its subject, and a preview that is the start of that body.

A record with a subject and a body or preview field (mail.tm's ``intro``, Guerrilla Mail's
``mail_excerpt``, Gmail's ``snippet``, Outlook's ``bodyPreview``, an imported email's
``body``) gets a body composed for its subject: a greeting, two lines of the first topic
whose words the subject contains (an invoice's lines speak of amounts and due dates, a
flight's of check-in), and a closing; automated topics (orders, sign-in alerts) end with a
service footer instead of a name. The wording is data (``tool_specs/reference/email_bodies.json``).
A preview is the body's start, flattened to one line and cut at a word before its length.
``email_step(entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.draws import faker_pool
from env_server.simulators.naming import snake
from env_server.simulators.reference_tables import reference_table

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_SUBJECTS = ("subject", "mail_subject", "email_subject", "subject_line")
_BODIES = ("body", "text", "text_body", "body_text", "plain_text", "plain", "mail_body", "body_plain", "textbody",
           "message_body", "content", "html", "html_body", "body_html", "htmlbody")
# Preview fields by the length a service cuts them at.
_PREVIEWS = {"snippet": 140, "preview": 120, "intro": 100, "excerpt": 80, "mail_excerpt": 80, "body_preview": 160,
             "preview_text": 120, "summary_text": 140}
_SENT = ("html_content", "text_content", "message", "content", "text", "body")  # what a send call writes
_PREFIX = re.compile(r"^((re|fwd?|aw|wg)\s*:\s*)+", re.IGNORECASE)


@functools.cache
def _words() -> dict[str, Any]:
    data: dict[str, Any] = reference_table("email_bodies.json")
    return data


def _string(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type", "string") == "string" and "enum" not in schema \
        and schema.get("format") is None


def email_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that writes a message's body and preview from its subject, or None."""
    by_snake = {snake(k): k for k in props}
    subject = next((by_snake[n] for n in _SUBJECTS if n in by_snake), None)
    bodies = [by_snake[n] for n in _BODIES if n in by_snake and _string(props[by_snake[n]])]
    previews = {by_snake[n]: size for n, size in _PREVIEWS.items() if n in by_snake and _string(props[by_snake[n]])}
    if subject is None or not (bodies or previews):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        text = record.get(subject)
        if not isinstance(text, str) or not text.strip():
            return
        sent = next((v for k in (*map(snake, bodies), *_SENT) if isinstance(v := gen.snaked_args.get(k), str)), None)
        body = sent if sent is not None else compose_body(text, gen, record)
        for key in bodies:
            if key in record and snake(key) not in gen.snaked_args:
                record[key] = _as_html(body) if "html" in snake(key) else body
        for key, size in previews.items():
            if key in record and snake(key) not in gen.snaked_args:
                record[key] = preview_of(body, size)

    return step


def topic_lines(subject: str) -> tuple[list[str], bool]:
    """The lines of the first topic the subject speaks of, and whether that topic is automated."""
    low = subject.lower()
    found: list[tuple[int, int]] = []  # (where the topic's first word appears, topic order)
    for order, topic in enumerate(_words()["topics"]):
        hits = [m.start() for w in topic["words"] if (m := re.search(rf"(^|\W){re.escape(w)}", low))]
        if hits:
            found.append((min(hits), order))
    if not found:
        return [], False
    topic = _words()["topics"][min(found)[1]]
    return list(topic["lines"]), bool(topic["automated"])


def compose_body(subject: str, gen: Generation, record: Mapping[str, Any]) -> str:
    """A plain-text body for a message titled ``subject``."""
    words, rng = _words(), gen.rng
    topic = _PREFIX.sub("", subject).strip()
    lines, automated = topic_lines(topic)
    if lines:
        first = rng.randint(0, len(lines) - 1)
        said = [lines[first], lines[(first + 1 + rng.randint(0, len(lines) - 2)) % len(lines)]]
    else:
        said = [rng.choice(words["general"]).format(topic=topic), rng.choice(words["general_more"])]
    name = _name(record, ("to_name", "recipient_name"), gen)
    if automated:
        return "\n\n".join([f"Hello {name},", " ".join(said), rng.choice(words["automated_closings"])])
    greeting = rng.choice(words["greetings"]).format(name=name)
    closing = rng.choice(words["closings"]).format(sender=_name(record, ("from_name", "sender_name"), gen))
    return "\n\n".join([greeting, " ".join(said), closing])


def _name(record: Mapping[str, Any], keys: tuple[str, ...], gen: Generation) -> str:
    for key in keys:
        value = record.get(key)
        if isinstance(value, str) and value.strip() and "@" not in value:
            return value.split()[0]
    return gen.rng.choice(faker_pool("first_name"))


def preview_of(body: str, size: int) -> str:
    """The start of ``body`` on one line, at most ``size`` characters, cut after a word."""
    flat = " ".join(re.sub(r"<[^>]+>", " ", body).split())
    if len(flat) <= size:
        return flat
    cut = flat[: size + 1].rsplit(" ", 1)[0]
    return cut.rstrip(",;:")


def _as_html(body: str) -> str:
    return "".join(f"<p>{part.replace(chr(10), '<br>')}</p>" for part in body.split("\n\n"))
