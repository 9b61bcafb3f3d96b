"""Services a query names: "trending videos on YouTube", "stars of this github repository".

A provider's name weighs little as a word (``fields``), so that "tomorrow" does not pull in every
Tomorrow.io tool. But a query that spells a service's whole name, as one word ("YouTube",
"github") or two ("google drive"), says which service the user means.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from env_server.catalog.models import ToolSpec

_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[.'-][A-Za-z0-9]+)*")
# Shorter run-together names ("io", "db") would match ordinary words.
_SHORTEST = 3


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def service_names(tools: Iterable[ToolSpec]) -> dict[str, str]:
    """How each family can be named (its family and provider names, run together) -> the family."""
    names: dict[str, str] = {}
    for spec in tools:
        for name in (spec.family, spec.provider, re.sub(r"\s+(?:data\s+)?api$", "", spec.provider, flags=re.IGNORECASE)):
            key = _key(name)
            if len(key) >= _SHORTEST:
                names.setdefault(key, spec.family)
    return names


def named_services(query: str, names: dict[str, str]) -> frozenset[str]:
    """The families whose name the query spells, as one word or two adjacent ones."""
    tokens = [_key(t) for t in _TOKEN.findall(query)]
    candidates = tokens + [a + b for a, b in zip(tokens, tokens[1:], strict=False)]
    return frozenset(names[c] for c in candidates if c in names)
