"""A census variable reads as the survey's dictionary words it: ``B19013_001E``, "Estimate!!Median
household income in the past 12 months (in 2021 inflation-adjusted dollars)", its concept in
capitals and its table as the group, never a city amenity with a random group code.

``variable_step(entity, props)`` is asked once per object schema (``record_steps``); for a
variable record of a statistics dictionary (a ``name`` with a ``label`` and a ``concept`` or
``group``) it writes one American Community Survey variable over it, from the facts in
``tool_specs/reference/acs_variables.json``. A search's rows are the variables its phrase
appears in (label or concept), in turn; the call's year fills the income labels.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake
from env_server.simulators.reference_tables import reference_table

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_TERM_ARGS = ("search", "query", "q", "search_text", "keyword", "term")


@functools.lru_cache(maxsize=1)
def variables() -> tuple[dict[str, str], ...]:
    return tuple(reference_table("acs_variables.json")["variables"])


@functools.lru_cache(maxsize=512)
def matching(term: str) -> tuple[int, ...]:
    """Indexes of the variables whose label or concept holds the phrase, else any of its words."""
    low = term.lower()
    texts = [f"{v['label']} {v['concept']}".lower() for v in variables()]
    hits = [i for i, text in enumerate(texts) if low in text]
    if not hits:
        words = [w for w in low.split() if len(w) >= 4]
        hits = [i for i, text in enumerate(texts) if any(w in text for w in words)]
    return tuple(hits)


def variable_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a record one survey variable, or None."""
    keys = {snake(k): k for k in props}
    if "variable" not in snake(entity).split("_") or not {"name", "label"} <= keys.keys() or not (
            {"concept", "group"} & keys.keys()):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        entry = pick_variable(gen, index)
        year = gen.snaked_args.get("year")
        year = year if isinstance(year, int) and not isinstance(year, bool) else gen.today.year - 2
        facts = {"name": entry["name"], "label": entry["label"].replace("{year}", str(year)),
                 "concept": entry["concept"].replace("{year}", str(year)), "group": entry["name"].split("_")[0],
                 "predicate_type": entry["predicate_type"]}
        for low, value in facts.items():
            key = keys.get(low)
            if key is not None and isinstance(record.get(key), str) and "enum" not in props[key]:
                record[key] = value

    return step


def pick_variable(gen: Generation, index: int | None) -> dict[str, str]:
    term = next((v for k in _TERM_ARGS if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), None)
    found = matching(term.strip()) if term is not None and len(term) <= 60 else ()
    every = variables()
    if found:
        return every[found[(index or 0) % len(found)]]
    start: int = gen.scope.top.values.setdefault("acs_variable:start", gen.rng.randrange(len(every)))
    return every[(start + (index or 0)) % len(every)]
