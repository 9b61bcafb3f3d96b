"""Events happen at hours people hold them, where they are held.

A concert, a show or a meetup starts in the evening of the place it is in (19:30 in Chicago
is 01:30Z the next day, written as the API writes its times); a meeting or an appointment on
a calendar starts in working hours. A series of shows keeps its UTC day (the day a list is
sorted and windowed by), so a show in Los Angeles listed on the 3rd starts on the evening of
the 2nd, local time. An end the call did not send follows the start by a typical length
(two to three hours for a show, half an hour to an hour and a half for a meeting), not days.

``event_step(entity, props)`` is asked once per object schema (``record_steps``);
``local_hour`` reads an event's local start back for the audit.
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake
from env_server.simulators.records import default_facts
from env_server.simulators.zones import zone_of

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

# Entities held in the evening (a show), and entities of a working day (a meeting).
EVENING = frozenset({"show", "shows", "concert", "concerts", "performance", "gig", "festival", "screening",
                     "meetup", "showtime"})
DAYTIME = frozenset({"meeting", "appointment", "call", "interview", "webinar", "invitee", "calendar"})
_EVENT = frozenset({"event", "events", "scheduled_event"})
# Categories whose plain "event" is a public one (a Ticketmaster or Meetup event).
PUBLIC_CATEGORIES = frozenset({"Events", "Entertainment", "Music", "Sports & Fitness"})
START_FIELDS = ("start", "start_time", "starts_at", "start_utc", "start_datetime", "start_date_time", "date_time",
                "datetime", "datetime_utc", "datetime_local", "date", "event_date", "local_date_time", "begin_at",
                "event_start_time", "event_start")
END_FIELDS = ("end", "end_time", "ends_at", "end_utc", "end_datetime", "end_date_time", "finish", "end_at",
              "event_end_time", "event_end")
# A reminder fires before its event: ``reminder_minutes`` (or 15) ahead of the start.
REMINDER_FIELDS = ("reminder_fire_time", "remind_at", "reminder_time", "reminder_at", "fire_time")
_LEAD_FIELDS = ("reminder_minutes_before_start", "minutes_before", "reminder_minutes", "lead_minutes")
ZONE_FIELDS = ("timezone", "time_zone", "tz", "timezone_id", "venue_timezone")
CITY_FIELDS = ("city", "venue_city", "location_city", "venue", "location", "address")
_CITY_ARGS = ("city", "location", "where", "near", "place")
_CLOCK = re.compile(r"^(\d{2}):(\d{2})(:\d{2})?$")  # a local start time on its own ("19:30")
_ISO = re.compile(r"^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$")
# (earliest start, latest start) in local minutes after midnight, and (shortest, longest) length.
_EVENING_HOURS, _EVENING_LENGTH = (18 * 60, 21 * 60 + 30), (120, 180)
_DAY_HOURS, _DAY_LENGTH = (8 * 60 + 30, 17 * 60), (30, 90)


def event_kind(entity: str, category: str) -> str | None:
    """"evening" for an event held in the evening, "daytime" for one of a working day, or None."""
    words = set(snake(entity).split("_"))
    if words & EVENING or words & _EVENT and category in PUBLIC_CATEGORIES:
        return "evening"
    if words & DAYTIME or words & _EVENT:
        return "daytime"
    return None


def event_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that sets an event's start to an hour it is held at, and its end after it
    (evening or working hours by the provider's category, known when the call runs)."""
    start_key = next((k for k in props if snake(k) in START_FIELDS and _is_moment(props[k])), None)
    if event_kind(entity, "") is None or start_key is None:
        return None
    end_key = next((k for k in props if snake(k) in END_FIELDS and _is_moment(props[k])), None)
    fire_key = next((k for k in props if snake(k) in REMINDER_FIELDS and _is_moment(props[k])), None)
    lead_key = next((k for k in props if snake(k) in _LEAD_FIELDS), None)

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        evening = event_kind(entity, gen.category) == "evening"
        hours, length = (_EVENING_HOURS, _EVENING_LENGTH) if evening else (_DAY_HOURS, _DAY_LENGTH)
        sent = gen.snaked_args
        start = record.get(start_key)
        if snake(start_key) in sent or not isinstance(start, str):
            return
        minute = hours[0] + 30 * gen.rng.randint(0, (hours[1] - hours[0]) // 30)
        if (clock := _CLOCK.match(start)) is not None:
            record[start_key] = f"{minute // 60:02d}:{minute % 60:02d}{clock.group(3) or ''}"
            return
        if (moment := _ISO.match(start)) is None:
            return
        zone = record_zone(record, sent)
        begin = _held_at(dt.date.fromisoformat(moment.group(1)), minute, zone, moment.group(4), start_key)
        record[start_key] = _written(begin, start, zone)
        end = record.get(end_key) if end_key else None
        if end_key and isinstance(end, str) and _ISO.match(end) and snake(end_key) not in sent:
            finish = begin + dt.timedelta(minutes=15 * gen.rng.randint(length[0] // 15, length[1] // 15))
            record[end_key] = _written(finish, end, zone)
        fire = record.get(fire_key) if fire_key else None
        if fire_key and isinstance(fire, str) and _ISO.match(fire) and snake(fire_key) not in sent:
            lead = record.get(lead_key) if lead_key else None
            ahead = lead if isinstance(lead, int) and not isinstance(lead, bool) and 0 <= lead <= 40320 else 15
            record[fire_key] = _written(begin - dt.timedelta(minutes=ahead), fire, zone)

    return step


def record_zone(record: Mapping[str, Any], sent: Mapping[str, Any]) -> zoneinfo.ZoneInfo | None:
    """The zone an event is held in: its own time zone field, else its city's (or the call's)."""
    by_snake = {snake(k): v for k, v in record.items()}
    for key in ZONE_FIELDS:
        value = by_snake.get(key)
        if isinstance(value, str) and (zone := zone_of(value)) is not None:
            return zone
    places = default_facts().reference
    texts = [by_snake.get(k) for k in CITY_FIELDS] + [sent.get(k) for k in _CITY_ARGS]
    for text in texts:
        if isinstance(text, dict):
            text = text.get("city") or text.get("name")
        if isinstance(text, str) and (place := places.find_place(text)) is not None:
            return zone_of(place.timezone)
    return None


def local_hour(value: str, zone: zoneinfo.ZoneInfo | None) -> float | None:
    """The local hour (19.5 for 19:30) an ISO moment (or a bare "19:30") falls at in ``zone``
    (UTC when None)."""
    clock = _CLOCK.match(value)
    if clock is not None:
        return int(clock.group(1)) + int(clock.group(2)) / 60
    moment = _ISO.match(value)
    if moment is None:
        return None
    when = _parsed(value)
    if moment.group(4) is not None and zone is not None:
        when = when.astimezone(zone)
    return when.hour + when.minute / 60


def _held_at(day: dt.date, minute: int, zone: zoneinfo.ZoneInfo | None, suffix: str | None,
             field: str) -> dt.datetime:
    """The aware moment an event starts: ``minute`` past local midnight on ``day`` or the day
    before, whichever keeps the written day (UTC for a "Z" time, local otherwise)."""
    tz = zone or dt.UTC
    local_written = suffix is None and "local" in snake(field) or suffix not in (None, "Z")
    for back in (0, 1):
        local = dt.datetime.combine(day - dt.timedelta(days=back), dt.time()) + dt.timedelta(minutes=minute)
        begin = local.replace(tzinfo=tz)
        if local_written or begin.astimezone(dt.UTC).date() == day:
            return begin
    return dt.datetime.combine(day, dt.time(), dt.UTC) + dt.timedelta(minutes=minute)


def _written(moment: dt.datetime, like: str, zone: zoneinfo.ZoneInfo | None) -> str:
    """``moment`` written as ``like`` is: UTC with "Z", local with its offset, or without one."""
    shape = _ISO.match(like)
    suffix = shape.group(4) if shape else "Z"
    seconds = ":00" if re.match(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}", like) else ""
    if suffix == "Z":
        return moment.astimezone(dt.UTC).strftime(f"%Y-%m-%dT%H:%M{seconds}Z")
    local = moment.astimezone(zone) if zone is not None else moment
    if suffix is None:
        return local.strftime(f"%Y-%m-%dT%H:%M{seconds}")
    return local.strftime(f"%Y-%m-%dT%H:%M{seconds}") + local.strftime("%z")[:3] + ":" + local.strftime("%z")[3:]


def _parsed(value: str) -> dt.datetime:
    when = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    return when if when.tzinfo is not None else when.replace(tzinfo=dt.UTC)


def _is_moment(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type", "string") == "string" and schema.get("format") != "date"
