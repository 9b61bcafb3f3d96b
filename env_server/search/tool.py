"""The ``search_tools`` meta-tool: its spec, as sessions list it.

An agent facing a catalog of some two thousand tools cannot read them all; it describes the
task in plain words, optionally names a category, and gets the best tools back
(``env_server.search.index`` ranks them).
"""

from __future__ import annotations

from env_server.catalog.models import Operation, ProfileSpec, SourceFormat, ToolSpec

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
            "category": {
                "type": "string",
                "description": "Only tools of this catalog category, e.g. 'Weather' (any letter case).",
            },
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
