"""A news story is one story: its headline, its summary and its section come from the same
entry of ``tool_specs/vocab/headline.json`` (issue 14).

The headline vocabulary holds records ``{headline, summary, section}``; a record's title
(kind ``headline``) and its summary, abstract, standfirst or description (kind
``news_summary``, see ``news_summary``) are two fields of the record's one entry, so an
article titled "Rail Fares to Rise by 4% in January" is summed up as that story. Its
section (a ``section_name`` of ``news_section``: "Travel") is written over the record's
section or category fields by ``section_step``, decided once per object schema: a free
string takes the section's name (or its id, for ``section_id``), an enum the member that
names the section, if it has one. A field the call filters by keeps the caller's value
(the story was then picked from that section, ``RecordScope._named_record``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake
from env_server.simulators.records import default_facts

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

CONTENT_SHOWN = 200  # characters of an article's body a news search shows
STORY = "headline"  # the record vocabulary of news stories
_SECTIONS = "news_section"
_STORY_KEY = f"record:{STORY}"  # where a record's scope keeps its story (RecordScope.vocab_record)
# Fields that name the section a story runs in, and what of the section each shows.
_NAME_FIELDS = ("section", "section_name", "category", "news_desk", "desk")
_ID_FIELDS = ("section_id",)
_PILLAR_FIELDS = ("pillar", "pillar_name")  # the section's pillar: News, Opinion, Sport, Arts, Lifestyle
_PILLAR_ALIASES = {"arts": ("culture",), "lifestyle": ("life",)}
# How APIs with their own closed lists name our sections (an enum of "sports", "entertainment").
_ALIASES = {"sport": ("sports",), "football": ("sport", "sports", "soccer"), "world news": ("world", "international"),
            "uk news": ("national", "uk", "domestic"), "film": ("movies", "entertainment", "culture", "arts"),
            "music": ("entertainment", "culture", "arts"), "television & radio": ("entertainment", "tv", "culture"),
            "stage": ("theater", "theatre", "arts", "culture"), "books": ("culture", "arts"),
            "art and design": ("arts", "art", "culture"), "games": ("gaming", "entertainment"),
            "culture": ("arts", "entertainment"), "wellness": ("health",), "society": ("health", "general"),
            "money": ("business", "finance"), "business": ("finance", "economy"), "technology": ("tech",),
            "environment": ("climate", "science"), "cities": ("local", "general"), "law": ("crime", "general"),
            "global development": ("world",), "life and style": ("lifestyle",), "food": ("lifestyle",),
            "fashion": ("style", "lifestyle"), "politics": ("national",), "education": ("general",),
            "travel": ("lifestyle",), "science": ("health",)}
# Where an enum has no member for a section, a catch-all member holds any story.
_CATCH_ALL = ("general", "news", "top")


def news_summary(gen: Generation) -> str:
    """The summary written for the record's story (the story its headline is drawn from)."""
    from env_server.simulators.values import draw_kind  # values imports this module's kinds

    return str(draw_kind(f"{STORY}.summary", gen))


def news_content(gen: Generation) -> str:
    """An article's ``content`` as a news search shows it: the story's opening (its summary:
    a sentence drawn apart from it would read as another story) cut near 200 characters and
    marked with how much more there is, ``… [+2345 chars]``."""
    body = news_summary(gen)
    shown = body if len(body) <= CONTENT_SHOWN else body[:CONTENT_SHOWN].rsplit(" ", 1)[0]
    return f"{shown}… [+{gen.rng.randint(900, 6400)} chars]"


def section_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that gives a story's section fields its own section, or None when the
    object schema has no field that can hold it."""
    del entity  # any record whose title was drawn as a story: the scope tells (see step)
    writes = tuple(w for w in (_section_write(k, props[k]) for k in props) if w is not None)
    if not writes:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        story = gen.scope.values.get(_STORY_KEY)
        if story is None:
            return
        section = _section(str(story["section"]))
        sent = gen.snaked_args
        for key, arg, shown in writes:
            value = shown(section)
            if value is not None and key in record and arg not in sent:
                record[key] = value

    return step


def _section_write(key: str, schema: Any) -> tuple[str, str, Callable[[dict[str, str]], str | None]] | None:
    """(field, its argument name, how it shows a section) for a section field, else None."""
    low = snake(key)
    if not isinstance(schema, dict):
        return None
    if low in _PILLAR_FIELDS:
        return _pillar_write(key, low, schema)
    if low not in _NAME_FIELDS and low not in _ID_FIELDS:
        return None
    part = "section_id" if low in _ID_FIELDS else "section_name"
    enum = schema.get("enum")
    if isinstance(enum, list):
        members = _enum_members(tuple(str(m) for m in enum if isinstance(m, str)))
        return key, low, lambda s: members.get(s["section_name"].lower())
    if schema.get("type", "string") != "string" or schema.get("format") or schema.get("pattern"):
        return None
    return key, low, lambda s: s[part]


def _pillar_write(key: str, low: str, schema: dict[str, Any]) -> tuple[str, str, Callable[[dict[str, str]], str | None]]:
    """The write of a section's pillar: its name, or the enum member that names it."""
    enum = schema.get("enum")
    if not isinstance(enum, list):
        return key, low, lambda s: s["pillar"]
    by_low = {str(m).lower(): str(m) for m in enum}
    members = {p: next((by_low[w] for w in (p, *_PILLAR_ALIASES.get(p, ())) if w in by_low), None)
               for p in ("news", "opinion", "sport", "arts", "lifestyle")}
    return key, low, lambda s: members.get(s["pillar"].lower())


def _enum_members(enum: tuple[str, ...]) -> dict[str, str]:
    """Each section name (lowercased) -> the enum member that names it, where one does."""
    by_low = {m.lower().replace("_", " ").replace("-", " "): m for m in enum}
    out: dict[str, str] = {}
    for record in default_facts().vocab.get(_SECTIONS).records:
        name = record["section_name"].lower()
        for word in (name, record["section_id"].replace("-", " "), *_ALIASES.get(name, ()), *_CATCH_ALL):
            if word in by_low:
                out[name] = by_low[word]
                break
    return out


@functools.lru_cache(maxsize=64)
def _section(name: str) -> dict[str, str]:
    """The ``news_section`` entry named ``name``."""
    return dict(default_facts().vocab.index(_SECTIONS)[name.lower()])
