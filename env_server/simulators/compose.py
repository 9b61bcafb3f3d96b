"""Names and free text composed from a record's own facts, for entities no vocabulary covers.

A dashboard, a watchlist, a wallet or a mod has no title vocabulary of its own; drawing
one from office documents ("Employee Handbook 2026") or personal notes ("the apartment
viewing is at the second entrance") gives the tool away. These kinds build the text from
what the record is instead: its entity ("watchlist"), a short name people give such
things (``tool_specs/vocab/code_name.json``), the provider and the record's place
(``entity_title``, ``entity_summary``). A generic record (an imported tool's entity no
template fits) describes itself from what it is and what the call asked
(``record_summary``): ``Chapter “Annual Report” for state Texas, year 2025.``
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

MAX_ARG_CHARS = 40
MAX_ARGS = 3

# Summary templates: {entity} the entity in words, {name} the record's name, {provider}
# the answering service, {city} the record's place.
_SUMMARIES = (
    "{Entity} {name}, kept on {provider}.",
    "{name}: a {entity} created and maintained on {provider}.",
    "The {entity} {name}, as {provider} lists it.",
    "{name} — {entity} details and settings.",
    "{Entity} maintained by the {city} team.",
    "{name}. Shared {entity}; edited by several members.",
)
# Entity words that read badly as a name's head ("Granite Item"): the name stands alone.
_VAGUE = frozenset({"item", "object", "entity", "record", "result", "data", "info", "detail", "details", "response"})


def entity_words(entity: str) -> str:
    """An entity as words: ``emission_factor`` -> ``emission factor``."""
    return snake(entity).strip("_").replace("_", " ") or "item"


def entity_title(gen: Generation) -> str:
    """A name for a record of an entity no vocabulary covers: ``Granite Watchlist``."""
    names = gen.facts.vocab.get("code_name").values
    name = names[gen.rng.randrange(len(names))]
    words = entity_words(gen.entity)
    if words.split()[-1] in _VAGUE:
        return name
    return f"{name} {words.title()}"


def entity_summary(gen: Generation, name: str) -> str:
    """A one-line description of the record, composed from its name, entity and place."""
    template = _SUMMARIES[gen.rng.randrange(len(_SUMMARIES))]
    words = entity_words(gen.entity)
    provider = (gen.provider if gen.link else "") or "the service"  # imported specs' providers are group ids
    return (template.replace("{Entity}", words.capitalize()).replace("{entity}", words)
            .replace("{name}", name).replace("{provider}", provider).replace("{city}", gen.scope.place.name))


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


# Things people install and name by where they put them: a weather station, a sensor, a device.
EQUIPMENT = frozenset({"station", "device", "sensor", "thermostat", "meter", "gauge", "camera", "hub", "gateway",
                       "node", "monitor", "probe", "detector", "logger", "tracker", "beacon", "controller"})


def equipment_name(gen: Generation) -> str:
    """A name an owner gives a station or a sensor: ``Backyard Station``, ``Roof Sensor 2``,
    ``Lakeside Weather``."""
    sites = gen.facts.vocab.get("equipment_site").values
    site = sites[gen.rng.randrange(len(sites))].title()
    head = next((w for w in reversed(snake(gen.entity).split("_")) if w in EQUIPMENT), "station").title()
    roll = gen.rng.random()
    if head == "Station" and gen.category == "Weather" and roll < 0.25:
        return f"{site} Weather"
    if roll < 0.55:
        return f"{site} {head}"
    return f"{site} {head} {gen.rng.randint(1, 6)}"
