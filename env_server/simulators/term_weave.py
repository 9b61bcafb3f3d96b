"""Where a search's term shows in a row that does not show it yet (``answers.answer_rows``).

A real search answers rows that mention what was asked. A freshly drawn row gets the term
in the first place a reader sees it, touching its name last: a ``term`` field, its tags,
its first line of prose about the row (a description, a snippet: a sentence that mentions
it, ``term_mention``), then its title (a title built around it, ``term_title``; its page
URL follows, see ``_follow_slug``). A photo's caption is retold around the term instead
(``photo_term_caption``: "Mountain lake at golden hour"). Names of people, places, organisations and things, and
addresses never gain a sentence: a photographer is not "Gail Whitaker. It also covers ocean."
A search by title (``answers.searches_titles``) titles its hits with the term first and leaves
their prose alone: a film found by "sunrise" is "Chasing Sunrise", its overview its own.
"""

from __future__ import annotations

import functools
import re
import zlib
from typing import Any

from env_server.simulators.draws import slugify
from env_server.simulators.echoes import fits_schema
from env_server.simulators.naming import snake, title_kind
from env_server.simulators.paging import ISO_RE
from env_server.simulators.records import default_facts

# Title vocabularies of works: things written, filmed or recorded, whose titles read like writing.
WORK_TITLES = frozenset({"tv_show_title", "film_title", "show_title", "book_title", "song_title", "album_title",
                         "podcast_title", "game_title", "anime_title", "artwork_title", "playlist_name", "headline",
                         "article_title", "document_title", "event_title", "video_title", "photo_caption"})
TITLE_FIELDS = ("title", "name", "headline", "display_name", "full_name", "term", "label", "subject", "caption",
                "short_description", "description", "summary", "snippet", "abstract", "text", "content", "body")
# Fields that name a row: its page URL and slug were drawn from them, so the term goes there last.
NAME_FIELDS = ("title", "name", "headline", "display_name", "full_name", "label", "subject", "caption")
# (Not genres: a search for "road trip" does not make it a show's genre.)
TAG_FIELDS = ("tags", "keywords", "topics", "categories", "subjects", "labels")
# Fields that hold a name or a label of their own (a genre, a network, an artist credit, a
# publisher): never retitled around a term (``_own_name``).
NAMED = re.compile(r"(^|_)(genres?|network|channel|artist|credit|sort|company|publisher|label|studio|brand|director|"
                   r"producer|format|kind|type|category|status|venue|"
                   r"station|team|league|manufacturer)(_|$)")
# A place's own names and address ("Lyon", a street): not the row's own name either.
PLACE = re.compile(r"(^|_)(locality|region|country|city|county|state|province|district|suburb|neighbou?rhood|"
                   r"street|address|postcode|postal|zip|place)(_|$)")
# Fields whose text is prose about the row (what a snippet is): the only text that gains a
# sentence about the term. A name, an address, a medium, a joke or a verse is not one.
PROSE = re.compile(r"(^|_)(description|desc|summary|overview|synopsis|abstract|snippet|excerpt|deck|blurb|teaser|"
                   r"intro|preview|extract|highlight|highlights|long_description|short_description|alt|alt_description|alt_text)$")
_PLACED = re.compile(r"(^|_)(address|location|place|venue)(_|$)")  # an address snippet is an address
PERSONAL = re.compile(r"(^|_)(user|author|owner|creator|first_name|last_name|login|email|handle|username|nickname)(_|$)")


def weave_term(row: dict[str, Any], term: str, props: dict[str, Any], entity: str = "", by_title: bool = False) -> None:
    """Put the term where a reader of the row sees it, touching its title last: a ``term``
    field, else its tags, else its first line of text (a description, a snippet), else its
    title or name. A title keeps its own words where it can, since its page URL, slug and
    other fields were drawn from it; a work's is retitled like writing ("Notes on Haircare"),
    anything else's is renamed like a thing ("Haircare Voyager", never "Essays on Haircare"
    for a starship)."""
    shown = term if len(term) <= 60 else term[:60].rsplit(" ", 1)[0]
    by_snake = {snake(k): k for k in row}
    if by_title and _weave_into_title(row, shown, props, by_snake, entity):
        return  # a search by title finds titles that say the term ("The Last Sunrise"), prose left as it was
    for weave in (_weave_into_term, _weave_into_tags, _weave_into_text):
        if weave(row, shown, props, by_snake):
            return
    _weave_into_title(row, shown, props, by_snake, entity)


def title_shows(row: dict[str, Any], words: list[str]) -> bool:
    """Whether the row's title or name says one of the term's words (what a title search matches);
    a row with no title is not judged."""
    titles = [v for k, v in row.items() if snake(k) in NAME_FIELDS and isinstance(v, str)]
    return not titles or any(w in t.lower() for t in titles for w in words)


def _weave_into_term(row: dict[str, Any], shown: str, props: dict[str, Any], by_snake: dict[str, str]) -> bool:
    key = by_snake.get("term")
    if key is None or not _free_text(row[key], props.get(key)) or not fits_schema(shown, props[key]):
        return False
    row[key] = shown
    return True


def _weave_into_tags(row: dict[str, Any], shown: str, props: dict[str, Any], by_snake: dict[str, str]) -> bool:
    for name in TAG_FIELDS:
        key = by_snake.get(name)
        if key is not None and _tags_take(row[key], props.get(key), shown):
            row[key] = [shown, *row[key]]
            return True
    return False


def _weave_into_text(row: dict[str, Any], shown: str, props: dict[str, Any], by_snake: dict[str, str]) -> bool:
    """The row's first line of prose about it (a description, a snippet; not a name, an
    address or the row's content itself): it gains a sentence that mentions the term, as a
    snippet would ("It also covers …")."""
    titles = {by_snake[n] for n in NAME_FIELDS if n in by_snake}
    for key, value in row.items():
        if (key not in titles and is_prose(snake(key)) and _free_text(value, props.get(key))
                and " " in value.strip() and not ISO_RE.match(value) and "://" not in value
                and fits_schema(woven := _captioned(value, shown) or _mentioned(value, shown), props[key])):
            row[key] = woven
            return True
    return False


def takes_term(key: str, value: Any, schema: Any = None) -> bool:
    """Whether a row's field is one the term can be woven into (a title or name field, tags
    that are free words, a line of prose about the row): a row with none is not asked to
    show the term. ``schema`` is the field's, when known (tags of a closed list take none)."""
    name = snake(key)
    if PERSONAL.search(name):
        return False
    if name in TAG_FIELDS:
        items = schema.get("items") if isinstance(schema, dict) else None
        return not (isinstance(items, dict) and "enum" in items)
    if name in TITLE_FIELDS or name == "term":
        return True
    return isinstance(value, str) and is_prose(name) and value.count(" ") >= 2


def is_prose(name: str) -> bool:
    """Whether a snake_case field name holds prose about its row (not an address snippet)."""
    return PROSE.search(name) is not None and _PLACED.search(name) is None


def _mentioned(text: str, term: str) -> str:
    """``text`` and one sentence that mentions ``term`` (a frame of ``term_mention``)."""
    frame = _frame("term_mention", f"{term}|{text}")
    sentence = frame.replace("{term}", term)
    sentence = sentence[:1].upper() + sentence[1:]
    stop = "" if text.rstrip().endswith((".", "!", "?", "…")) else "."
    return f"{text.rstrip()}{stop} {sentence}"


def _captioned(text: str, term: str) -> str | None:
    """A photo's caption retold around the term ("Mountain lake at golden hour"), or None when
    ``text`` is no photo caption: a photo is found by what it shows, not by a sentence about it."""
    if text not in _photo_captions():
        return None
    frame = _frame("photo_term_caption", f"{term}|{text}")
    caption = frame.replace("{term}", term)
    return caption[:1].upper() + caption[1:]


@functools.lru_cache(maxsize=1)
def _photo_captions() -> frozenset[str]:
    return frozenset(default_facts().vocab.get("photo_caption").values)


def titled_by(term: str, old: str, entity: str = "") -> str:
    """A title built around ``term``, chosen by the old title: a frame of ``term_title`` for a
    work (a book, a song, an article), of ``term_name`` for anything else."""
    frames = "term_title" if title_kind(entity) in WORK_TITLES else "term_name"
    return _frame(frames, f"{term}|{old}").replace("{term}", _titled(term))


def _frame(kind: str, key: str) -> str:
    frames = default_facts().vocab.get(kind).values
    return frames[zlib.crc32(key.encode("utf-8")) % len(frames)]


def _weave_into_title(row: dict[str, Any], shown: str, props: dict[str, Any], by_snake: dict[str, str],
                      entity: str) -> bool:
    """Names first, then any text field (one with no space in it, which the text pass skipped):
    the row is retitled around the term, as a real hit for it would be called."""
    named = [n for n in by_snake if _own_name(n) and n not in TITLE_FIELDS]  # "charityName", "dataset_title"
    for name in (*TITLE_FIELDS, *named):
        key = by_snake.get(name)
        if key is not None and not PERSONAL.search(name) and _free_text(row[key], props.get(key)) and _latin(row[key]):
            value = row[key]
            woven = _captioned(value, shown) or (titled_by(shown, value, entity) if len(value) < 80 else _mentioned(value, shown))
            if fits_schema(woven, props[key]):
                row[key] = woven
                _follow_slug(row, value, woven)
                return True
    return False


def _follow_slug(row: dict[str, Any], old: str, new: str) -> None:
    """Page URLs and slugs drawn from a row's old title name its new one."""
    before, after = slugify(old), slugify(new)
    if not before:
        return
    for key, value in row.items():
        if isinstance(value, str) and "://" in value and value.rstrip("/").endswith("/" + before):
            row[key] = value.rstrip("/")[: -len(before)] + after
        elif value == before and snake(key).endswith("slug"):  # the row's slug spells its new name
            row[key] = after


def _free_text(value: Any, schema: Any) -> bool:
    """A string of a field with no enum or format: text the term can be written into."""
    return isinstance(value, str) and isinstance(schema, dict) and "enum" not in schema and not schema.get("format")


def _own_name(name: str) -> bool:
    """A field that names the row itself ("charity_name", "dataset_title"), not a place,
    a person or another thing's label: it is retitled around a term, never appended to."""
    return name.endswith(("_name", "_title")) and not (PLACE.search(name) or PERSONAL.search(name)
                                                       or NAMED.search(name))


def _latin(text: str) -> bool:
    """Whether ``text`` is written in Latin letters: an English sentence about the term is
    not appended to text in another script (an ayah in Arabic, a title in Japanese)."""
    return any("a" <= ch.lower() <= "z" for ch in text)


def _tags_take(value: Any, schema: Any, tag: str) -> bool:
    items = schema.get("items") if isinstance(schema, dict) else None
    return (isinstance(value, list) and all(isinstance(v, str) for v in value) and isinstance(items, dict)
            and fits_schema(tag, items))


def _titled(text: str) -> str:
    return " ".join(w[:1].upper() + w[1:] if w.islower() else w for w in text.split(" "))
