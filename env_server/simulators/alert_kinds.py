"""Weather alerts as a weather service issues them: an event, the level and severity that
go with it, its own wording, and a validity window of hours, not months.

``alert_step(name, entity, props)`` is asked once per object schema (``record_steps``). A
record is a weather alert when its entity, its own name or its parent says alert (or
warning) and either says weather (``weather_alert``, a forecast's ``alerts``) or its
``event`` enum lists weather products ("Flood Warning"). The step draws one entry of the
``weather_alert`` vocabulary that suits the place's climate (no Winter Storm Warning in
Miami in July), or takes the one the record's ``event`` already names, and sets from it
every field it knows: the event or title, the headline, the text, the severity, urgency
and certainty, the instruction (the entry's text), the sender (the place's national weather
service, ``reference/weather_services.json``) (an enum takes the entry's value that it lists: Weatherbit's severity is the
level, "Warning"; WeatherAPI's is CAP's "Severe"), and the window: it took effect in the
last hours and runs as long as the product usually does.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from collections.abc import Callable, Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

from env_server.simulators.draws import slugify
from env_server.simulators.naming import snake
from env_server.simulators.records import climate_temperature_c

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

KIND = "weather_alert"
_ALERT_WORDS = frozenset({"alert", "alerts", "warning", "warnings"})
_WEATHER_WORDS = frozenset({"weather", "forecast", "severe", "storm", "meteo", "onecall", "nws", "climate"})
_PRODUCT = re.compile(r"\b(Warning|Watch|Advisory|Statement)$")
# Field (snake_case) -> the entry's values it may take, in order of preference.
_FIELDS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("event", "title", "event_type", "alert_type", "name", "phenomenon"), ("event",)),
    "type": ("level", "event"),
    **dict.fromkeys(("headline", "summary", "short_description"), ("headline", "event")),
    **dict.fromkeys(("description", "desc", "text", "message", "details"), ("description",)),
    **dict.fromkeys(("severity", "severity_level"), ("severity", "level")),
    **dict.fromkeys(("level", "significance", "alert_level"), ("level", "severity")),
    **dict.fromkeys(("instruction", "instructions", "advice"), ("description",)),
    "urgency": ("urgency",),
    "certainty": ("certainty",),
}
_STARTS = frozenset({"effective", "effective_utc", "effective_local", "effective_at", "onset", "onset_utc", "start",
                     "starts", "start_time", "sent", "issued", "issued_at", "begins", "from"})
_ENDS = frozenset({"expires", "expires_utc", "expires_local", "expires_at", "ends", "ends_utc", "end", "end_time",
                   "until", "to"})
_URL_FIELDS = ("uri", "url", "link", "web")
_SENDERS = frozenset({"sender", "sender_name", "issuer", "issued_by", "agency"})
# A place whose season's mean temperature (°C) is at least this warm gets no cold-weather
# products, and one at most ``_COLD`` no warm-weather ones.
_WARM, _COLD = 15.0, 8.0


def _words(*names: str) -> frozenset[str]:
    return frozenset(w for name in names for w in snake(name).split("_"))


def is_weather_alert(name: str, entity: str, props: Mapping[str, Any]) -> bool:
    """Whether a record of this schema is a weather alert (see the module docstring)."""
    words = _words(name, entity)
    if words.isdisjoint(_ALERT_WORDS):
        return False
    if not words.isdisjoint(_WEATHER_WORDS):
        return True
    event = props.get("event")
    enum = event.get("enum") if isinstance(event, dict) else None
    return isinstance(enum, list) and bool(enum) and all(isinstance(e, str) and _PRODUCT.search(e) for e in enum)


def _entry(record: Mapping[str, Any], gen: Generation, events: frozenset[str] | None) -> dict[str, Any]:
    """The vocabulary entry the record's event names (when the place's climate allows it, the
    call asked for it or the row is stored), else one the climate allows and the schema lists."""
    vocab = gen.facts.vocab
    place = gen.call_place() or gen.scope.place
    mean = climate_temperature_c(place, gen.today)
    banned = "cold" if mean >= _WARM else "warm" if mean <= _COLD else None
    for key in ("event", "title"):
        value = record.get(key)
        named = vocab.index(KIND).get(value.lower()) if isinstance(value, str) else None
        if named is not None and (named["climate"] != banned or key in gen.snaked_args or key in gen.row_keys):
            return named
    allowed = [r for r in vocab.get(KIND).records if r["climate"] != banned]
    pool = [r for r in allowed if events is None or r["event"].lower() in events] or allowed
    entry: dict[str, Any] = pool[gen.rng.randrange(len(pool))]
    return entry


def _fitting(options: list[Any], schema: Any) -> Any:
    """The first option the field's schema takes (an enum's own spelling), or None."""
    enum = schema.get("enum") if isinstance(schema, dict) else None
    if not enum:
        return options[0] if options and (not isinstance(schema, dict) or schema.get("type") in (None, "string")) \
            else None
    cased = {str(e).lower(): e for e in enum}
    return next((cased[str(o).lower()] for o in options if str(o).lower() in cased), None)


def _moment(template: Any, when: dt.datetime) -> Any:
    """``when`` written as the field already writes moments (ISO with Z, a date, Unix time)."""
    if isinstance(template, bool):
        return template
    if isinstance(template, int):
        return int(when.replace(tzinfo=dt.UTC).timestamp())
    if not isinstance(template, str):
        return template
    if len(template) == 10:
        return when.date().isoformat()
    if "T" in template:
        return when.strftime("%Y-%m-%dT%H:%M:%SZ")
    return when.strftime("%Y-%m-%d %H:%M")


def alert_step(name: str, entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a weather alert record coherent, or None for other records."""
    if not is_weather_alert(name, entity, props):
        return None
    fields = {key: _FIELDS[snake(key)] for key in props if snake(key) in _FIELDS}
    senders = [k for k in props if snake(k) in _SENDERS]
    listed = next((props[k].get("enum") for k in ("event", "title") if isinstance(props.get(k), dict)), None)
    events = frozenset(str(e).lower() for e in listed) if isinstance(listed, list) and listed else None
    starts = [k for k in props if snake(k) in _STARTS]
    ends = [k for k in props if snake(k) in _ENDS]

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        entry = _entry(record, gen, events)
        where = gen.call_place() or gen.scope.place
        place = where.name
        for key in senders:  # the place's own national service issues it
            value = _fitting([weather_service(where.country_code, where.country)], props.get(key))
            if key in record and value is not None:
                record[key] = value
        old_title = next((v for k in ("title", "event", "headline") if isinstance(v := record.get(k), str)), None)
        for key, wants in fields.items():
            if key not in record:
                continue
            options = [str(entry[w]).replace("{city}", place) for w in wants]
            if "level" in wants and entry["level"] == "Statement":
                options.append("Advisory")  # a scale with no statements files one as the mildest level
            value = _fitting(options, props.get(key))
            if value is not None:
                record[key] = value
        start = gen.now.replace(minute=gen.now.minute - gen.now.minute % 15, second=0, microsecond=0) \
            - dt.timedelta(minutes=15 * gen.rng.randint(0, 16))
        for key in starts:
            if key in record:
                record[key] = _moment(record[key], start)
        for key in ends:
            if key in record:
                record[key] = _moment(record[key], start + dt.timedelta(hours=int(entry["hours"])))
        if old_title is not None:
            _follow_title(record, old_title)

    return step


@functools.lru_cache(maxsize=1)
def _services() -> dict[str, str]:
    data = json.loads((resources.files("tool_specs") / "reference" / "weather_services.json").read_text())
    return dict(data["services"])


def weather_service(country_code: str, country: str) -> str:
    """The national weather service that warns a country (``reference/weather_services.json``)."""
    return _services().get(country_code.upper()) or f"{country} national weather service"


def _place_service(gen: Generation) -> str:
    where = gen.call_place() or gen.scope.place
    return weather_service(where.country_code, where.country)


ALERT_KINDS: dict[str, Callable[[Generation], Any]] = {"weather_service": _place_service}


def _follow_title(record: dict[str, Any], old: str) -> None:
    """A page URL slugged from the old title names the alert's event instead."""
    new = next((v for k in ("title", "event", "headline") if isinstance(v := record.get(k), str)), old)
    before, after = slugify(old), slugify(new)
    for key in _URL_FIELDS:
        url = record.get(key)
        if isinstance(url, str) and before and url.rstrip("/").endswith("/" + before):
            record[key] = url.rstrip("/")[: -len(before)] + after
