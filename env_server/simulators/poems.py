"""A poem is known by its first line when nothing else names it.

PoetryDB's Emily Dickinson poems are titled by their first lines, as most untitled verse
is; a poem drawn here is titled that way too, rather than with a novel's title ("The
Bookbinder's Widow"). A title the call sends (a search by title) stays the caller's.
``first_line_step`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_POEM_WORDS = frozenset({"poem", "poems", "poetry", "verse"})


def first_line_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that titles a poem by its first line, or None for records that are no poem
    with a title and lines."""
    if _POEM_WORDS.isdisjoint(entity.lower().split("_")) or not {"title", "lines"} <= set(props):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        lines = record.get("lines")
        if isinstance(gen.args.get("title"), str) or not isinstance(lines, list) or not lines:
            return
        if isinstance(lines[0], str) and isinstance(record.get("title"), str):
            record["title"] = lines[0].rstrip(" ,;:.—-")

    return step
