"""The generic simulator family: schema-driven output for any tool.

It serves every spec whose family has no dedicated module. The operation in the profile
shapes the answer: a read echoes the requested id into the id field, a search answers its
question (``answers``), a create mints an id from the call seed, a delete reports the
cancelled state.
"""

from __future__ import annotations

import functools
from typing import Any

from env_server.catalog.models import Operation, ToolSpec
from env_server.simulators.answers import answer_search
from env_server.simulators.arg_fields import echo_keys, with_measure_defaults
from env_server.simulators.base import SimContext
from env_server.simulators.fx import is_fx_entity, with_defaults
from env_server.simulators.generate import Generation, call_seed
from env_server.simulators.geo_kinds import same_country
from env_server.simulators.own_title import own_arg_names


def simulate_generic(spec: ToolSpec, args: dict[str, Any], ctx: SimContext, *, answer: bool = True) -> dict[str, Any]:
    """``answer``: a search/list's rows are made to agree with the call (``answers``); the
    world's search passes False and answers only the rows it keeps."""
    profile = spec.profile
    gen = Generation(
        seed=call_seed(spec.name, args, ctx.seed, ctx.args_json),
        today=ctx.today,
        args=with_defaults(args, spec.input_schema) if is_fx_entity(profile.entity) else with_measure_defaults(
            args, spec.input_schema),
        entity=profile.entity,
        hints=profile.hints,
        session_seed=ctx.seed,
        now=ctx.now,
        current=reports_current(spec),
        plans=ctx.plans,
        provider=spec.provider,
        link=spec.link,
        home=profile.place,
        category=spec.category,
        about=spec.description,
    )
    if profile.operation not in (Operation.SEARCH, Operation.LIST):  # a read's or a write's parts are not it
        gen.record_only_from = lambda: own_arg_names(args, profile.id_param)
    result = gen.fill(spec.output_schema)
    if not isinstance(result, dict):
        result = {"result": result}
    id_field = profile.id_field or "id"
    props = spec.output_schema.get("properties") or {}
    # A country named by its code keeps its own codes ("CH" opens CHE, whose cca3 is "CHE").
    if profile.id_param and profile.id_param in args and id_field in props:
        value = args[profile.id_param]
        if _same_type(value, props[id_field]) and not same_country(value, result.get(id_field), profile.entity):
            result[id_field] = value
    if profile.operation is Operation.READ:
        echo_keys(result, args, spec.input_schema, spec.output_schema, profile.id_param)
    if answer and profile.operation in (Operation.SEARCH, Operation.LIST) and profile.collection:
        answer_search(result, spec, args)  # the term shows, filters hold, sort and limit obeyed
    return result


_CURRENT_WORDS = ("latest", "current", "realtime", "real_time", "now", "quote", "convert", "rate", "price",
                  "live", "today", "status", "ticker", "weather", "conditions")


def reports_current(spec: ToolSpec) -> bool:
    """Whether a tool answers with today's data ("latest", "current", a quote, a conversion)."""
    return _reports_current(spec.name, spec.profile.operation)


@functools.lru_cache(maxsize=8192)
def _reports_current(name: str, operation: Operation) -> bool:
    """``reports_current`` of a tool's name and operation: read off once per tool, not per call."""
    if operation not in (Operation.READ, Operation.ACTION):
        return False
    low = name.lower()
    return any(word in low for word in _CURRENT_WORDS) and "histor" not in low


def _same_type(value: Any, schema: dict[str, Any]) -> bool:
    t = schema.get("type")
    if t == "string":
        return isinstance(value, str)
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return False
