"""``search_tools``: find catalog tools for a task described in plain words."""

from __future__ import annotations

import logging
from enum import Enum
from typing import TYPE_CHECKING

from env_server.search.index import SearchHit, ToolSearchIndex
from env_server.search.tool import SEARCH_TOOL

if TYPE_CHECKING:
    from env_server.catalog import Catalog
    from env_server.search.semantic import HybridSearchIndex

_log = logging.getLogger(__name__)


class SearchRanking(str, Enum):
    """How ``search_tools`` ranks: by words alone, or fused with sentence embeddings (the ``semantic`` extra)."""

    LEXICAL = "lexical"
    HYBRID = "hybrid"


def search_index_for(catalog: Catalog) -> ToolSearchIndex:
    """The catalog's one index of its tools, built on first use and kept with the catalog."""
    return catalog.derived.get("search_index", lambda: ToolSearchIndex(list(catalog.tools.values())))


def ranking_index_for(catalog: Catalog, ranking: SearchRanking) -> ToolSearchIndex | HybridSearchIndex:
    """The index ``search_tools`` answers from: the hybrid one if asked for and installed, else the lexical one.

    The hybrid index embeds every tool once, kept with the catalog like the lexical index; without the
    ``semantic`` extra a warning is logged and the lexical index serves.
    """
    lexical = search_index_for(catalog)
    if ranking is SearchRanking.LEXICAL:
        return lexical
    from env_server.search.semantic import HybridSearchIndex, semantic_available

    if not semantic_available():
        _log.warning("search ranking %r needs the 'semantic' extra (pip install 'toolenv[semantic]'); "
                     "ranking lexically", ranking.value)
        return lexical
    tools = list(catalog.tools.values())
    return catalog.derived.get("hybrid_search_index", lambda: HybridSearchIndex(tools, lexical))


__all__ = ["SEARCH_TOOL", "SearchHit", "SearchRanking", "ToolSearchIndex", "ranking_index_for", "search_index_for"]
