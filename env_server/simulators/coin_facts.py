"""A coin's profile as a market-data API describes it: what the coin is for, its category
and tags, its hashing algorithm, genesis date and official site (``coin_profile``
vocabulary, one record per coin of the session market).

``coin_step(entity, props)`` is asked once per object schema (``record_steps``); for a
record that names a coin (``symbol``, ``id`` or ``name``) and describes it, the step writes
the coin's own facts over the drawn ones. ``coin_row_step`` does the same for a coin's row in
a crypto tool's listing or search: its symbol, name, id and rank are one real coin's (a search
finds the coins its term names), never "Amber Asset" quoted as USDC.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.market import InstrumentFact, market_domain
from env_server.simulators.market_figures import rank_of
from env_server.simulators.naming import snake

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


_ROW_IDS = frozenset({"id", "slug", "coin_id", "asset_id"})
_ROW_RANKS = frozenset({"rank", "market_cap_rank", "cmc_rank", "coin_rank"})
_TERMS = ("q", "query", "search", "keyword", "term", "search_text")


def coin_row_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a coin row (a ``symbol`` beside a ``name``) one real coin, or None."""
    keys = {snake(k): k for k, sub in props.items() if isinstance(sub, dict) and "enum" not in sub}
    if "symbol" not in keys or not ({"name", *_ROW_RANKS} & keys.keys()) or "description" in props:
        return None
    ids = [keys[k] for k in _ROW_IDS if k in keys and props[keys[k]].get("type") == "string"
           and not {"format", "pattern"} & props[keys[k]].keys()]
    ranks = [keys[k] for k in _ROW_RANKS if k in keys and props[keys[k]].get("type") == "integer"]

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        if market_domain(gen.category, gen.provider, gen.about) != "crypto":
            return
        fact = _row_coin(record, gen, index)
        if fact is None:
            return
        listed = gen.scope.in_list  # a read's own id is the one the call sent
        for key, value in ((keys["symbol"], fact.symbol), (keys.get("name", ""), fact.name),
                           *((k, fact.coin_id) for k in ids if listed)):
            if key and isinstance(record.get(key), str) and value:
                record[key] = value
        for key in ranks:
            if isinstance(record.get(key), int):
                record[key] = rank_of(gen, fact.symbol)

    return step


def coin_search_count(entity: str, item_props: Mapping[str, Any]) -> Callable[[Generation], int | None] | None:
    """For a list of coin rows (decided once per array schema), how many coins the call's search
    term names on a crypto API: a term naming no coin finds none (an empty result, as the API
    answers), not stocks or words; None when the call sends no term."""
    if coin_row_step(entity, item_props) is None:
        return None

    def count(gen: Generation) -> int | None:
        term = _term(gen)
        if not 1 < len(term) <= 40 or market_domain(gen.category, gen.provider, gen.about) != "crypto":
            return None
        return len(_named_coins(gen.facts.market_table.instruments.values(), term))

    return count


def _term(gen: Generation) -> str:
    return next((v.strip().lower() for k in _TERMS if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), "")


def _row_coin(record: dict[str, Any], gen: Generation, index: int | None) -> InstrumentFact | None:
    """The coin a row stands for: those the call's search term names (in turn), else the one
    its symbol names, else the scope's drawn coin."""
    table = gen.facts.market_table
    term = _term(gen)
    named = _named_coins(table.instruments.values(), term) if 1 < len(term) <= 40 else ()
    if named:
        return named[(index or 0) % len(named)]
    symbol = record.get("symbol")
    fact = table.find(symbol) if isinstance(symbol, str) and symbol.strip() else None
    if fact is not None and fact.kind == "crypto":
        return fact
    drawn = gen.scope.instrument("crypto")
    return drawn if drawn.kind == "crypto" else None


def _named_coins(facts: Any, term: str) -> tuple[InstrumentFact, ...]:
    return tuple(f for f in facts if f.kind == "crypto" and (
        term in f.name.lower() or term == f.symbol.lower() or term in f.coin_id))


def _fits(value: str, schema: Any) -> bool:
    if not isinstance(schema, dict):
        return True
    enum, fmt = schema.get("enum"), schema.get("format")
    return (bool(value) and (not enum or value in enum) and (fmt != "date" or len(value) == 10)
            and (fmt != "uri" or "://" in value) and (fmt != "date-time" or "T" in value))
