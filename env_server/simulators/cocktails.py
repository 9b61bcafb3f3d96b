"""A drink reads as one recipe: its name, category, alcoholic flag, glass, method and its
ingredients with their measures, all from one entry of the ``cocktail`` vocabulary (classic
recipes; the methods in our own words). A Margarita lists tequila, triple sec, lime juice
and salt, never a random pick of bar ingredients in cooking measures.

``cocktail_step(entity, props)`` is asked once per object schema (``record_steps``): a
cocktail record naming its drink (``strDrink``, ``name``) gets that drink's facts and
recipe, as an ``ingredients`` list of objects or of names, or as TheCocktailDB's numbered
``strIngredient1``/``strMeasure1`` pairs. A list row stands for a drink the call finds: one
whose name holds the searched name (``s``), one made with the ingredient asked (``i``), or
one of the category, glass or alcoholic flag filtered on; ``drink_search_count`` tells the
list how many there are, so a search lists each found drink once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from env_server.simulators.naming import snake, title_kind

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

KIND = "cocktail"
_NAMES = ("str_drink", "drink", "name", "drink_name")
# Arguments that search drink names; every other text argument filters on a drink's facts.
_NAME_ARGS = frozenset({"s", "name", "q", "query", "search", "drink", "str_drink", "f"})
_FACTS = ("category", "alcoholic", "glass", "instructions")
_NUMBERED = re.compile(r"^str_(ingredient|measure)(\d+)$")
_THUMB = "https://www.thecocktaildb.com/images/ingredients/{}-Small.png"


def cocktail_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a cocktail record one drink of the vocabulary, or None."""
    if title_kind(entity) != KIND:
        return None
    keys = {snake(k): k for k in props}
    name = next((keys[n] for n in _NAMES if n in keys), None)
    if name is None:
        return None
    facts = tuple((keys[k], fact, _enum(props[keys[k]])) for fact in _FACTS
                  for k in (fact, f"str_{fact}") if k in keys)
    listed = next((k for k in props if snake(k) == "ingredients"), None)
    numbered = tuple(sorted(((m.group(1), int(m.group(2)), k) for k in props if (m := _NUMBERED.match(snake(k)))),
                            key=lambda t: (t[1], t[0])))
    item_props = _item_props(props.get(listed)) if listed is not None else None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        entry = _entry(record.get(name), gen, index)
        if entry is None:
            return
        record[name] = entry["name"]
        for key, fact, allowed in facts:
            if key in record and (allowed is None or entry[fact] in allowed):
                record[key] = entry[fact]
        if listed is not None and isinstance(record.get(listed), list):
            record[listed] = _ingredient_rows(entry, item_props)
        _numbered(record, entry, numbered, props)

    return step


def drink_search_count(entity: str, item_props: Mapping[str, Any]) -> Callable[[Generation], int | None] | None:
    """For a list of drink rows (decided once per array schema), how many drinks the call
    finds; None when the call names none (a plain listing)."""
    if cocktail_step(entity, item_props) is None:
        return None

    def count(gen: Generation) -> int | None:
        found = found_drinks(gen)
        return None if found is None else len(found)

    return count


def found_drinks(gen: Generation) -> tuple[dict[str, Any], ...] | None:
    """The drinks the call's text arguments find, in turn (all of them hold), or None when it
    sends none. Made once per call."""
    found: tuple[dict[str, Any], ...] | None = gen.scope.top.once("cocktail:found", lambda: _find(gen))
    return found


def _find(gen: Generation) -> tuple[dict[str, Any], ...] | None:
    vocab = gen.facts.vocab
    found: list[dict[str, Any]] | None = None
    for key, value in gen.snaked_args.items():
        if not isinstance(value, str) or not value.strip() or len(value) > 60:
            continue
        hits = vocab.containing(KIND, value) if key in _NAME_ARGS else _having(gen, value)
        found = list(hits) if found is None else [r for r in found if any(r is h for h in hits)]
    return None if found is None else tuple(found)


def _having(gen: Generation, value: str) -> tuple[dict[str, Any], ...]:
    """The drinks made with the ingredient ``value`` names, or else with a fact equal to it
    (a category, a glass, an alcoholic flag; underscores read as spaces)."""
    wanted = value.strip().lower().replace("_", " ")
    records = gen.facts.vocab.get(KIND).records
    made = tuple(r for r in records if any(i["ingredient"].lower() == wanted for i in r["ingredients"]))
    return made or gen.facts.vocab.having(KIND, value)


def _entry(name: Any, gen: Generation, index: int | None) -> dict[str, Any] | None:
    """The drink a record stands for: a list row's found drink, else the drink it names."""
    if index is not None and gen.scope.in_list:
        found = found_drinks(gen)
        if found:
            return found[index % len(found)]
    return gen.facts.vocab.index(KIND).get(name.lower()) if isinstance(name, str) else None


def _ingredient_rows(entry: Mapping[str, Any], item_props: Mapping[str, Any] | None) -> list[Any]:
    """The recipe as the list's items: names, or objects with the fields the schema has."""
    if item_props is None:
        return [i["ingredient"] for i in entry["ingredients"]]
    rows = []
    for position, item in enumerate(entry["ingredients"], start=1):
        row: dict[str, Any] = {}
        for key in item_props:
            low = snake(key)
            if low in ("position", "number", "order"):
                row[key] = position
            elif low in ("ingredient", "name", "str_ingredient"):
                row[key] = item["ingredient"]
            elif low in ("measure", "amount", "str_measure"):
                row[key] = item["measure"]
            elif "thumb" in low or "image" in low:
                row[key] = _THUMB.format(quote(item["ingredient"]))
        rows.append(row)
    return rows


def _numbered(record: dict[str, Any], entry: Mapping[str, Any], numbered: tuple[tuple[str, int, str], ...],
              props: Mapping[str, Any]) -> None:
    """TheCocktailDB's ``strIngredientN``/``strMeasureN``: the recipe in order, then empty."""
    recipe = entry["ingredients"]
    for part, n, key in numbered:
        value = recipe[n - 1][part] if n <= len(recipe) else None
        if value is not None:
            record[key] = value
        elif _nullable(props.get(key)):
            record[key] = None
        else:
            record.pop(key, None)


def _item_props(schema: Any) -> Mapping[str, Any] | None:
    items = schema.get("items") if isinstance(schema, dict) else None
    props = items.get("properties") if isinstance(items, dict) else None
    return props if isinstance(props, dict) and props else None


def _enum(schema: Any) -> frozenset[str] | None:
    enum = schema.get("enum") if isinstance(schema, dict) else None
    return frozenset(enum) if isinstance(enum, list) else None


def _nullable(schema: Any) -> bool:
    kind = schema.get("type") if isinstance(schema, dict) else None
    return kind == "null" or isinstance(kind, list) and "null" in kind
