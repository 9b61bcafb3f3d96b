"""Bible passages that answer the reference asked: "John 3:16-18" is John, chapter 3,
verses 16 to 18, in that order, with verse text in a translation's register.

``verse_step(entity, props)`` is asked once per object schema (``record_steps``); for a
verse record (a book, a chapter, a verse number and a text) it returns the step that sets
them from the call: its ``reference``, ``book_id``/``chapter`` or ``books`` filter. The
books and their chapter counts are the ``bible_book`` vocabulary; texts ``scripture_verse``.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_REFERENCE = re.compile(r"^\s*((?:[1-3]\s*)?[A-Za-z][A-Za-z. ]*?)\s*(\d+)(?:\s*:\s*(\d+)(?:\s*-\s*(\d+))?)?")
# Abbreviations a reader types that are not a prefix of the book's name.
_ALIASES = {"jn": "JHN", "jhn": "JHN", "mk": "MRK", "mrk": "MRK", "mt": "MAT", "lk": "LUK", "ps": "PSA", "psalm": "PSA",
            "pr": "PRO", "prv": "PRO", "song of songs": "SNG", "sos": "SNG", "ez": "EZK", "ezek": "EZK", "jas": "JAS",
            "phil": "PHP", "phm": "PHM", "jud": "JUD", "jdg": "JDG", "rev": "REV", "revelations": "REV"}
_OLD_TESTAMENT_BOOKS = 39
_BOOK = "bible_book"

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]


def find_book(text: str, books: tuple[dict[str, Any], ...]) -> dict[str, Any] | None:
    """The book a reference names: its id ("JHN"), name ("John"), a prefix ("Rom") or a
    common abbreviation ("jn")."""
    low = re.sub(r"\s+", " ", text.strip().lower().rstrip("."))
    if not low:
        return None
    alias = _ALIASES.get(low)
    for book in books:
        if book["book_id"].lower() == low or book["name"].lower() == low or alias == book["book_id"]:
            return book
    squeezed = low.replace(" ", "")
    if len(squeezed) >= 3:
        return next((b for b in books if b["name"].lower().replace(" ", "").startswith(squeezed)), None)
    return None


def parse_reference(text: str, books: tuple[dict[str, Any], ...]) -> tuple[dict[str, Any], int, int, int] | None:
    """(book, chapter, first verse, last verse) of "John 3:16-18"; a whole chapter is verse 1 onward."""
    match = _REFERENCE.match(text)
    if match is None:
        return None
    book = find_book(match.group(1), books)
    if book is None:
        return None
    chapter = min(int(match.group(2)), int(book["chapters"]))
    first = int(match.group(3) or 1)
    last = int(match.group(4) or (first if match.group(3) else first + 40))
    return book, chapter, first, max(first, last)


class _Passage:
    """What the call asks for, read once per call (kept in the generation's top scope)."""

    def __init__(self, gen: Generation) -> None:
        books = gen.facts.vocab.get(_BOOK).records
        args = gen.snaked_args
        self.books = books
        self.fixed: tuple[dict[str, Any], int, int, int] | None = None
        reference = args.get("reference") or args.get("passage") or args.get("ref")
        if isinstance(reference, str):
            self.fixed = parse_reference(reference, books)
        book_arg = args.get("book_id") or args.get("book")
        if self.fixed is None and isinstance(book_arg, str) and (book := find_book(book_arg, books)) is not None:
            chapter = args.get("chapter")
            chapter = chapter if isinstance(chapter, int) and chapter > 0 else 1
            self.fixed = (book, chapter, 1, 176)
        self.pool = self._pool(args.get("books"), books)

    @staticmethod
    def _pool(choice: Any, books: tuple[dict[str, Any], ...]) -> tuple[dict[str, Any], ...]:
        text = choice.strip().upper() if isinstance(choice, str) else ""
        if text == "OT":
            return books[:_OLD_TESTAMENT_BOOKS]
        if text == "NT":
            return books[_OLD_TESTAMENT_BOOKS:]
        named = tuple(b for part in text.split(",") if (b := find_book(part, books)) is not None)
        return named or books


def verse_text(gen: Generation, book_id: str, chapter: int, verse: int) -> str:
    """The text of one verse: the same verse reads the same in every call and session."""
    texts = gen.facts.vocab.get("scripture_verse").values
    return texts[zlib.crc32(f"{book_id} {chapter}:{verse}".encode()) % len(texts)]


def call_once(gen: Generation, key: str, make: Callable[[], Any]) -> Any:
    """``make()`` once per call: kept in the call's outermost scope, shared by every record."""
    scope = gen.scope
    while scope.parent is not None:
        scope = scope.parent
    return scope.once(key, make)


# Translation ids and what the service says of each (facts): name, language, its code.
TRANSLATIONS: Mapping[str, tuple[str, str, str]] = {
    "web": ("World English Bible", "English", "en"),
    "kjv": ("King James Version", "English", "en"),
    "asv": ("American Standard Version (1901)", "English", "en"),
    "bbe": ("Bible in Basic English", "English", "en"),
    "darby": ("Darby Bible", "English", "en"),
    "dra": ("Douay-Rheims 1899 American Edition", "English", "en"),
    "ylt": ("Young's Literal Translation", "English", "en"),
    "oeb-us": ("Open English Bible, US Edition", "English", "en"),
    "webbe": ("World English Bible, British Edition", "English", "en"),
    "clementine": ("Clementine Latin Vulgate", "Latin", "la"),
    "almeida": ("João Ferreira de Almeida", "Portuguese", "pt"),
    "webster": ("Webster's Bible", "English", "en"),
}
_ID_FIELDS = ("translation_id", "identifier")
_NAME_FIELDS = ("translation_name", "name")


def translation_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that names a Bible translation as its id says (the call's own id for a
    passage), or None for records with no translation id."""
    id_key = next((k for k in _ID_FIELDS if k in props), None)
    schema = props.get(id_key) if id_key else None
    enum = schema.get("enum") if isinstance(schema, dict) else None
    if id_key is None or not enum or not set(enum) <= set(TRANSLATIONS):
        return None
    name_key = next((k for k in _NAME_FIELDS if k in props), None)
    listed = [i for i in enum if _fits(TRANSLATIONS[i][0], props.get(name_key or ""))] or list(enum)

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        sent = gen.args.get("translation", "web")  # the service's default translation
        if index is None and isinstance(sent, str) and sent in enum:
            record[id_key] = sent
        elif index is not None:  # a list of translations: each once
            offset = call_once(gen, "translations:offset", lambda: gen.rng.randrange(len(listed)))
            record[id_key] = listed[(offset + index) % len(listed)]
        name, language, code = TRANSLATIONS[record[id_key]]
        for key, value in ((name_key, name), ("language", language), ("language_code", code)):
            if key is not None and key in record and _fits(value, props.get(key)):
                record[key] = value

    return step


def _fits(value: str, schema: Any) -> bool:
    enum = schema.get("enum") if isinstance(schema, dict) else None
    return not enum or value in enum


def passage_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that holds a passage's verses to the range asked ("John 3:16" is one verse)
    and joins their texts into its ``text``, or None for records with no verse list."""
    verses = props.get("verses")
    items = verses.get("items") if isinstance(verses, dict) else None
    if not isinstance(items, dict) or verse_step(entity, items.get("properties") or {}) is None:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        rows = record.get("verses")
        if not isinstance(rows, list) or not rows:
            return
        passage: _Passage = call_once(gen, "scripture", lambda: _Passage(gen))
        if passage.fixed is not None and passage.fixed[3] < 176:
            first, last = passage.fixed[2], passage.fixed[3]
            del rows[last - first + 1:]
        if isinstance(record.get("text"), str):
            record["text"] = " ".join(str(r.get("text", "")) for r in rows if isinstance(r, dict))
        if "reference" in record and passage.fixed is not None and not isinstance(gen.args.get("reference"), str):
            book, chapter = passage.fixed[0], passage.fixed[1]
            record["reference"] = f"{book['name']} {chapter}"

    return step


def verse_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a verse record answer the reference asked, or None for other records."""
    if not {"chapter", "verse", "text"} <= set(props) or not {"book_id", "book_name", "book"} & set(props):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        passage: _Passage = call_once(gen, "scripture", lambda: _Passage(gen))
        at = index or 0
        if passage.fixed is not None:
            book, chapter, first, last = passage.fixed
            verse = min(first + at, last)
        else:
            book = call_once(gen, "scripture:book", lambda: passage.pool[gen.rng.randrange(len(passage.pool))])
            chapter = call_once(gen, "scripture:chapter", lambda: gen.rng.randint(1, int(book["chapters"])))
            verse = gen.rng.randint(1, 30) if index is None else 1 + at
        verse = min(verse, 176)
        values = {"book_id": book["book_id"], "book_name": book["name"], "book": book["name"], "chapter": chapter,
                  "verse": verse, "text": verse_text(gen, book["book_id"], chapter, verse)}
        for key, value in values.items():
            if key in record:
                record[key] = value

    return step
