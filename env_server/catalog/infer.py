"""Infer a simulation profile and an output schema for imported specs that lack them.

Imported tool lists (WildToolBench, OpenAI/Anthropic definitions) carry only a name, a
description and input parameters. From those we guess:

* the operation kind, from the leading verb of the name (``getShowDetail`` -> read,
  ``placeOrder`` -> create, ``cancelBooking`` -> delete, ``searchArticles`` -> search);
* the entity noun, from the rest of the name, singularized (``show``, ``order``);
* the id parameter (``id``, ``*_id``, ``*Id``) and the filter parameters;
* a plausible output schema for that operation and entity.

The result is marked ``inferred=True`` and ``toolenv specs show`` prints it.
"""

from __future__ import annotations

import re
from typing import Any

from env_server.catalog.models import Operation, ProfileSpec
from env_server.catalog.places import described_country
from env_server.catalog.templates import (
    GENERIC,
    EntityTemplate,
    choose_template,
    default_templates,
)
from env_server.catalog.words import singularize, snake, split_words

_VERBS: list[tuple[Operation, tuple[str, ...]]] = [
    (Operation.SEARCH, ("search", "find", "query", "filter", "discover", "lookup", "explore", "browse")),
    (Operation.LIST, ("list", "all")),
    (
        Operation.CREATE,
        (
            "create", "add", "post", "book", "place", "submit", "register", "upload", "insert",
            "new", "make", "reserve", "schedule", "subscribe", "save", "open", "start", "organize",
            "generate", "apply", "purchase", "buy", "order", "join", "enroll", "rent",
        ),
    ),
    (
        Operation.UPDATE,
        ("update", "edit", "modify", "change", "set", "rename", "move", "patch", "reschedule", "manage", "rate"),
    ),
    (
        Operation.DELETE,
        ("delete", "remove", "cancel", "unsubscribe", "revoke", "clear", "close", "archive", "leave", "drop"),
    ),
    (
        Operation.READ,
        (
            "get", "fetch", "retrieve", "read", "show", "view", "check", "describe", "detail", "load",
            "access", "download", "track", "monitor", "display", "see",
        ),
    ),
]
_SUFFIX_NOISE = ("detail", "details", "info", "information", "data", "list", "by", "for", "of", "the")
_PLURAL_HINT = re.compile(
    r"\b(list of|lists|search|events|shows|results|items|articles|records|recommend\w*|all (?!details)\w{4,}s)\b", re.IGNORECASE
)
_CONTROL_PARAMS = frozenset(
    {"format", "page", "limit", "offset", "sort", "order_by", "sortby", "lang", "language", "api_key",
     "apikey", "key", "token", "callback", "per_page", "page_size", "count", "max_results", "fields"}
)


def is_id_param(name: str) -> bool:
    low = name.lower()
    return low == "id" or low.endswith(("_id", "uuid")) or name.endswith(("Id", "ID"))


def infer_operation(words: list[str], description: str) -> Operation:
    first = words[0] if words else ""
    for op, verbs in _VERBS:
        if first in verbs:
            if op is Operation.READ and len(words) > 1 and words[1] in ("all", "list"):
                return Operation.LIST
            return op
    desc = description.lower()
    for op, verbs in _VERBS:
        if any(re.search(rf"\b{v}\b", desc[:60]) for v in verbs[:4]):
            return op
    return Operation.ACTION


# "applyForJob" makes an application to the job, "enrollInCourse" an enrollment: the record
# written is the request, not the thing asked for (job listings stay the world's).
_REQUEST_NOUNS = {"apply": "application", "enroll": "enrollment"}


def infer_entity(words: list[str]) -> str:
    """Entity noun: the last meaningful word of the name after the verb, singularized."""
    if len(words) > 2 and words[0] in _REQUEST_NOUNS and words[1] in ("for", "to", "in"):
        return _REQUEST_NOUNS[words[0]]
    rest = words[1:] if len(words) > 1 else words
    rest = [w for w in rest if w not in _SUFFIX_NOISE] or rest
    if "by" in words[1:]:
        before_by = words[1 : words.index("by", 1)]
        rest = [w for w in before_by if w not in _SUFFIX_NOISE] or rest
    noun = singularize(rest[-1]) if rest else "item"
    return re.sub(r"[^a-z0-9_]", "", noun) or "item"


def infer_profile(name: str, description: str, input_schema: dict[str, Any]) -> ProfileSpec:
    words = split_words(name)
    op = infer_operation(words, description)
    props: dict[str, Any] = input_schema.get("properties") or {}
    plural = len(words) > 1 and bool(
        _plural_noun(words) or _PLURAL_HINT.search(description) or _asks_count(props, description))
    id_param, entity = _choose_id_param(op, [p for p in props if is_id_param(p)], infer_entity(words), plural)
    if op is Operation.READ and id_param is None and plural:
        op = Operation.SEARCH
    listing = op in (Operation.SEARCH, Operation.LIST)
    return ProfileSpec(
        operation=op,
        entity=entity,
        id_param=id_param if not listing and op is not Operation.CREATE else None,
        id_field=f"{entity}_id",
        filter_params=[p for p in props if p != id_param and p.lower() not in _CONTROL_PARAMS] if listing else [],
        collection="results" if listing else None,
        inferred=True,
    )


def _choose_id_param(op: Operation, id_params: list[str], entity: str, plural: bool) -> tuple[str | None, str]:
    """(the id parameter naming the record, the entity) of a tool taking ``id_params``."""
    id_param = _best_id_param(id_params, entity)
    if id_param is None and id_params and op in (Operation.UPDATE, Operation.DELETE):
        # "manageBoardPins(board_id)" changes the board: the write's entity is the one its id names.
        return id_params[0], id_entity(id_params[0])
    if id_param is None and op is Operation.READ and not plural and len(id_params) == 1:
        # One record read by the one id it takes, under another name ("getShowDetail(activity_id)").
        return id_params[0], entity
    return id_param, entity


def _best_id_param(candidates: list[str], entity: str) -> str | None:
    """The id parameter naming the tool's own entity (or a bare ``id``). Another entity's id
    (``getMods(game_id)``, ``syncTransactions(user_id)``) filters: it is not the record's id,
    unless it is all a single-record read takes (see ``infer_profile``)."""
    for c in candidates:
        stem = c.lower().replace("_", "")
        if entity in stem or stem in ("id", "uuid"):
            return c
    return None


def id_entity(param: str) -> str:
    """The entity an id parameter names: ``board_id`` and ``boardId`` -> ``board``."""
    stem = snake(param).removesuffix("_uuid").removesuffix("_id")
    return re.sub(r"[^a-z0-9_]", "", stem) or "item"


_COUNT_PARAMS = frozenset({"count", "num", "n", "max_results", "num_results", "number_of_results"})
_COUNT_WORDS = re.compile(r"\b(a (specified|given|certain) number of|a batch of)\b", re.IGNORECASE)


def _plural_noun(words: list[str]) -> bool:
    """Whether the name's noun is plural: its last word, or the last before "by"
    (``getQuotesByAuthor``); "status" and "news" are not plurals."""
    if "trending" in words:
        return True
    before = words[1 : words.index("by", 1)] if "by" in words[1:] else words[1:]
    noun = ([w for w in before if w not in _SUFFIX_NOISE] or before or words)[-1]
    return noun == "news" or noun.endswith("s") and singularize(noun) != noun and noun not in _SINGULAR_S


_SINGULAR_S = frozenset({"news", "series", "species", "analytics", "statistics", "details", "settings", "info"})


def _asks_count(props: dict[str, Any], description: str) -> bool:
    """Whether the call asks for several records (``getRandomQuotesByCount(count)``)."""
    return bool(_COUNT_WORDS.search(description)) or any(snake(p) in _COUNT_PARAMS for p in props)


def infer_tool(
    name: str, description: str, input_schema: dict[str, Any], templates: tuple[EntityTemplate, ...] | None = None
) -> tuple[ProfileSpec, dict[str, Any], EntityTemplate]:
    """Profile and output schema of a tool that has neither, after its domain's template."""
    base = infer_profile(name, description, input_schema)
    template = choose_template(name, description, templates)
    output, hints = template_output(base, input_schema, template)
    update: dict[str, Any] = {"hints": hints, "place": described_country(description)}
    if template.entity and base.operation in (Operation.READ, Operation.ACTION) and base.id_param is None:
        # No id flows in or out, so the entity only steers generation (a coin's price, a city's weather).
        update["entity"] = template.entity
    return base.model_copy(update=update), output, template


def infer_output_schema(profile: ProfileSpec, input_schema: dict[str, Any]) -> dict[str, Any]:
    """The generic template's output for a profile (see ``template_output``)."""
    generic = next(t for t in default_templates() if t.name == GENERIC)
    return template_output(profile, input_schema, generic)[0]


_OP_STATUS = {
    Operation.CREATE: ["created", "confirmed", "pending"],
    Operation.UPDATE: ["updated"],
    Operation.DELETE: ["deleted", "cancelled"],
    Operation.ACTION: ["success"],
}


def template_output(
    profile: ProfileSpec, input_schema: dict[str, Any], template: EntityTemplate
) -> tuple[dict[str, Any], dict[str, str]]:
    """The output schema and hints of a tool answering with ``template``'s record.

    Read and action answer one record, search and list ``{"results": [...], "total": n}``;
    create, update and delete answer the record with the operation's status (a generic
    action only its status). Records carry the entity id (``<entity>_id``) wherever ids
    flow, and echo the call's scalar arguments under the caller's names.
    """
    id_field = profile.id_field or "id"
    echoed = _echoed_arguments(input_schema, id_field)
    op, generic = profile.operation, template.name == GENERIC
    if op in (Operation.SEARCH, Operation.LIST):  # a window's bounds describe the search, not each row
        echoed = {k: v for k, v in echoed.items() if not _BOUND_ARG.search(_CAMEL_EDGE.sub(r"\1_\2", k).lower())}
    record, hints, taken = _record_fields(template, echoed)
    required = [r for r in template.required if r in record or r in echoed]
    record, required = _with_operation_fields(op, generic, record, required)
    if template.has_id or generic or op not in (Operation.READ, Operation.ACTION) or profile.id_param:
        record, required = {id_field: _id_schema(profile, input_schema), **record}, [id_field, *required]
    # An argument standing for a record field keeps the field's schema (its enum, its bounds)
    # for when the call leaves it out; any other argument is only echoed.
    echoes = {k: taken.get(k) or (v if k in required else {**v, ECHO_KEY: True}) for k, v in echoed.items()}
    item = {"type": "object", "properties": {**record, **echoes}, "required": required}
    if op in (Operation.SEARCH, Operation.LIST):
        return {
            "type": "object",
            "properties": {"results": {"type": "array", "items": item}, "total": {"type": "integer", "minimum": 0}},
            "required": ["results", "total"],
        }, hints
    return item, hints


# Marks an output property that only repeats an argument: a call that does not send the
# argument gets no such field (a real API does not invent the filters it was not given).
ECHO_KEY = "x-echo"
# Arguments that bound a search (startDate, max_price, from_year): not a field of the rows found.
_BOUND_ARG = re.compile(r"(^|_)(start|end|from|to|since|until|before|after|min|max)(_|$)")
_CAMEL_EDGE = re.compile(r"([a-z0-9])([A-Z])")


def _echoed_arguments(input_schema: dict[str, Any], id_field: str) -> dict[str, Any]:
    """The call's scalar, non-control arguments (other than the id), as output schemas."""
    props: dict[str, Any] = input_schema.get("properties") or {}
    return {
        k: _echo_schema(v)
        for k, v in props.items()
        if k.lower() not in _CONTROL_PARAMS and k != id_field and _echoable(v)
    }


def _record_fields(
    template: EntityTemplate, echoed: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, str], dict[str, Any]]:
    """The template's record fields the call does not echo, the hints (moved to echoing args),
    and the echoing args with the field schema each stands for (when the types agree).

    A record field the call names (``departure_date`` for ``departureDate``, ``base_currency``
    for ``base``) is the echo, under the caller's name, with the field's hint.
    """
    record: dict[str, Any] = {}
    hints = dict(template.hints)
    taken: dict[str, Any] = {}
    for field, schema in template.properties.items():
        arg = next((a for a, a_schema in echoed.items() if _names_field(a, a_schema, field, schema)), None)
        if arg is None:
            record[field] = schema
            continue
        taken[arg] = _field_schema(echoed[arg], schema)
        if field in template.hints:
            hints.setdefault(arg, template.hints[field])
    return record, hints, taken


_NUMERIC = frozenset({"integer", "number"})


def _id_schema(profile: ProfileSpec, input_schema: dict[str, Any]) -> dict[str, Any]:
    """The record id's schema: the id parameter's type when the call passes one under the same
    name (an integer ``entity_id`` reads back as that integer), a string otherwise."""
    param = (input_schema.get("properties") or {}).get(profile.id_param or "")
    same = profile.id_param and snake(profile.id_param) == snake(profile.id_field or "")
    if same and isinstance(param, dict) and param.get("type") in _NUMERIC:
        return {"type": param["type"]}
    return {"type": "string"}


def _field_schema(arg_schema: dict[str, Any], field_schema: dict[str, Any]) -> dict[str, Any]:
    """The schema of an argument's echo standing for a record field: the field's (its enum,
    its bounds) when the types agree, under the argument's own numeric type."""
    arg_type, field_type = arg_schema.get("type", "string"), field_schema.get("type", "string")
    if "enum" in arg_schema:
        return arg_schema
    if arg_type == field_type:
        return field_schema
    if {arg_type, field_type} <= _NUMERIC:
        return {**field_schema, "type": arg_type}
    return arg_schema


def _with_operation_fields(
    op: Operation, generic: bool, record: dict[str, Any], required: list[str]
) -> tuple[dict[str, Any], list[str]]:
    """A generic action answers only a timestamp; writes add their status (and creation time)."""
    if op is Operation.ACTION and generic:
        record, required = {"timestamp": {"type": "string", "format": "date-time"}}, []
    if op in _OP_STATUS and (op is not Operation.ACTION or generic):
        record = {**record, "status": {"type": "string", "enum": _OP_STATUS[op]}}
        required = [*(r for r in required if r != "status"), "status"]
        if op is Operation.CREATE:
            record["created_at"] = {"type": "string", "format": "date-time"}
    return record, required


# "base" names "base_currency", "destination" names "destination_station": the role alone.
_QUALIFIERS = frozenset({"currency", "language", "lang", "name", "station", "city", "location", "airport", "text",
                         "date", "time"})


def _names_field(arg: str, arg_schema: dict[str, Any], field: str, schema: dict[str, Any]) -> bool:
    """Whether an argument stands for a record field: the same name in any case style, or
    the same role with or without a qualifier, holding the same type."""
    a, f = snake(arg), snake(field)
    if a == f:
        return True
    short, long = sorted((a, f), key=len)
    same_type = arg_schema.get("type", "string") == schema.get("type", "string")
    return same_type and long.startswith(short + "_") and long[len(short) + 1 :] in _QUALIFIERS


def _echoable(schema: Any) -> bool:
    """Scalar arguments are echoed; the engine generates arrays and objects rather than
    echoing them, so as output fields they would only hold made-up values."""
    return not isinstance(schema, dict) or schema.get("type") not in ("array", "object")


def _echo_schema(schema: Any) -> dict[str, Any]:
    if not isinstance(schema, dict):
        return {"type": "string"}
    keep = {k: schema[k] for k in ("type", "enum", "items", "properties", "format") if k in schema}
    return keep or {"type": "string"}


_CATEGORY_WORDS: list[tuple[str, tuple[str, ...]]] = [
    ("Weather", ("weather", "forecast", "aqi", "air quality", "temperature", "climate", "rain")),
    ("Finance", ("stock", "market", "trade", "account balance", "portfolio", "economic", "invest", "bank")),
    ("Cryptocurrency", ("crypto", "bitcoin", "blockchain", "wallet", "token")),
    ("Currency Exchange", ("currency", "exchange rate", "forex")),
    ("Dictionaries", ("word", "dictionary", "synonym", "pronunciation", "definition", "translate")),
    ("News", ("news", "article", "headline")),
    ("Personality", ("quote",)),
    ("Entertainment", ("show", "movie", "film", "concert", "ticket", "event")),
    ("Anime", ("anime", "manga")),
    ("Music", ("song", "track", "album", "artist", "playlist", "music")),
    ("Games & Comics", ("game", "player", "quest", "monster", "weapon", "comic")),
    ("Sports & Fitness", ("team", "league", "match", "sport", "workout", "fitness", "score")),
    ("Shopping", ("order", "product", "cart", "shop", "purchase")),
    ("Transportation", ("flight", "airport", "train", "bus", "transit", "vehicle", "ride")),
    ("Travel", ("hotel", "travel", "trip", "booking", "tour")),
    ("Food & Drink", ("recipe", "food", "restaurant", "meal", "drink", "nutrition")),
    ("Health", ("health", "medical", "drug", "symptom", "doctor")),
    ("Social", ("message", "chat", "friend", "post", "social", "user activity")),
    ("Geocoding", ("geocode", "address", "location", "map", "coordinates")),
    ("Jobs", ("job", "career", "salary")),
    ("Books", ("book", "author", "library")),
    ("Security", ("security", "vulnerab", "malware", "scan", "auth", "login", "password")),
    ("Development", ("api", "echo", "http", "code", "repository")),
]


def infer_category(name: str, description: str) -> str:
    text = " ".join(split_words(name)) + " " + description.lower()
    for category, words in _CATEGORY_WORDS:
        if any(w in text for w in words):
            return category
    return "Other"
