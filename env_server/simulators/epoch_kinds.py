"""Moments written as Unix time: an integer ``created_time`` is seconds since 1970 on the
session clock (Dailymotion, Hacker News, Reddit), not a small random number.

``epoch_node(name, kind, schema)`` is asked once per integer schema node (``plans``); it
returns a draw for a field whose name says it holds a moment, or None.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# A field named like a moment: "created_time", "updated_at", "timestamp", "published_ts", "dt".
# A bare participle is a moment only for the few that never count things ("added": 3 is a count).
_MOMENT = re.compile(r"(^|_)(timestamp|ts|epoch|unix|dt)(_|$)|(^|_)(created|modified|published|uploaded|posted)$"
                     r"|(^|_)(created|updated|modified|published|uploaded|posted|added|edited|deleted|last_seen|"
                     r"expires|expiry|started|ended|finished|scheduled|sent|received|registered|joined|released)"
                     r"_(time|at|on|date|utc|ts)$|^(time|date)_(created|updated|modified|added|posted)$")
# ... but not an amount of time ("response_time", "time_spent", "duration").
_AMOUNT = re.compile(r"(^|_)(duration|elapsed|response|spent|wait|delay|latency|total|avg|average|mean|ttl|"
                     r"seconds|secs|minutes|mins|hours|offset|zone|count)(_|$)")
_FUTURE = re.compile(r"(^|_)(expires|expiry|scheduled|due|next|until|valid)(_|$)")
_MOMENT_KINDS = frozenset({None, "date", "datetime", "time", "past_date", "future_date", "current_time", "now",
                           "stamped_time", "past_datetime", "today", "timestamp"})
_MS_RE = re.compile(r"(^|_)(ms|millis|milliseconds)(_|$)")


def is_moment_name(name: str) -> bool:
    low = snake(name)
    return bool(_MOMENT.search(low)) and not _AMOUNT.search(low)


def epoch_node(name: str, kind: str | None, schema: dict[str, Any],
               parent: str = "") -> Callable[[Generation, int | None], int] | None:
    """A Unix-time draw for an integer moment field whose bounds admit one, else None. On a
    series' time axis (an index given) it steps with the item, as a date-time axis does."""
    if kind not in _MOMENT_KINDS or not is_moment_name(name):
        return None
    hi, lo = schema.get("maximum"), schema.get("minimum")
    millis = bool(_MS_RE.search(snake(name))) or isinstance(lo, (int, float)) and lo >= 1e12
    scale = 1000 if millis else 1
    if isinstance(hi, (int, float)) and hi < 1e9 * scale:
        return None  # the schema says it is no Unix time (a year, an hour, a count)
    future = bool(_FUTURE.search(snake(name))) or kind == "future_date"

    def draw(gen: Generation, index: int | None) -> int:
        now = int(gen.now.replace(tzinfo=dt.UTC).timestamp())
        if index is not None:
            seconds = int(gen.series_moment(index, parent, name)[0].replace(tzinfo=dt.UTC).timestamp())
        elif kind in ("now", "current_time", "today", "stamped_time"):
            seconds = now - gen.rng.randint(0, 3_600)
        elif future:
            seconds = now + gen.rng.randint(3_600, 90 * 86_400)
        else:
            seconds = now - gen.rng.randint(600, 730 * 86_400)
        value = seconds * scale
        if isinstance(lo, (int, float)) and value < lo:
            return int(lo)
        if isinstance(hi, (int, float)) and value > hi:
            return int(hi)
        return value

    return draw
