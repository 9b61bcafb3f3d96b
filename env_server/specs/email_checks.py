"""The audit's check of messages: a preview is the start of the message's own body.

``email_hits(result)`` reports a record whose preview field (``snippet``, ``intro``,
``mail_excerpt``, ``bodyPreview``, …) is not the start of its body field, flattened to one line.
"""

from __future__ import annotations

from typing import Any

from env_server.simulators.email_bodies import preview_of
from env_server.simulators.naming import snake
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]
_PREVIEWS = ("snippet", "preview", "intro", "excerpt", "mail_excerpt", "body_preview", "preview_text")
_BODIES = ("body", "text_body", "body_text", "plain_text", "mail_body", "text", "html")


def email_hits(result: Any) -> list[Hit]:
    """Findings of this module's check in ``result``."""
    found: list[Hit] = []
    for path, record in walk_records(result):
        by_snake = {snake(k): k for k, v in record.items() if isinstance(v, str) and v}
        body = next((record[by_snake[n]] for n in _BODIES if n in by_snake), None)
        if body is None or not any(n in by_snake for n in ("subject", "mail_subject")):
            continue
        flat = preview_of(body, 10_000)
        for name in _PREVIEWS:
            if name in by_snake and not flat.startswith(preview_of(record[by_snake[name]], 10_000)):
                found.append((f"{path}.{by_snake[name]}", f"preview {record[by_snake[name]][:50]!r} is not the "
                              "start of the body"))
    return found
