"""Names and summaries composed from a record's own facts, for entities no vocabulary covers.

A dashboard, a watchlist, a wallet or a mod has no title vocabulary of its own; drawing
one from office documents ("Employee Handbook 2026") or personal notes ("the apartment
viewing is at the second entrance") gives the tool away. These kinds build the text from
what the record is instead: its entity ("watchlist"), a short name people give such
things (``tool_specs/vocab/code_name.json``), the provider and the record's place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

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
    provider = gen.provider or "the service"
    return (template.replace("{Entity}", words.capitalize()).replace("{entity}", words)
            .replace("{name}", name).replace("{provider}", provider).replace("{city}", gen.scope.place.name))
