"""A coin's profile as a market-data API describes it: what the coin is for, its category
and tags, its hashing algorithm, genesis date and official site (``coin_profile``
vocabulary, one record per coin of the session market).

``coin_step(entity, props)`` is asked once per object schema (``record_steps``); for a
record that names a coin (``symbol``, ``id`` or ``name``) and describes it, the step writes
the coin's own facts over the drawn ones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_NAMES = ("symbol", "id", "name", "slug", "coin_id")
_DESCRIBES = frozenset({"description", "tags", "categories", "category", "hashing_algorithm", "genesis_date",
                        "homepage", "website", "date_launched", "started_at", "symbol"})
_FIELDS: Mapping[str, str] = {"tags": "tags", "categories": "category", "category": "category",
                              "hashing_algorithm": "hashing_algorithm", "genesis_date": "genesis_date",
                              "date_launched": "genesis_date", "homepage": "homepage", "website": "homepage",
                              "started_at": "genesis_date"}


def coin_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that writes a coin's profile into a record describing it, or None."""
    if not set(_NAMES) & set(props) or "description" not in props or len(_DESCRIBES & set(props)) < 2:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        table = gen.facts.market_table
        fact = next((f for key in _NAMES if isinstance(record.get(key), str)
                     and (f := table.find(record[key])) is not None and f.kind == "crypto"), None)
        profile = gen.facts.vocab.index("coin_profile").get(fact.symbol.lower()) if fact is not None else None
        if fact is None or profile is None:
            return
        if isinstance(record.get("name"), str) and isinstance(record.get("symbol"), str):
            record["name"] = fact.name  # the coin the symbol names, not a drawn title
        if isinstance(record.get("description"), str):
            record["description"] = f"{fact.name} ({fact.symbol}) is {profile['purpose']}"
        for key, source in _FIELDS.items():
            if key not in record:
                continue
            value = profile[source]
            schema = props.get(key)
            if isinstance(schema, dict) and schema.get("format") == "date-time" and len(str(value)) == 10:
                value = f"{value}T00:00:00Z"  # a genesis day as a moment
            if isinstance(record[key], list):
                record[key] = list(value) if isinstance(value, list) else [value]
            elif isinstance(record[key], str) and not isinstance(value, list) and _fits(value, props.get(key)):
                record[key] = value

    return step


def _fits(value: str, schema: Any) -> bool:
    if not isinstance(schema, dict):
        return True
    enum, fmt = schema.get("enum"), schema.get("format")
    return (bool(value) and (not enum or value in enum) and (fmt != "date" or len(value) == 10)
            and (fmt != "uri" or "://" in value) and (fmt != "date-time" or "T" in value))
