"""Valid sample arguments for a tool, generated from its input schema.

Used by ``specs check``, the conformance tests and the benchmarks. Variant 0 fills only
the required parameters, variant 1 fills every parameter, later variants a seeded subset.

A tool that answers 404 to ids its world never produced (``unknown_ids: error``) cannot
succeed on a sampled id: ``id_producer`` names the family's create tool to call first, and
``produced_id`` takes the id out of what it returned.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from env_server.catalog.models import Operation, ToolSpec
from env_server.simulators.base import DEFAULT_TODAY
from env_server.simulators.generate import Generation, call_seed
from env_server.specs.sample_rules import is_text_param, sample_value


def sample_arguments(spec: ToolSpec, variant: int = 0) -> dict[str, Any]:
    schema = spec.input_schema
    props: dict[str, Any] = schema.get("properties") or {}
    required = [r for r in schema.get("required") or [] if r in props]
    gen = Generation(seed=call_seed(spec.name, {"variant": variant}, 7), today=DEFAULT_TODAY, args={})
    if variant == 0:
        # A text-analysis call without its text (sent as a url or html instead) is not the usual one.
        texts = [p for p, sub in props.items() if isinstance(sub, dict) and is_text_param(p, sub)]
        chosen = required + ([texts[0]] if texts and not set(texts) & set(required) else [])
    elif variant == 1:
        chosen = list(props)
    else:
        chosen = required + [p for p in props if p not in required and gen.rng.random() < 0.5]
    args: dict[str, Any] = {}
    for name in chosen:
        sub = props[name]
        if isinstance(sub, dict) and "default" in sub and variant != 1:
            args[name] = sub["default"]
            continue
        value = sample_value(spec, name, sub, gen) if isinstance(sub, dict) and "enum" not in sub else None
        args[name] = value if value is not None else gen.fill(sub if isinstance(sub, dict) else {}, name)
    return args


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
