"""``search_tools``: BM25 ranking of catalog tools for a natural-language query.

An agent facing a catalog of some two thousand tools cannot read them all. The index covers
each tool's name (split into words), description, provider, category and parameter names,
built once when the catalog loads. Ties break on the tool name so rankings are deterministic.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from env_server.catalog.infer import singularize, split_words
from env_server.catalog.models import Operation, ProfileSpec, SourceFormat, ToolSpec

if TYPE_CHECKING:
    from env_server.catalog import Catalog

# The meta-tool every session lists besides its catalog tools; ``ToolSearchIndex`` answers it.
SEARCH_TOOL = ToolSpec(
    name="search_tools",
    description=(
        "Find tools in this catalog for a task described in plain words. Returns the best "
        "matching tool names with their descriptions, most relevant first."
    ),
    category="Meta",
    provider="toolenv",
    source=SourceFormat.NATIVE,
    origin="builtin",
    input_schema={
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What you want to do, e.g. 'air quality in Paris'."},
            "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10, "description": "Max results."},
        },
        "required": ["query"],
    },
    output_schema={
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "results": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "description": {"type": "string"},
                        "category": {"type": "string"},
                        "provider": {"type": "string"},
                        "score": {"type": "number"},
                    },
                    "required": ["name", "description", "score"],
                },
            },
        },
        "required": ["query", "results"],
    },
    profile=ProfileSpec(operation=Operation.SEARCH, entity="tool", collection="results"),
)


_STOP = frozenset(
    "a an the of for to in on and or by with from at is are be this that it its as get me my i you "
    "your please can could would want need some any what which how do does".split()
)
K1, B = 1.4, 0.75


def tokenize(text: str) -> list[str]:
    words = [w for part in re.findall(r"[A-Za-z0-9]+", text) for w in split_words(part)]
    return [singularize(w) for w in words if w not in _STOP]


@dataclass(frozen=True)
class SearchHit:
    name: str
    score: float


class ToolSearchIndex:
    def __init__(self, tools: list[ToolSpec]) -> None:
        self._names: list[str] = []
        self._docs: list[Counter[str]] = []
        for spec in tools:
            props = " ".join((spec.input_schema.get("properties") or {}).keys())
            # The name and provider count twice: they are the strongest signal of what a tool is.
            text = f"{spec.name} {spec.name} {spec.provider} {spec.provider} {spec.category} {spec.description} {props}"
            self._names.append(spec.name)
            self._docs.append(Counter(tokenize(text)))
        n = len(self._docs) or 1
        df: Counter[str] = Counter()
        for doc in self._docs:
            df.update(doc.keys())
        self._idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self._lengths = [sum(d.values()) for d in self._docs]
        self._avg = sum(self._lengths) / n if self._lengths else 1.0

    def search(self, query: str, limit: int = 10, allowed: frozenset[str] | None = None) -> list[SearchHit]:
        terms = tokenize(query)
        hits: list[SearchHit] = []
        for i, doc in enumerate(self._docs):
            if allowed is not None and self._names[i] not in allowed:
                continue
            score = 0.0
            for t in terms:
                tf = doc.get(t)
                if tf:
                    norm = tf + K1 * (1 - B + B * self._lengths[i] / self._avg)
                    score += self._idf[t] * tf * (K1 + 1) / norm
            if score > 0:
                hits.append(SearchHit(self._names[i], round(score, 4)))
        hits.sort(key=lambda h: (-h.score, h.name))
        return hits[:limit]


def search_index_for(catalog: Catalog) -> ToolSearchIndex:
    """The catalog's one index of its tools, built on first use and kept with the catalog."""
    return catalog.derived.get("search_index", lambda: ToolSearchIndex(list(catalog.tools.values())))
