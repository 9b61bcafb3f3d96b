"""Valid sample arguments for a tool, generated from its input schema.

Used by ``specs check``, the conformance tests and the benchmarks. Variant 0 fills only
the required parameters, variant 1 fills every parameter, later variants a seeded subset.
A free-text parameter takes what its description names or exemplifies (``sample_values``:
an example, an E.164 number, a VIN, a language code) before its schema alone.

A tool that answers 404 to ids its world never produced (``unknown_ids: error``) cannot
succeed on a sampled id: ``id_producer`` names the family's create tool to call first, and
``produced_id`` takes the id out of what it returned.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from typing import Any

from env_server.catalog.models import Operation, ToolSpec
from env_server.simulators import timeline
from env_server.simulators.base import DEFAULT_TODAY
from env_server.simulators.fx import sample_currency
from env_server.simulators.generate import Generation, call_seed
from env_server.simulators.market import market_domain
from env_server.specs.sample_callers import NO_RULE, caller_value
from env_server.specs.sample_records import record_value
from env_server.specs.sample_texts import is_text_param, text_value
from env_server.specs.sample_values import described_value, sample_value


def sample_arguments(spec: ToolSpec, variant: int = 0) -> dict[str, Any]:
    props: dict[str, Any] = spec.input_schema.get("properties") or {}
    # The tool's market (a crypto exchange's symbols are coins) is its category's and description's;
    # other categories keep the samples they had (a category also says a vague record's medium).
    category = spec.category if market_domain(spec.category, "", "") else ""
    gen = Generation(seed=call_seed(spec.name, {"variant": variant}, 7), today=DEFAULT_TODAY, args={},
                     category=category, provider=spec.provider, about=spec.description)
    args: dict[str, Any] = {}
    for name in _chosen_parameters(spec, props, variant, gen):
        sub = props[name]
        if isinstance(sub, dict) and "default" in sub and variant != 1:
            args[name] = sub["default"]
        else:
            args[name] = _patterned(_sampled_value(spec, name, sub, gen, args), sub)
    order_arguments(args)
    if not _FUTURE_TOOL.search(f"{spec.name} {spec.description}".lower()):
        past_window(args, DEFAULT_TODAY)
    return args


def _chosen_parameters(spec: ToolSpec, props: dict[str, Any], variant: int, gen: Generation) -> list[str]:
    """Variant 0: the required ones (and the text of a text-analysis call); 1: all; later: a seeded subset."""
    required = [r for r in spec.input_schema.get("required") or [] if r in props]
    if variant == 0:
        # A text-analysis call without its text (sent as a url or html instead) is not the usual one.
        texts = [p for p, sub in props.items() if isinstance(sub, dict) and is_text_param(p, sub)]
        return required + ([texts[0]] if texts and not set(texts) & set(required) else [])
    if variant == 1:
        return list(props)
    return required + [p for p in props if p not in required and gen.rng.random() < 0.5]


def _sampled_value(spec: ToolSpec, name: str, sub: Any, gen: Generation, args: dict[str, Any]) -> Any:
    """What a caller sends for one parameter: the first rule that knows, else the schema's draw.

    In order: a currency code; the text a caller analyses, a place a geocoder looks up or a
    language code (``sample_texts``); a search filter's value from its rows' closed list
    (``sample_records``); a language pair, a prefix, a UUID (``sample_callers``);
    the example or kind a description names (``sample_values``)."""
    if not isinstance(sub, dict):
        return gen.fill({}, name)
    if (near := home_coordinate(spec, name, gen)) is not None:
        return near
    if (code := sample_currency(name, sub, gen)) is not None:
        return code
    if "enum" not in sub and (text := text_value(spec, name, sub, gen)) is not None:
        return text
    if (held := record_value(spec, name, sub, gen)) is not None:  # a filter names what rows hold
        return held
    if (ruled := caller_value(name, sub, gen, args)) is not NO_RULE:
        return ruled
    if (said := sample_value(name, sub, gen)) is not None:
        return said
    told = described_value(name, sub, gen, args, str(spec.category))
    return told if told is not None else gen.fill(sub, name)


_LATITUDES, _LONGITUDES = frozenset({"lat", "latitude"}), frozenset({"lon", "lng", "long", "longitude"})


def home_coordinate(spec: ToolSpec, name: str, gen: Generation) -> float | None:
    """A national API (a profile ``place`` that is a country) is asked about a point in its
    country: its capital's latitude or longitude; None for other parameters and APIs."""
    home, low = spec.profile.place or "", name.lower()
    if len(home) != 2 or low not in _LATITUDES | _LONGITUDES:
        return None
    country = gen.facts.reference.country(home.upper())
    capital = gen.facts.reference.find_place(f"{country['capital']}, {country['name']}") if country else None
    if capital is None:
        return None
    return round(capital.latitude if low in _LATITUDES else capital.longitude, 4)


def _patterned(value: Any, schema: Any) -> Any:
    """A drawn string that misses the parameter's ``pattern`` gives way to its first example."""
    if not isinstance(schema, dict) or not isinstance(value, str) or not isinstance(schema.get("pattern"), str):
        return value
    examples = [e for e in schema.get("examples") or [] if isinstance(e, str)]
    if re.search(schema["pattern"], value) or not examples:
        return value
    return examples[0]


def order_arguments(args: dict[str, Any]) -> None:
    """A sampled window starts before it ends: swap a start/end pair drawn the wrong way round."""
    for start, end in timeline.pairs(args):
        a, b = timeline.moment(args[start], start), timeline.moment(args[end], end)
        if a is not None and b is not None and b < a and type(args[start]) is type(args[end]):
            args[start], args[end] = args[end], args[start]


def id_producer(spec: ToolSpec, specs: Iterable[ToolSpec]) -> ToolSpec | None:
    """The tool that creates the entity ``spec`` opens by id, in the same family, if any."""
    p = spec.profile
    if not p.id_param:
        return None
    return next((s for s in specs if s.family == spec.family and s.profile.entity == p.entity
                 and s.profile.operation is Operation.CREATE), None)


def produced_id(producer: ToolSpec, reader: ToolSpec, made: Any) -> Any | None:
    """The id in a create call's result, under the first name the two tools give it."""
    if not isinstance(made, dict):
        return None
    p = reader.profile
    for name in (producer.profile.id_field, p.id_field, p.id_param, f"{p.entity}_id", "id"):
        if name and name in made:
            return made[name]
    return None


# Tools whose windows look ahead (forecasts, bookings, schedules); other windows look back.
_FUTURE_TOOL = re.compile(r"forecast|upcoming|event|flight|departure|booking|book_|reserv|schedul|calendar|concert|"
                          r"show|ticket|hotel|trip|itinerar|appointment|meeting|planner|plan_|future|next|tide|launch")


def past_window(args: dict[str, Any], today: dt.date) -> None:
    """A sampled date window of a tool that looks back (headlines published, historical
    papers) ends by ``today``: a caller asks about what already happened. Shifts ISO dates
    ``YYYY-MM-DD`` of the window's arguments back by whole years, keeping their span."""
    names = [n for n in args if isinstance(args[n], str) and _DATE_ARG.match(args[n]) and _WINDOW_NAME.search(n.lower())]
    latest = max((dt.date.fromisoformat(args[n][:10]) for n in names), default=None)
    if latest is None or latest <= today:
        return
    years = latest.year - today.year + (1 if latest.replace(year=today.year) > today else 0)
    for n in names:
        day = dt.date.fromisoformat(args[n][:10])
        shifted = day.replace(year=day.year - years) if not (day.month == 2 and day.day == 29) else day.replace(
            year=day.year - years, day=28)
        args[n] = shifted.isoformat() + args[n][10:]


_DATE_ARG = re.compile(r"^\d{4}-\d{2}-\d{2}")
_WINDOW_NAME = re.compile(r"start|end|from|to|since|until|before|after|date")
