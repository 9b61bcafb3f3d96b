"""``search_tools``: find catalog tools for a task described in plain words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from env_server.search.index import SearchHit, ToolSearchIndex
from env_server.search.tool import SEARCH_TOOL

if TYPE_CHECKING:
    from env_server.catalog import Catalog


def search_index_for(catalog: Catalog) -> ToolSearchIndex:
    """The catalog's one index of its tools, built on first use and kept with the catalog."""
    return catalog.derived.get("search_index", lambda: ToolSearchIndex(list(catalog.tools.values())))


__all__ = ["SEARCH_TOOL", "SearchHit", "ToolSearchIndex", "search_index_for"]
