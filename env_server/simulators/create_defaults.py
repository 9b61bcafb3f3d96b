"""What a create shows for the optional fields the caller did not send: the API's neutral
default (the input's declared ``default``: UTC, a 15-minute reminder, reminders on), or
nothing (an empty body, no location, no labels) - never text drawn from elsewhere.

A created event whose caller sent only a subject and times has no body and no location;
it does not describe a photography masterclass in Qujing. Which output fields stand for
which optional inputs is worked out once per spec (``defaults_plan``) and kept with the
compiled plans.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from env_server.simulators.echoes import fits_schema
from env_server.simulators.naming import snake

# (output field, input parameter, what the field shows when the parameter is not sent,
# the part of a sent object input the field shows: ``displayName`` of ``location``, or "")
DefaultsPlan = tuple[tuple[str, str, Any, str], ...]
_PLAN_KEY = "<create defaults>"
_SKIP = object()
_WORDS_RE = re.compile(r"(^|_)(body|description|notes?|content|text|message|location|address|venue|place|preview|"
                       r"details|comment|agenda|instructions|memo|remarks?)(_|$)")
_ZONE_RE = re.compile(r"(^|_)(time_?zone|tz|tzid|tz_id)$")


def defaults_plan(input_schema: Mapping[str, Any], output_schema: Mapping[str, Any], id_field: str,
                  plans: dict[Any, Any]) -> DefaultsPlan:
    """The plan of ``output_schema``'s create (computed once, kept in ``plans``)."""
    key = (id(input_schema), _PLAN_KEY, id_field, "", id(output_schema))
    hit = plans.get(key)
    if hit is None:
        hit = (input_schema, output_schema, _plan(input_schema, output_schema, id_field))
        plans[key] = hit
    plan: DefaultsPlan = hit[2]
    return plan


def _plan(input_schema: Mapping[str, Any], output_schema: Mapping[str, Any], id_field: str) -> DefaultsPlan:
    inputs = input_schema.get("properties") or {}
    required = set(input_schema.get("required") or ())
    outputs = output_schema.get("properties") or {}
    must = set(output_schema.get("required") or ())
    by_snake = {snake(k): k for k in inputs if k not in required and isinstance(inputs[k], dict)}
    plan: list[tuple[str, str, Any, str]] = []
    for name, schema in outputs.items():
        if name == id_field or not isinstance(schema, dict):
            continue
        param = _param_for(snake(name), by_snake, inputs)
        if param is None:
            continue
        same = param == name or snake(param) == snake(name)
        shown = _neutral(name, inputs[param], schema, name in must, same)
        if shown is not _SKIP:
            plan.append((name, param, shown, "" if same else _part(snake(name), snake(param), inputs[param])))
    return tuple(plan)


def _param_for(field: str, by_snake: Mapping[str, str], inputs: Mapping[str, Any]) -> str | None:
    """The optional input a create's output field shows: same name, or a part of an object
    input (``location_displayName`` of ``location``, ``bodyPreview`` of ``body``)."""
    if field in by_snake:
        return by_snake[field]
    for snaked, param in by_snake.items():
        if field.startswith(snaked + "_") and inputs[param].get("type") == "object":
            return param
    return None


def _part(field: str, param: str, schema: Mapping[str, Any]) -> str:
    """The property of an object input a flattened output field shows: named by the rest
    of the field's name (``location_display_name`` -> ``displayName``), else the object's
    one free-text property (``body_preview`` -> ``content``)."""
    props = schema.get("properties") or {}
    rest = field[len(param) + 1:]
    named = next((k for k in props if snake(k) == rest), None)
    if named is not None:
        return str(named)
    texts = [k for k, v in props.items() if isinstance(v, dict) and _free_text(k, v)]
    return str(texts[0]) if len(texts) == 1 else ""


def _neutral(name: str, param: Mapping[str, Any], out: Mapping[str, Any], required: bool, same: bool) -> Any:
    """What the output field holds when the parameter is not sent (``_SKIP``: generate it)."""
    if same and "default" in param and fits_schema(param["default"], dict(out)):
        return param["default"]
    typ = out.get("type")
    if same and _ZONE_RE.search(snake(name)):
        return "UTC" if fits_schema("UTC", dict(out)) else _SKIP  # times sent without a zone are UTC's
    if typ == "array" and not required and int(out.get("minItems", 0)) == 0:
        return []
    text = typ == "string" and not out.get("format") and "enum" not in out and "pattern" not in out
    if text and not required and int(out.get("minLength", 0)) == 0 and _free_text(name, param):
        return ""
    return _SKIP


def _free_text(name: str, param: Mapping[str, Any]) -> bool:
    """A parameter the caller writes in words (a body, notes, a location), not an id, a
    phone number or a code."""
    if param.get("type") not in ("object", "string") or param.get("format") or "enum" in param:
        return False
    return bool(_WORDS_RE.search(snake(name)))


def apply_defaults(out: dict[str, Any], args: Mapping[str, Any], plan: DefaultsPlan) -> None:
    """Unsent optional fields of a created record show their neutral value, and a field
    flattened from a sent object shows that object's part (in place)."""
    for name, param, shown, part in plan:
        if name not in out:
            continue
        if param not in args:
            out[name] = list(shown) if isinstance(shown, list) else shown
        elif part and isinstance(sent := args[param], dict) and isinstance(sent.get(part), str):
            out[name] = sent[part]
