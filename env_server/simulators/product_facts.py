"""A shop's product reads as one product: its description is about the thing it is named
after (a skillet's text talks about the skillet), its UPC is twelve digits with a valid
check digit, its model number looks like a maker's.

``product_step(entity, props)`` is asked once per object schema (``record_steps``);
``PRODUCT_KINDS`` join ``values.KINDS``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_PRODUCTS = frozenset({"product", "products", "listing", "listings", "offer", "sku"})
_NAMES = ("name", "title", "product_name", "productName", "item_name")
_TEXTS = ("longDescription", "long_description", "description", "shortDescription", "short_description",
          "product_description", "body")
_DESCRIPTIONS = "product_description"
# Words of a name that say nothing of what the product is.
VAGUE = frozenset({"with", "pack", "pair", "inch", "size", "black", "white", "cream", "blue", "green", "grey", "gray",
                    "large", "small", "medium", "edition", "series", "classic", "premium", "original", "plus"})


def product_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that gives a product record a description of itself, or None for other records."""
    if not set(entity.lower().split("_")) & _PRODUCTS:
        return None
    name_key = next((k for k in _NAMES if k in props), None)
    text_key = next((k for k in _TEXTS if k in props), None)
    if name_key is None or text_key is None:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        name, text = record.get(name_key), record.get(text_key)
        if isinstance(name, str) and isinstance(text, str):
            record[text_key] = describe(name, gen)

    return step


def describe(name: str, gen: Generation) -> str:
    """A description that shares a word with the product's name, else one built from it."""
    vocab = gen.facts.vocab
    words = vocab.word_index(_DESCRIPTIONS)
    hits: list[int] = []
    for word in re.findall(r"[a-z]{4,}", name.lower()):
        if word in VAGUE:
            continue
        hits += words.get(word, ()) or words.get(word.rstrip("s"), ())
    if hits:
        return vocab.get(_DESCRIPTIONS).values[sorted(set(hits))[gen.rng.randrange(len(set(hits)))]]
    return f"{name}. {gen.rng.choice(_PLAIN)}"


# Lines any shop might add under a product's name; the name carries what the product is.
_PLAIN = (
    "Well made, easy to look after, and backed by the maker's warranty.",
    "A dependable everyday pick at a fair price.",
    "Ships in recyclable packaging; see the specifications for sizes and materials.",
    "Reviewers mention good build quality and quick delivery.",
    "A practical choice that does exactly what it says.",
    "Compact, sturdy and simple to set up out of the box.",
)


def upc_a(gen: Generation) -> str:
    """A twelve-digit UPC-A code with its check digit."""
    body = [gen.rng.randint(0, 9) for _ in range(11)]
    total = sum(d * (3 if i % 2 == 0 else 1) for i, d in enumerate(body))
    return "".join(map(str, body)) + str((10 - total % 10) % 10)


def model_number(gen: Generation) -> str:
    """A maker's model number: letters, digits and a suffix ("KX-4820B")."""
    letters = "".join(gen.rng.choice("ABCDEFGHJKLMNPRSTUVWXZ") for _ in range(gen.rng.randint(2, 3)))
    return f"{letters}-{gen.rng.randint(100, 9999)}{gen.rng.choice(('', 'B', 'W', 'S', 'X', 'LT'))}"


PRODUCT_KINDS: dict[str, Callable[[Generation], Any]] = {"upc_a": upc_a, "model_number": model_number}
