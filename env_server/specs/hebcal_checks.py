"""The audit's check of Jewish calendar lists: Hebcal's items, where and when they fall.

``hebcal_hits(result)`` reports, in a list of items whose categories include ``candles``:

* items out of date order;
* a ``candles`` item not on a Friday or eve, or a ``havdalah``/``parashat`` item not on a Saturday
  (or a festival's end), or a time outside the afternoon and evening;
* a title that is no Hebcal title of its category ("Team standup" as a holiday).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from env_server.simulators.hebcal_facts import known_titles, name_only
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]
_TITLES = {"candles": re.compile(r"^Candle lighting: \d{1,2}:\d\d[ap]m$"),
           "havdalah": re.compile(r"^Havdalah: \d{1,2}:\d\d[ap]m$"),
           "parashat": re.compile(r"^Parashat [A-Z]"), "roshchodesh": re.compile(r"^Rosh Chodesh [A-Z]")}


def hebcal_hits(result: Any) -> list[Hit]:
    """Findings of this module's check in ``result``."""
    found: list[Hit] = []
    for path, record in walk_records(result):
        items = record.get("items")
        if not (isinstance(items, list) and items and all(isinstance(i, dict) and "category" in i for i in items)):
            continue
        dates = [str(i.get("date", ""))[:10] for i in items]
        if dates != sorted(dates):
            found.append((f"{path}.items", "items are not in date order"))
        for k, item in enumerate(items):
            detail = _item_problem(item)
            if detail:
                found.append((f"{path}.items[{k}]", detail))
                break
    return found


def _item_problem(item: dict[str, Any]) -> str | None:
    category, title = item.get("category"), str(item.get("title", ""))
    pattern = _TITLES.get(str(category))
    if pattern is not None and not pattern.match(title):
        return f"{category} item titled {title!r}"
    if category == "holiday" and name_only(title) not in known_titles():
        return f"holiday {title!r} is no Jewish holiday"
    try:
        when = dt.datetime.fromisoformat(str(item.get("date")))
    except ValueError:
        return f"item date {item.get('date')!r} is no date"
    if category == "candles" and when.weekday() != 4 or category in ("havdalah", "parashat") and when.weekday() != 5:
        return f"{category} item on a {when:%A}"
    if category in ("candles", "havdalah") and not 14 <= when.hour <= 22:
        return f"{category} at {when:%H:%M} local time"
    return None
