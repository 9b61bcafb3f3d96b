"""A tool as search sees it: the terms of each of its fields, and whether it needs an id first.

Seven fields, from strongest to weakest evidence of what the tool does: its name (without the
provider prefix), description, category, parameter names, what its parameters' descriptions
and allowed values say ("Line ids, e.g. ['victoria', 'central']"), its provider, and the names
of the fields it returns. The last only counts towards how much of a query a tool covers, not
towards its score: "population" in a result says the tool can answer, but many tools return
many fields.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from env_server.catalog.models import Operation, ToolSpec
from env_server.search.text import terms

# Field -> (weight, length normalisation b). A weight of 0 makes a field count only for coverage.
FIELDS: dict[str, tuple[float, float]] = {
    "name": (3.0, 0.3),
    "description": (1.0, 0.75),
    "category": (1.0, 0.0),
    "params": (0.5, 0.5),
    "param_text": (0.3, 0.5),
    "provider": (0.4, 0.0),
    "output": (0.0, 0.5),
}
# Verbs every kind of tool has in its name; the query's intent speaks to them, not its topic.
_NAME_VERBS = frozenset(terms("get list search find create update delete add remove lookup fetch query read"))
# A tool whose required inputs include one of these is a second step: something else finds the id.
_ID_PARAM = re.compile(r"(^|_)(id|ids|uuid|gid|slug|token|reference|ref)$|[a-z](Id|Ids|Uuid|Token)$")
# A list of the words a service uses itself (its genres, categories, currency codes ...) helps
# to fill another call's arguments; it rarely answers a need of its own.
_VOCABULARY = re.compile(
    r"_list_(?:\w+_)?(languages|currencies|categories|genres|sources|types|tags|symbols|formats|codes|departments"
    r"|epochs|parameters|threat_lists|editions|translations|coverage|chains)$"
)
# A parameter that takes free text to search for: whatever the user's subject is, it can be passed.
_KEYWORD_PARAM = re.compile(r"^(?:q|query|keywords?|search|search_?term|terms?|phrase)$", re.IGNORECASE)
# A provider word in a description is a provider word when few other families use it.
_DISTINCT_FAMILIES = 3


def tool_fields(spec: ToolSpec) -> dict[str, list[str]]:
    """The terms of each field of one tool."""
    provider = terms(f"{spec.provider} {spec.family}")
    name = spec.name[len(spec.family) + 1:] if spec.name.startswith(spec.family + "_") else spec.name
    name_terms = [t for t in terms(name) if t not in _NAME_VERBS]
    while name_terms and name_terms[0] in provider and len(name_terms) > 1:
        name_terms = name_terms[1:]
    return {
        "name": name_terms,
        "description": terms(spec.description),
        "category": terms(spec.category),
        "params": terms(" ".join((spec.input_schema.get("properties") or {}).keys())),
        "param_text": terms(" ".join(_param_texts(spec.input_schema))),
        "provider": sorted(set(provider)),
        "output": terms(" ".join(_field_names(spec.output_schema))),
    }


def needs_id(spec: ToolSpec) -> bool:
    """Whether the tool cannot run before some other call finds an id for it (creating is exempt)."""
    required = spec.input_schema.get("required") or []
    return spec.profile.operation is not Operation.CREATE and any(_ID_PARAM.search(name) for name in required)


def takes_keyword(spec: ToolSpec) -> bool:
    """Whether the tool searches by a free-text keyword ("q", "query", "keywords" ...)."""
    return any(_KEYWORD_PARAM.search(name) for name in spec.input_schema.get("properties") or {})


def vocabulary_of(spec: ToolSpec) -> str | None:
    """For a tool that lists a service's own vocabulary, the stem of what it lists ("genre")."""
    match = _VOCABULARY.search(spec.name)
    if match is None or spec.input_schema.get("required"):
        return None
    return terms(match.group(1).split("_")[-1])[0]


def move_provider_words(families: list[str], docs: list[dict[str, list[str]]]) -> None:
    """Count "Tomorrow.io's scale" in a description as the provider, not as "tomorrow"."""
    users: dict[str, set[str]] = defaultdict(set)
    for family, doc in zip(families, docs, strict=True):
        for field in ("name", "description"):
            for term in doc[field]:
                users[term].add(family)
    for doc in docs:
        own = set(doc["provider"])
        moved = [t for t in doc["description"] if t in own and len(users[t]) <= _DISTINCT_FAMILIES]
        if moved:
            doc["description"] = [t for t in doc["description"] if t not in moved]
            doc["provider"] = doc["provider"] + moved


def _param_texts(schema: dict[str, Any]) -> list[str]:
    """What the input parameters' descriptions and allowed string values say."""
    texts = []
    for prop in (schema.get("properties") or {}).values():
        if isinstance(prop, dict):
            texts.append(str(prop.get("description") or ""))
            items = prop.get("items")
            enum = prop.get("enum") or (items.get("enum") if isinstance(items, dict) else None) or []
            texts.extend(v for v in enum if isinstance(v, str))
    return texts


def _field_names(schema: dict[str, Any]) -> list[str]:
    """Every property name anywhere in a (result) schema, nested objects and array items included."""
    names: list[str] = []
    stack = [schema]
    while stack:
        node = stack.pop()
        for key, prop in (node.get("properties") or {}).items():
            names.append(key)
            if isinstance(prop, dict):
                stack.append(prop)
        if isinstance(node.get("items"), dict):
            stack.append(node["items"])
    return names
