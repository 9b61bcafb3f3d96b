"""An economic time series reads like one: "Unemployment Rate in Ohio", in percent, monthly,
seasonally adjusted, never a film title with a random unit code.

``series_step(entity, props)`` is asked once per object schema (``record_steps``); for a
series record of a statistics database (FRED's ``title``, ``units``, ``frequency`` and
``seasonal_adjustment``, with or without their short forms) it returns the step that writes
one entry of the ``economic_series`` vocabulary over the record, so the units, frequency and
seasonal adjustment agree with the title. A search's rows are the entries its term names
(a search for "mortgage rate" finds the mortgage averages, then other rates), in turn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

KIND = "economic_series"
_TITLES = ("title", "series_title", "series_name")
# A field's snake name -> the entry's fact it shows.
_FACTS = {"units": "units", "unit": "units", "units_short": "units_short", "frequency": "frequency",
          "frequency_short": "frequency_short", "seasonal_adjustment": "seasonal_adjustment",
          "seasonal_adjustment_short": "seasonal_adjustment_short"}
# Facts only a statistics database's series carries (a TV series has a title and a frequency too).
_TELLING = frozenset({"units", "units_short", "seasonal_adjustment", "seasonal_adjustment_short", "frequency_short"})
_TERM_ARGS = ("search_text", "query", "q", "search", "keyword", "keywords", "term", "text")


def series_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a record one economic series as a whole, or None."""
    by_snake = {snake(k): k for k in props}
    title = next((by_snake[t] for t in _TITLES if t in by_snake), None)
    fields = {key: _FACTS[low] for low, key in by_snake.items() if low in _FACTS}
    if title is None or not _TELLING & {snake(k) for k in fields}:
        return None
    if "series" not in snake(entity).split("_") and len(fields) < 2:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        entry = pick_series(gen, index)
        if isinstance(record.get(title), str):
            record[title] = entry["title"]
        for key, fact in fields.items():
            value = _fitting(str(entry[fact]), props.get(key))
            if value is not None and isinstance(record.get(key), str):
                record[key] = value

    return step


def pick_series(gen: Generation, index: int | None) -> dict[str, Any]:
    """The entry a record stands for: among those the call's search term names (else any), the
    ``index``-th of a list from a start drawn once per answer."""
    vocab = gen.facts.vocab
    found = _named(gen)
    options = found or vocab.get(KIND).records
    start: int = gen.scope.top.values.setdefault(f"{KIND}:start", gen.rng.randrange(len(options)) if not found else 0)
    return dict(options[(start + (index or 0)) % len(options)])


def _named(gen: Generation) -> tuple[dict[str, Any], ...]:
    term = next((v for k in _TERM_ARGS if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), None)
    if term is None or len(term) > 60:
        return ()
    vocab = gen.facts.vocab
    found = list(vocab.containing(KIND, term))  # the phrase first, then each word, longest first
    seen = {id(r) for r in found}
    for word in sorted(term.split(), key=len, reverse=True) if " " in term.strip() else ():
        found += [r for r in vocab.containing(KIND, word) if id(r) not in seen]
        seen.update(id(r) for r in found)
    return tuple(found)


def _fitting(value: str, schema: Any) -> str | None:
    """``value``, or the enum option it names ("Monthly" -> "M"), or None when none fits."""
    enum = schema.get("enum") if isinstance(schema, dict) else None
    if not isinstance(enum, list):
        return value
    low = value.lower()
    return next((o for o in enum if isinstance(o, str) and (o.lower() == low or low.startswith(o.lower()))), None)
