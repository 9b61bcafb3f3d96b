"""What kind of tool a query asks for: a question wants a read, a request wants a write.

"What's on my calendar tomorrow?" is answered by reading; "book a table tonight" by creating a
booking, and "cancel my reservation" by deleting one. The leading verb of a request names the
operation (see ``profile.operation``); questions and lookups favour read, search and list tools.
"""

from __future__ import annotations

from enum import Enum

from env_server.catalog.models import Operation
from env_server.search.text import words

_QUESTION_WORDS = frozenset("what whats which who whose where when why how is are was were will does do did has have should".split())
# Lookups read too: "find books by ...", "show me the profile of ..."; some name the kind of read.
_LOOKUP_VERBS = frozenset("find search look lookup show list get fetch check see tell give browse".split())
_LOOKUP_OPERATION = {"find": Operation.SEARCH, "search": Operation.SEARCH, "look": Operation.SEARCH,
                     "lookup": Operation.SEARCH, "browse": Operation.SEARCH, "list": Operation.LIST}
# Leading words a request may start with before its verb ("please", "can you", "I'd like to").
_LEAD_INS = frozenset("please can could would you i i'd id d like love want wanna need to help me let's lets us just".split())

_VERB_OPERATION: dict[str, Operation] = {
    **{v: Operation.CREATE for v in (
        "add", "book", "reserve", "create", "schedule", "send", "post", "publish", "upload", "log", "record",
        "buy", "purchase", "order", "submit", "register", "subscribe", "follow", "save", "remind", "shorten",
        "trigger", "open", "rate", "apply", "file", "invite", "write", "put", "start", "sign", "pin", "text",
        "email", "message", "tweet", "share", "queue",
    )},
    **{v: Operation.DELETE for v in (
        "cancel", "delete", "remove", "unsubscribe", "unfollow", "revoke", "void", "withdraw", "drop", "erase",
        "unlike", "unpin", "archive",
    )},
    **{v: Operation.UPDATE for v in (
        "update", "change", "edit", "rename", "move", "reschedule", "mark", "close", "modify", "reassign",
        "postpone", "snooze", "accept", "decline", "reject", "merge",
    )},
}
_READS = frozenset({Operation.READ, Operation.SEARCH, Operation.LIST})


class Intent(str, Enum):
    QUESTION = "question"  # asks about the world: favour read/search/list
    REQUEST = "request"    # asks for a change: favour the verb's operation
    NEUTRAL = "neutral"    # no clear sign


def topic(query: str) -> str:
    """The query without its leading lead-ins and lookup verbs: "show me the weather" -> "the weather"."""
    parts = query.split()
    i = 0
    while i < len(parts) and (w := parts[i].lower().strip("'?,.!").replace("'", "")) in _LEAD_INS | _LOOKUP_VERBS:
        i += 1
        if w == "look" and i < len(parts) and parts[i].lower() == "up":
            i += 1
    return " ".join(parts[i:])


def classify(query: str) -> tuple[Intent, Operation | None]:
    """The query's intent, and for a request the operation its verb names."""
    for word in words(query.replace("'", "")):
        if word in _VERB_OPERATION:
            return Intent.REQUEST, _VERB_OPERATION[word]
        if word in _LEAD_INS:
            continue
        if word in _QUESTION_WORDS or word in _LOOKUP_VERBS:
            return Intent.QUESTION, _LOOKUP_OPERATION.get(word)
        break
    return (Intent.QUESTION if query.rstrip().endswith("?") else Intent.NEUTRAL), None


# Score factors by intent; the operation a verb names gets WANTED.
QUESTION_WANTED, QUESTION_READ, QUESTION_WRITE = 1.3, 1.15, 0.6
REQUEST_WANTED, REQUEST_OTHER_WRITE, REQUEST_READ = 1.6, 0.8, 0.85


def factor(intent: Intent, wanted: Operation | None, operation: Operation) -> float:
    """How much a tool of ``operation`` is favoured for a query of this intent."""
    if intent is Intent.QUESTION:
        if operation is wanted:
            return QUESTION_WANTED
        return QUESTION_READ if operation in _READS else QUESTION_WRITE if operation.writes else 1.0
    if intent is Intent.REQUEST:
        if operation is wanted:
            return REQUEST_WANTED
        if operation.writes:
            return REQUEST_OTHER_WRITE
        return REQUEST_READ if operation in _READS else 1.0
    return QUESTION_READ if operation in _READS else 1.0 if not operation.writes else 0.85
