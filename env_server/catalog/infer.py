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
_PLURAL_HINT = re.compile(r"\b(list of|search|events|shows|results|items|articles|records|recommend\w*)\b", re.I)
_CONTROL_PARAMS = frozenset(
    {"format", "page", "limit", "offset", "sort", "order_by", "sortby", "lang", "language", "api_key",
     "apikey", "key", "token", "callback", "per_page", "page_size", "count", "max_results", "fields"}
)


def split_words(name: str) -> list[str]:
    """Split camelCase / snake_case / kebab names into lowercase words."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", spaced)
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w]


def singularize(word: str) -> str:
    if len(word) <= 3 or word.endswith("ss") or word.endswith("us") or word.endswith("is"):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "ses")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def is_id_param(name: str) -> bool:
    low = name.lower()
    return low == "id" or low.endswith("_id") or name.endswith(("Id", "ID")) or low.endswith("uuid")


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


def infer_entity(words: list[str]) -> str:
    """Entity noun: the last meaningful word of the name after the verb, singularized."""
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
    id_params = [p for p in props if is_id_param(p)]
    entity = infer_entity(words)
    id_param = _best_id_param(id_params, entity)
    if op is Operation.READ and id_param is None and len(words) > 1 and (
        words[-1].endswith("s") or _PLURAL_HINT.search(description)
    ):
        op = Operation.SEARCH
    filters = [p for p in props if p != id_param and p.lower() not in _CONTROL_PARAMS]
    collection = "results" if op in (Operation.SEARCH, Operation.LIST) else None
    id_field = f"{entity}_id"
    return ProfileSpec(
        operation=op,
        entity=entity,
        id_param=id_param if op not in (Operation.SEARCH, Operation.LIST, Operation.CREATE) else None,
        id_field=id_field,
        filter_params=filters if op in (Operation.SEARCH, Operation.LIST) else [],
        collection=collection,
        inferred=True,
    )


def _best_id_param(candidates: list[str], entity: str) -> str | None:
    if not candidates:
        return None
    for c in candidates:
        if entity in c.lower().replace("_", ""):
            return c
    return candidates[0]


def infer_output_schema(profile: ProfileSpec, input_schema: dict[str, Any]) -> dict[str, Any]:
    """A plausible object schema for the operation: echoes inputs, adds the entity's id."""
    props: dict[str, Any] = input_schema.get("properties") or {}
    id_field = profile.id_field or "id"
    echoed = {
        k: _echo_schema(v)
        for k, v in props.items()
        if k.lower() not in _CONTROL_PARAMS and k != id_field and _echoable(v)
    }
    item: dict[str, Any] = {
        "type": "object",
        "properties": {
            id_field: {"type": "string"},
            "name": {"type": "string"},
            "description": {"type": "string"},
            **echoed,
            "updated_at": {"type": "string", "format": "date-time"},
        },
        "required": [id_field, "name"],
    }
    op = profile.operation
    if op in (Operation.SEARCH, Operation.LIST):
        return {
            "type": "object",
            "properties": {
                "results": {"type": "array", "items": item},
                "total": {"type": "integer", "minimum": 0},
            },
            "required": ["results", "total"],
        }
    if op is Operation.READ:
        return item
    status = {
        Operation.CREATE: ["created", "confirmed", "pending"],
        Operation.UPDATE: ["updated"],
        Operation.DELETE: ["deleted", "cancelled"],
        Operation.ACTION: ["success"],
    }[op]
    return {
        "type": "object",
        "properties": {
            id_field: {"type": "string"},
            "status": {"type": "string", "enum": status},
            **echoed,
            "message": {"type": "string"},
            "timestamp": {"type": "string", "format": "date-time"},
        },
        "required": [id_field, "status", "message"],
    }


def _echoable(schema: Any) -> bool:
    """Free-form objects (no properties) make poor output fields; they are not echoed."""
    if not isinstance(schema, dict):
        return True
    if schema.get("type") == "object":
        props = schema.get("properties")
        return bool(props) and all(_echoable(v) for v in props.values())
    if schema.get("type") == "array":
        return _echoable(schema.get("items"))
    return True


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
