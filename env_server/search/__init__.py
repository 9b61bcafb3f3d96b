"""``search_tools``: find catalog tools for a task described in plain words."""

from env_server.search.index import SearchHit, ToolSearchIndex
from env_server.search.tool import SEARCH_TOOL

__all__ = ["SEARCH_TOOL", "SearchHit", "ToolSearchIndex"]
