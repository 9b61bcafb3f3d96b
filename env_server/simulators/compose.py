"""Free text composed from a record's own facts, for records no vocabulary describes.

A generic record (an imported tool's entity no template fits) describes itself from what
it is and what the call asked: ``Chapter “Annual Report” for state Texas, year 2025.``
rather than an unrelated note drawn from a vocabulary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

MAX_ARG_CHARS = 40
MAX_ARGS = 3


def record_summary(gen: Generation, title: str) -> str:
    """``<Entity> “<title>”``, then the call's short scalar arguments it answers for."""
    noun = snake(gen.entity).replace("_", " ").strip().capitalize() or "Record"
    asked = [f"{_words(k)} {_text(v)}" for k, v in sorted(gen.args.items()) if _shown(k, v) and v != title]
    asked = asked[:MAX_ARGS]
    return f"{noun} “{title}”" + (f" for {', '.join(asked)}." if asked else ".")


def _shown(key: str, value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return False
    low = snake(key)
    return not (low.endswith(("_id", "password", "secret", "token", "key")) or low in ("id", "title", "name")) and (
        len(str(value)) <= MAX_ARG_CHARS)


def _words(key: str) -> str:
    return snake(key).replace("_", " ")


def _text(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
