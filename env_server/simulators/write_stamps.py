"""Which fields of a write's answer record when the write happened: they read the session's "now".

A create stamps its creation (``created_at``, ``createTime``, a trade's ``transactTime``, a
ride's ``requested_at``, Gemini's ``timestampms``); an update its ``updated_at``; a delete its
``cancelled_at``. A write named for an action stamps that action's field too: merging a merge
request sets ``merged_at``, closing an issue ``closed_at``, approving a review ``approved_at``.
The patterns are decided once per tool name (cached); ``writes`` applies them and the audit
(``specs/audit_checks.clock_hits``) reads answers back with the same ones.
"""

from __future__ import annotations

import functools
import re

from env_server.catalog.models import Operation

_SUFFIX = r"(_at|_on|_date_?time|_time|_date|_ms|_time_?ms|_timestamp)?"
CREATED = re.compile(r"^(created|create|creation|date_created|submitted|sent|booked|ordered|placed|added|uploaded|"
                     r"posted|published|requested|transact|transaction|updated|modified|last_modified|timestamp|"
                     r"timestampms)" + _SUFFIX + "$")
UPDATED = re.compile(r"^(updated|update|modified|last_modified|edited)" + _SUFFIX + "$")
DELETED = re.compile(r"^(cancel+ed|deleted|removed|archived|closed|revoked|refunded|voided)" + _SUFFIX + "$")
_BY_OPERATION = {Operation.CREATE: CREATED, Operation.UPDATE: UPDATED, Operation.DELETE: DELETED}

# A verb of a write's name and the field its answer stamps when it does that ("merge" -> merged_at).
_ACTIONS = {"merge": "merged", "close": "closed", "complete": "completed", "approve": "approved",
            "resolve": "resolved", "publish": "published", "accept": "accepted", "reject": "rejected",
            "submit": "submitted", "send": "sent", "archive": "archived", "lock": "locked", "reopen": "reopened",
            "confirm": "confirmed", "cancel": "cancelled", "ship": "shipped", "finish": "finished",
            "start": "started", "pause": "paused", "resume": "resumed", "sign": "signed", "verify": "verified"}


@functools.lru_cache(maxsize=4096)
def stamp_pattern(tool: str, operation: Operation) -> re.Pattern[str] | None:
    """The snake-case field names a write of ``tool`` stamps with "now" (None for a read)."""
    base = _BY_OPERATION.get(operation)
    if base is None:
        return None
    words = set(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", tool).lower().replace("-", "_").split("_"))
    done = sorted(_ACTIONS[w] for w in words if w in _ACTIONS)
    if not done:
        return base
    return re.compile(base.pattern + "|^(" + "|".join(done) + ")" + _SUFFIX + "$")
