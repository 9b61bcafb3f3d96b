"""Transit service alerts that name their own line and stops, and say what their effect is.

A record is a transit alert when its entity says alert (advisory, disruption, line status,
service message), it has a free-text field (``description``, ``header``, ``message``,
``reason``, ``content``…), and it is about a network: a field names a line, route, stop or
station or a mode, its entity says train, metro or line, or its effect enum lists transit
effects (``DELAY``, ``SHUTTLE``, ``REDUCED_SERVICE``). Road, park, flight and weather alerts
are not.

Per record, the step takes one line of the answering provider's network (real lines and
stops, ``tool_specs/reference/transit_networks.json``; an unknown network keeps the record's
own line, or draws one of ``transit_line``), two of its stops, and the effect the record
already states (its ``effect``, ``type`` or status, read through ``_TOPICS``; a status
severity scale is drawn whole). The text is a ``transit_notice`` template of that effect,
with ``{line}``, ``{stop}``, ``{direction}``, ``{minutes}`` and a ``transit_cause`` filled
in: "Northbound Red Line trains are delayed up to 15 minutes due to a signal problem at
Park Street." The line, stop, direction and mode fields are set to the same facts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from env_server.simulators.alert_kinds import is_weather_alert
from env_server.simulators.draws import slugify
from env_server.simulators.naming import snake
from env_server.simulators.notice_compose import Fields, capitalized, compose_whole, fits, template, words_of
from env_server.simulators.reference_tables import reference_table

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

KIND, CAUSES = "transit_notice", "transit_cause"
_ALERT_WORDS = frozenset({"advisory", "advisories", "alert", "alerts", "disruption", "disruptions", "status",
                          "notice", "notices", "message", "messages", "bsa"})
_NOT_TRANSIT = frozenset({"traffic", "road", "park", "weather", "flight", "flights", "price", "shodan", "security"})
_TRANSIT_WORDS = frozenset({"train", "rail", "metro", "subway", "tram", "transit", "line", "bus", "mrt"})
_TEXTS = ("description", "header", "message", "content", "reason", "summary", "text", "details",
          "header_text", "description_text", "short_header", "alert_text")
_CAUSES = ("cause",)
_LINE_NAMES = ("line_name", "route_name", "route_long_name", "name")
_LINE_CODES = ("line", "route", "line_id", "route_id")
_STOPS = ("station", "stop", "stop_name", "station_name")
_DIRECTIONS = ("direction", "mrtshuttle_direction", "shuttle_direction")
_MODES = ("mode_name", "mode")
_SEVERITY, _SEVERITY_TEXT = ("status_severity",), ("status_severity_description",)
_EFFECTS = ("effect", "type", "status_severity_description", "category", "alert_type")
# An effect a feed states (any case, spaces as underscores) -> the template topic.
_TOPICS = {
    "delay": "delay", "delays": "delay", "significant_delays": "delay", "minor_delays": "delay",
    "severe_delays": "delay", "other_effect": "delay", "unknown_effect": "delay", "emergency": "emergency",
    "detour": "detour", "diverted": "detour", "shuttle": "shuttle", "bus_service": "shuttle",
    "stop_closure": "closure", "station_closure": "closure", "part_closure": "closure", "closed": "closure",
    "suspension": "suspension", "no_service": "suspension", "suspended": "suspension", "part_suspended": "suspension",
    "service_change": "planned", "modified_service": "planned", "planned_closure": "planned",
    "track_change": "track", "elevator_closure": "elevator", "escalator_closure": "escalator",
    "reduced_service": "reduced", "additional_service": "extra", "stop_moved": "moved", "good_service": "good",
}
_DRAWN_TOPICS = ("delay", "delay", "delay", "suspension", "reduced", "planned", "closure", "elevator", "shuttle")
_BUS_TOPICS = frozenset({"detour", "moved"})
_STATION_TOPICS = frozenset({"elevator", "escalator", "track", "closure"})
_PICKY_TOPICS = _BUS_TOPICS | _STATION_TOPICS
# The cause a feed files a notice under when its text names none.
_TOPIC_CAUSES = {"planned": "Planned works", "track": "Track work", "shuttle": "Track work",
                 "elevator": "Equipment maintenance", "escalator": "Equipment maintenance", "extra": "Special event",
                 "moved": "Roadworks", "good": "", "closure": "Station works", "detour": "Roadworks"}
_EFFECT_ENUM_WORDS = frozenset({"DELAY", "DETOUR", "SHUTTLE", "SUSPENSION", "REDUCED_SERVICE", "NO_SERVICE",
                                "SIGNIFICANT_DELAYS", "STOP_CLOSURE"})


@dataclass(frozen=True)
class Line:
    name: str
    code: str
    mode: str
    stops: tuple[str, ...]
    spoken: str  # how alerts call it ("Bakerloo line" for TfL's "Bakerloo")


@functools.cache
def _table() -> dict[str, Any]:
    data: dict[str, Any] = reference_table("transit_networks.json")
    return data


@functools.lru_cache(maxsize=64)
def network(provider: str) -> tuple[Line, ...]:
    """The real lines of the provider's network (empty for a network we do not know)."""
    found = _table()["networks"].get(provider)
    if found is None:
        return ()
    return tuple(Line(x["name"], x["code"], x["mode"], tuple(x["stops"]), x.get("spoken", x["name"]))
                 for x in found["lines"])


@functools.lru_cache(maxsize=128)
def _lines_for(provider: str, bus: bool) -> tuple[Line, ...]:
    """The network's bus routes (or its rail lines), or all its lines when it has none of them."""
    lines = network(provider)
    return tuple(x for x in lines if (x.mode == "bus") == bus) or lines


def _is_transit(name: str, entity: str, props: Mapping[str, Any]) -> bool:
    words = words_of(name, entity)
    if words.isdisjoint(_ALERT_WORDS) or not words.isdisjoint(_NOT_TRANSIT) or is_weather_alert(name, entity, props):
        return False
    names = {snake(k) for k in props}
    if not names.isdisjoint((*_LINE_CODES, *_STOPS, "mode_name")) or not words.isdisjoint(_TRANSIT_WORDS):
        return True
    enums = (v.get("enum") or [] for v in props.values() if isinstance(v, dict))
    return any(not _EFFECT_ENUM_WORDS.isdisjoint(e for e in enum if isinstance(e, str)) for enum in enums)


@dataclass(frozen=True)
class _Layout:
    texts: Fields
    causes: Fields
    names: Fields
    codes: Fields
    stops: Fields
    directions: Fields
    modes: Fields
    effects: Fields
    severity: Fields
    severity_text: Fields
    ids: Fields


def transit_step(name: str, entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that writes a transit alert's text from its line, stops and effect, or None."""
    if not _is_transit(name, entity, props):
        return None
    lay = _Layout(
        Fields.among(props, _TEXTS), Fields.among(props, _CAUSES),
        Fields.among(props, _LINE_NAMES if "line" in words_of(entity) else _LINE_NAMES[:-1]),
        Fields.among(props, _LINE_CODES, text_only=False), Fields.among(props, _STOPS),
        Fields.among(props, _DIRECTIONS), Fields.among(props, _MODES, text_only=False),
        Fields.among(props, _EFFECTS, text_only=False), Fields.among(props, _SEVERITY, text_only=False),
        Fields.among(props, _SEVERITY_TEXT, text_only=False), Fields.among(props, ("id",)))
    if not lay.texts and not (lay.codes and (lay.directions or lay.stops)):
        return None  # neither text to write nor a line's facts to agree

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        if lay.texts or network(gen.provider):
            _write(record, gen, lay, props)

    return compose_whole(step, lay.texts, lay.causes) if lay.texts else step


def _line(record: Mapping[str, Any], gen: Generation, lay: _Layout, topic: str) -> Line:
    """The record's line: the network's line its fields name, else one drawn from the network."""
    lines = network(gen.provider)
    named = lay.codes.first_value(record) or lay.names.first_value(record)
    if lines:
        found = next((x for x in lines if named in (x.code, x.name)), None)
        if found is not None:
            return found
        # An effect at stations (an elevator, a platform) is a rail line's; a detour a bus route's.
        pool = _lines_for(gen.provider, topic in _BUS_TOPICS) if topic in _PICKY_TOPICS else lines
        return pool[gen.rng.randrange(len(pool))]
    line = named or str(gen.rng.choice(gen.facts.vocab.get("transit_line").values))
    stops = _table()["generic_stops"]
    return Line(line, line, "", tuple(stops[gen.rng.randrange(len(stops))] for _ in range(4)), line)


def _topic(record: dict[str, Any], gen: Generation, lay: _Layout, props: Mapping[str, Any]) -> str:
    if lay.severity or lay.severity_text:
        levels = _table()["severity_scale"]["levels"]
        code, text, topic, _ = gen.rng.choices(levels, weights=[x[3] for x in levels])[0]
        lay.severity.write(record, code, props)
        lay.severity_text.write(record, text, props)
        return str(topic)
    for key in lay.effects.keys:
        value = record.get(key)
        if isinstance(value, str) and (topic := _TOPICS.get(value.strip().lower().replace(" ", "_"))):
            return topic
    return _DRAWN_TOPICS[gen.rng.randrange(len(_DRAWN_TOPICS))]


def _write_line(record: dict[str, Any], line: Line, stops: tuple[str, str], lay: _Layout,
                props: Mapping[str, Any]) -> None:
    """The network's facts of the line into the record: its code or name, a stop, the terminal
    it runs toward, its mode (and an id slugged from the old name follows the new one)."""
    old_name = lay.names.first_value(record)
    # A line field takes the form the network writes (a code where it has one, its name where named).
    for key in lay.codes.keys:
        value = line.code if fits(line.code, props.get(key)) else line.name
        if key in record and fits(value, props.get(key)):
            record[key] = value
    lay.names.write(record, line.name, props)
    lay.stops.write(record, stops[0], props)
    lay.directions.write(record, stops[1], props)
    lay.modes.write(record, line.mode, props)
    if old_name is not None:
        for key in lay.ids.keys:
            if record.get(key) == slugify(old_name):
                record[key] = slugify(line.code)


def _write(record: dict[str, Any], gen: Generation, lay: _Layout, props: Mapping[str, Any]) -> None:
    rng = gen.rng
    topic = _topic(record, gen, lay, props)
    line = _line(record, gen, lay, topic)
    at = rng.randrange(len(line.stops) - 1)
    stop, stop2 = line.stops[at], line.stops[at + 1 + rng.randrange(min(3, len(line.stops) - at - 1))]
    directions = _table()["directions"]
    direction = directions[rng.randrange(len(directions))]
    if line.mode:  # a network we know: the record's line, stops, direction and mode are its facts
        _write_line(record, line, (stop, line.stops[-1]), lay, props)
    else:  # an unknown network: the record's own stop and direction are what the text names
        stop = lay.stops.first_value(record) or stop
        direction = (lay.directions.first_value(record) or direction).lower()
    bus = line.mode == "bus"
    causes = gen.facts.vocab.grouped(CAUSES, "mode")
    anywhere, own = causes[("any",)], causes[("bus",) if bus else ("rail",)] if line.mode else ()
    at = rng.randrange(len(anywhere) + len(own))  # a cause of any line, or of this kind of line
    cause = anywhere[at] if at < len(anywhere) else own[at - len(anywhere)]
    minutes = rng.choice((5, 8, 10, 10, 12, 15, 15, 20, 20, 25, 30, 45))
    slots = {"line": line.spoken, "stop": stop, "stop2": stop2, "direction": direction,
             "Direction": capitalized(direction), "minutes": minutes, "minutes2": minutes + rng.choice((5, 10, 15)),
             "cause": cause}
    if topic in _BUS_TOPICS and line.mode and not bus:
        topic = "planned"  # a train line is not detoured round a street
    elif topic in _STATION_TOPICS and bus:
        topic = "detour"  # a bus stop has no platform elevator
    named_cause = False
    for key in lay.texts.keys:
        if key in record:
            text = template(gen, KIND, ("effect",), (topic,))
            named_cause = named_cause or "{cause}" in text
            record[key] = text.format_map(slots)
    # A cause field gives the cause the text names, or the cause its effect implies.
    said = capitalized(cause.split(" ", 1)[1] if cause.startswith(("a ", "an ")) else cause) if named_cause \
        else _TOPIC_CAUSES.get(topic, "Operational reasons")
    lay.causes.write(record, said, props)
