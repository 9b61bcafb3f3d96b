"""Distractor tools (Hybrid-N, as UniToolCall builds its candidate lists): catalog tools added to a session's list.

Hybrid-N is a list of N tools in total: the scenario's own tools, then the tools most similar to
them, then random ones. UniToolCall's published Hybrid-20 builder takes the gold tools, adds the
tools whose name-and-description embeddings are closest to any gold tool's until the list holds
15, and fills it to 20 at random. We keep those proportions for any size: similar tools fill the
list to :data:`SIMILAR_SHARE` of its total (rounded half up), random ones fill the rest.

Similarity has no model weights here: it is the ``search_tools`` BM25 index
(:func:`env_server.search.search_index_for`, ranking unchanged). Each scenario tool's name and
description is one query; a candidate's score is its best score over the queries, and the
highest scores win (ties by name). The random fill is a ``random.Random(seed)`` shuffle of the
other candidates, so the whole choice is deterministic given the seed. A distractor never shares
an exposed name, a catalog name or a base signature with a scenario tool.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from env_server.catalog import Catalog
from env_server.catalog.models import ToolSpec
from env_server.search import search_index_for

SIMILAR_SHARE = 0.75  # 15 of Hybrid-20, as UniToolCall's builder


def pool_additions(scenario_tools: int, tool_pool: int) -> int:
    """Distractors that bring a list of ``scenario_tools`` to ``tool_pool`` tools (none if it already has as many)."""
    return max(0, tool_pool - scenario_tools)


def similar_quota(scenario_tools: int, n: int) -> int:
    """How many of ``n`` distractors come from the similarity tier; the rest are random."""
    total = scenario_tools + n
    return min(n, max(0, int(SIMILAR_SHARE * total + 0.5) - scenario_tools))


def pick_distractors(catalog: Catalog, tools: Mapping[str, ToolSpec], n: int, seed: int) -> list[str]:
    """``n`` catalog names (fewer if the catalog runs out) for a session offering ``tools``:
    the similarity tier first, in rank order, then the random fill."""
    if n <= 0:
        return []
    candidates = candidate_names(catalog, tools)
    similar = similar_tools(catalog, tools, candidates, similar_quota(len(tools), n))
    chosen = set(similar)
    rest = sorted(name for name in candidates if name not in chosen)
    random.Random(seed).shuffle(rest)
    return similar + rest[: n - len(similar)]


def similar_tools(catalog: Catalog, tools: Mapping[str, ToolSpec], allowed: frozenset[str], k: int) -> list[str]:
    """The ``k`` names in ``allowed`` the search index ranks highest for any scenario tool's
    name and description (best score per name, ties by name)."""
    if k <= 0:
        return []
    index = search_index_for(catalog)
    best: dict[str, float] = {}
    for spec in tools.values():
        for hit in index.search(f"{spec.name} {spec.description}", limit=k, allowed=allowed):
            best[hit.name] = max(best.get(hit.name, 0.0), hit.score)
    return sorted(best, key=lambda name: (-best[name], name))[:k]


def _base(name: str) -> str:
    return name.split("__", 1)[0]


def candidate_names(catalog: Catalog, tools: Mapping[str, ToolSpec]) -> frozenset[str]:
    """Catalog names sharing no exposed name, catalog name or base signature with ``tools``."""
    taken = set(tools) | {t.name for t in tools.values()}
    bases = {_base(name) for name in taken} | {t.base_name for t in tools.values() if t.base_name}
    return frozenset(
        key for key, spec in catalog.tools.items()
        if key not in taken and _base(key) not in bases and (spec.base_name or "") not in bases
    )
