"""A packaged food reads as one product: a brand and a product ("Valdoro Spaghetti No. 5"),
with the categories, pack size and ingredients of that product, from the ``food_product``
vocabulary (our own brands, ordinary supermarket goods).

``food_product_step(props)`` is asked once per object schema (``record_steps``): a record
naming a product beside what only a food database lists of it (a Nutri-Score, a NOVA group,
nutriments, ingredients, taxonomy tags) gets one product's facts over the drawn ones. A call
that searches for a term lists the products it names when there are any.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

KIND = "food_product"
_NAMES = ("product_name", "product_name_en", "generic_name")
# Fields only a food database gives a product: they make its record a food product.
FOOD_MARKERS = frozenset({"nutriscore_grade", "nutrition_grades", "nutrition_grade_fr", "nova_group", "nutriments",
                          "ingredients_text", "categories_tags", "ecoscore_grade", "allergens_tags"})
# Field (snake_case) -> the product's fact written there, as text or as a list.
_FACTS: Mapping[str, str] = {"brands": "brand", "brand": "brand", "brand_name": "brand",
                             "categories_tags": "categories_tags", "categories": "categories_tags",
                             "category": "category", "main_category": "category", "quantity": "quantity",
                             "ingredients_text": "ingredients_text", "ingredients_text_en": "ingredients_text"}
_TERMS = ("search_terms", "q", "query", "search", "term", "keyword", "product_name")
_CATEGORY_ARGS = ("categories_tags_en", "categories_tags", "category", "categories")


def food_product_step(props: Mapping[str, Any]) -> Step | None:
    """The step that makes a food product record one product of the vocabulary, or None."""
    keys = {snake(k): k for k in props}
    name = next((keys[n] for n in _NAMES if n in keys), None)
    if name is None or FOOD_MARKERS.isdisjoint(keys):
        return None
    writes = tuple((keys[k], fact, _allowed(props[keys[k]])) for k, fact in _FACTS.items() if k in keys)

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        if not isinstance(record.get(name), str):
            return
        product = _product(gen, index)
        record[name] = product[KIND_NAME]
        for key, fact, allowed in writes:
            _write(record, key, product[fact], allowed)

    return step


KIND_NAME = "product_name"


def _product(gen: Generation, index: int | None) -> dict[str, Any]:
    """The product a record stands for: those the call's search term names, or of the category it
    filters on (in turn), else a draw."""
    term = next((v for k in _TERMS if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), "")
    named = gen.facts.vocab.containing(KIND, term) if term else ()
    tag = next((v for k in _CATEGORY_ARGS if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), "")
    if tag and not named:
        named = _of_category(gen, tag.strip().lower())
    if named:
        return named[(index or 0) % len(named)]
    return gen.rng.choice(gen.facts.vocab.get(KIND).records)


def _of_category(gen: Generation, tag: str) -> tuple[dict[str, Any], ...]:
    wanted = tag if ":" in tag else f"en:{tag.replace(' ', '-')}"
    return tuple(r for r in gen.facts.vocab.get(KIND).records if wanted in r["categories_tags"])


def _allowed(schema: Any) -> frozenset[str] | None:
    """The values a field (or a list's items) may take, when its schema closes them."""
    node = schema.get("items", schema) if isinstance(schema, dict) else None
    enum = node.get("enum") if isinstance(node, dict) else None
    return frozenset(enum) if isinstance(enum, list) else None


def _write(record: dict[str, Any], key: str, value: Any, allowed: frozenset[str] | None) -> None:
    current = record.get(key)
    if allowed is not None:  # a closed list keeps the product's values it allows (none when it allows none)
        kept = [v for v in (value if isinstance(value, list) else [value]) if v in allowed]
        if isinstance(current, list):
            record[key] = kept
        elif kept:
            record[key] = kept[0]
        return
    if isinstance(current, list):
        record[key] = list(value) if isinstance(value, list) else [value]
    elif isinstance(current, str):
        record[key] = ", ".join(_tag_name(v) for v in value) if isinstance(value, list) else str(value)


def _tag_name(tag: str) -> str:
    """A taxonomy tag as its display name ("en:dark-chocolates" -> "Dark chocolates")."""
    return tag.split(":", 1)[-1].replace("-", " ").capitalize()
