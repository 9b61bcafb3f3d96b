"""A pack size as a label prints it: "400 g", "1 kg", "330 ml", never a bare "34.9".

A string field named for a pack (``quantity``, ``net_weight``) whose kind is a weight is a
pack size with its unit. When the record's own title names a size ("Protein Powder, Chocolate, 1 kg"),
that is the pack's; otherwise a size shops commonly stock is drawn.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_SIZE = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)\s?(kg|g|mg|ml|cl|l|L|oz|lb|fl oz)\b")
COMMON_SIZES = ("100 g", "150 g", "200 g", "250 g", "300 g", "400 g", "500 g", "750 g", "1 kg", "2 kg",
                "250 ml", "330 ml", "500 ml", "750 ml", "1 L", "1.5 L", "6 x 330 ml", "12 oz", "16 oz")
WEIGHT_KINDS = frozenset({"weight_kg"})
# What a product's pack is called (snake_case); a person's or an animal's "weight" is no pack.
PACK_FIELDS = frozenset({"quantity", "net_weight", "net_quantity", "pack_size", "package_size", "product_quantity",
                         "net_content", "net_contents"})


def pack_size(gen: Generation) -> str:
    """The size the record's title names, else a common one."""
    title = gen.scope.values.get("title")
    found = _SIZE.search(title) if isinstance(title, str) else None
    if found is not None:
        return f"{found.group(1)} {found.group(2)}"
    return gen.rng.choice(COMMON_SIZES)


def text_kind(name: str, kind: str | None, typ: str) -> str | None:
    """A pack's weight written as text is a pack size; other kinds stay as they are."""
    return "pack_size" if typ == "string" and kind in WEIGHT_KINDS and snake(name) in PACK_FIELDS else kind


PACK_KINDS: dict[str, Callable[[Generation], Any]] = {"pack_size": pack_size}
