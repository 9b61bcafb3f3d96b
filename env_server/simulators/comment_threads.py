"""Comment threads: a write that adds to a record's thread adds one comment, the caller's.

A map note, a ticket or a post shows its ``comments`` (``replies``, ``messages``) as a list of
entries with a text field named like the write's text parameter (``text``, ``body``). The
text the caller sends is one comment, not every comment's text:

* a create opens the thread: one entry, dated now, by the caller, its action the opening one;
* an update (``comment_note``) appends one entry after the earlier ones, which keep their
  own texts, dates (before now, in order) and authors; the thread is stored with the row,
  so a later read shows it, and a record just commented on is open (``writes`` sets its status).

``thread_of`` finds the thread once per spec; ``writes`` calls ``open_thread`` and
``append_comment``.
"""

from __future__ import annotations

import datetime as dt
import zlib
from dataclasses import dataclass
from typing import Any

from env_server.catalog.models import Operation, ToolSpec
from env_server.simulators.draws import faker_pool
from env_server.simulators.naming import snake

_THREADS = frozenset({"comments", "replies", "messages", "thread", "conversation", "posts", "notes_thread"})
_TEXTS = ("text", "body", "comment", "message", "content")
_DATES = ("date", "created_at", "created", "timestamp", "posted_at", "time")
_USERS = ("user", "author", "username", "user_name", "display_name", "login")
_ACTIONS = ("action", "type", "event")
_CLOSED_DATES = frozenset({"date_closed", "closed_at", "closed_on", "resolved_at"})
_MADE = frozenset({"date_created", "created_at", "created"})
_STAMP = "%Y-%m-%dT%H:%M:%SZ"


@dataclass(frozen=True)
class Thread:
    """Where a record's thread is (``key``), which field of an entry holds its text and which
    parameter the write sends it in."""

    key: str
    text: str
    arg: str
    item: dict[str, Any]


def _find(spec: ToolSpec) -> Thread | None:
    if spec.profile.operation not in (Operation.CREATE, Operation.UPDATE):
        return None
    sent = {snake(k): k for k, v in (spec.input_schema.get("properties") or {}).items()
            if isinstance(v, dict) and v.get("type") == "string"}
    for key, sub in (spec.output_schema.get("properties") or {}).items():
        items = sub.get("items") if isinstance(sub, dict) and sub.get("type") == "array" else None
        if snake(key) not in _THREADS or not isinstance(items, dict):
            continue
        props = items.get("properties") or {}
        for field in props:
            if snake(field) in _TEXTS and snake(field) in sent:
                return Thread(key, field, sent[snake(field)], items)
    return None


def thread_of(spec: ToolSpec, plans: dict[Any, Any]) -> Thread | None:
    """The thread a create or update adds the caller's text to, or None: found once per spec
    and kept with the compiled plans (the entry holds the spec, so its id is not reused)."""
    key = ("comment thread", id(spec))
    hit = plans.get(key)
    if hit is None:
        hit = plans[key] = (spec, _find(spec))
    found: Thread | None = hit[1]
    return found


def _field(props: dict[str, Any], names: tuple[str, ...]) -> str | None:
    by_snake = {snake(k): k for k in props}
    return next((by_snake[n] for n in names if n in by_snake), None)


def _action(item: dict[str, Any], start: str) -> str | None:
    """The enum value of the entry's action that starts with ``start`` ("opened", "commented")."""
    props = item.get("properties") or {}
    key = _field(props, _ACTIONS)
    enum = (props.get(key) or {}).get("enum") if key else None
    if not isinstance(enum, list):
        return None
    return next((v for v in enum if isinstance(v, str) and v.lower().startswith(start)), None)


def caller_name(seed: int) -> str:
    """The session's own user: the same display name on every write of the session."""
    names = faker_pool("user_name")
    return names[zlib.crc32(str(seed).encode()) % len(names)]


def _entry(thread: Thread, text: str, when: str, user: str, action: str | None) -> dict[str, Any]:
    props = thread.item.get("properties") or {}
    entry: dict[str, Any] = {thread.text: text}
    for names, value in ((_DATES, when), (_USERS, user)):
        key = _field(props, names)
        if key is not None:
            entry[key] = value
    key = _field(props, _ACTIONS)
    if key is not None and action is not None:
        entry[key] = action
    return {k: entry[k] for k in props if k in entry}  # in the schema's order


def open_thread(out: dict[str, Any], thread: Thread, args: dict[str, Any], now: dt.datetime, seed: int,
                required: frozenset[str] = frozenset()) -> None:
    """A new record's thread is the caller's one opening comment; nothing has closed it."""
    text = args.get(thread.arg)
    if not isinstance(text, str) or thread.key not in out:
        return
    out[thread.key] = [_entry(thread, text, now.strftime(_STAMP), caller_name(seed), _action(thread.item, "open"))]
    _unclose(out, required)


def _unclose(out: dict[str, Any], required: frozenset[str]) -> None:
    for key in [k for k in out if snake(k) in _CLOSED_DATES and k not in required]:
        del out[key]


_OPEN = frozenset({"open", "opened", "active", "new", "reopened"})


def unclose_open(out: dict[str, Any], required: frozenset[str]) -> None:
    """An open record (a note, a ticket) has no closing date, unless its schema requires one."""
    status = out.get("status")
    if isinstance(status, str) and status.lower() in _OPEN:
        _unclose(out, required)


def append_comment(out: dict[str, Any], thread: Thread, args: dict[str, Any], now: dt.datetime, seed: int,
                   required: frozenset[str] = frozenset()) -> None:
    """The earlier comments, in order (the first the opening one, dated when the record was
    made), then the caller's, dated now; a record just commented on has no closing date."""
    text = args.get(thread.arg)
    if not isinstance(text, str):
        return
    earlier = [dict(e) for e in out.get(thread.key) or [] if isinstance(e, dict)]
    props = thread.item.get("properties") or {}
    date_key, action_key = _field(props, _DATES), _field(props, _ACTIONS)
    if date_key is not None:
        earlier.sort(key=lambda e: str(e.get(date_key, "")))
        made = next((v for k, v in out.items() if snake(k) in _MADE and isinstance(v, str)), None)
        if earlier and made and (len(earlier) == 1 or made <= str(earlier[1].get(date_key, made))):
            earlier[0][date_key] = made  # the opening comment is as old as the record
    opened, commented = _action(thread.item, "open"), _action(thread.item, "comment")
    for i, entry in enumerate(earlier):
        if action_key is not None and opened and commented:
            entry[action_key] = opened if i == 0 else commented
    out[thread.key] = [*earlier, _entry(thread, text, now.strftime(_STAMP), caller_name(seed), commented)]
    _unclose(out, required)
