"""A catalogue's books read as books: a work, its editions and its author agree.

``book_step(entity, props)`` is asked once per object schema (``record_steps``) and finishes
three shapes a library catalogue (Open Library) answers:

- a work found by a search (``author_name``, ``edition_count``): by one author (two at
  times), the author searched for when the call names one, the title searched for in title
  case, a few dozen editions at most, first published no later than this year;
- an edition (``isbn_13``, ``publishers``, ``number_of_pages``): the ISBN asked for (as
  ISBN-13, with its ISBN-10 when it has one; a drawn ISBN has valid check digits), one
  publisher, a plausible page count, published in the ISBN era, and a work key of its own;
- an author (``personal_name``, ``alternate_names``): the personal name is the name, the
  other names are its initialled forms, a death date (when shown) falls after the birth.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake
from env_server.simulators.values import draw_kind

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_BOOK_ENTITIES = frozenset({"work", "book", "edition", "author"})
_AUTHOR_ARGS = ("author", "author_name", "authors")
_TITLE_ARGS = ("title", "q")
_ISBN_ARGS = ("isbn", "isbn_13", "isbn13", "isbn_10", "isbn10", "bibkeys")


def book_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that finishes a work, an edition or an author record, or None."""
    if snake(entity) not in _BOOK_ENTITIES:
        return None
    keys = {snake(k): k for k in props}
    if "author_name" in keys or "edition_count" in keys:
        return _work_step(keys)
    if {"isbn_13", "isbn_10"} & keys.keys() or {"publishers", "number_of_pages"} <= keys.keys():
        return _edition_step(keys)
    if snake(entity) == "author" and {"personal_name", "alternate_names"} & keys.keys():
        return _author_step(keys)
    return None


# -- works ----------------------------------------------------------------------------


def _work_step(keys: Mapping[str, str]) -> Step:
    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        if (key := keys.get("author_name")) is not None and isinstance(record.get(key), list):
            record[key] = _authors(record[key], gen)
        if (key := keys.get("edition_count")) is not None and isinstance(record.get(key), int):
            record[key] = min(int(gen.rng.paretovariate(1.2)) + gen.rng.randint(0, 2), 80)
        if (key := keys.get("first_publish_year")) is not None and isinstance(record.get(key), int):
            record[key] = min(record[key], gen.today.year)
        if (key := keys.get("title")) is not None and isinstance(record.get(key), str):
            record[key] = _title_cased(record[key], gen)

    return step


def _authors(drawn: list[Any], gen: Generation) -> list[str]:
    """One author (now and then two): the one the call names, the same on every row."""
    names = [str(n) for n in drawn if isinstance(n, str) and n.strip()] or [str(draw_kind("author", gen))]
    asked = next((v.strip() for k in _AUTHOR_ARGS if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), "")
    if asked:
        first = asked.title() if " " in asked else f"{names[0].split()[0]} {asked.title()}"
        lead: str = gen.scope.top.once("book:author", lambda: first)
        return [lead]
    return names[:2] if gen.rng.random() < 0.15 else names[:1]


def _title_cased(title: str, gen: Generation) -> str:
    """A title that is just the searched words reads as a title ("dune" -> "Dune")."""
    asked = next((v.strip() for k in _TITLE_ARGS if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), "")
    return _capitalised(title) if asked and title.strip().lower() == asked.lower() else title


def _capitalised(text: str) -> str:
    small = {"a", "an", "and", "the", "of", "in", "on", "to", "for", "at", "by", "or"}
    words = text.split()
    return " ".join(w if w[:1].isupper() else w.capitalize() if i == 0 or w not in small else w
                    for i, w in enumerate(words))


# -- editions -------------------------------------------------------------------------


_FORMATS = ("Paperback", "Hardcover", "Mass Market Paperback", "ebook")


def _edition_step(keys: Mapping[str, str]) -> Step:
    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        isbn13 = _asked_isbn(gen) or _drawn_isbn(gen.rng)
        rng = random.Random(f"edition:{isbn13}:{gen.session_seed}")  # one ISBN, one edition (as 10 or 13)
        if (key := keys.get("title")) is not None and isinstance(record.get(key), str) and _asked_isbn(gen):
            titles = gen.facts.vocab.get("book_title").values
            record[key] = titles[rng.randrange(len(titles))]
        _put(record, keys.get("isbn_13"), [isbn13])
        if isbn13.startswith("978"):
            _put(record, keys.get("isbn_10"), [isbn10_of(isbn13)])
        elif (key := keys.get("isbn_10")) is not None:
            record.pop(key, None)
        publishers = gen.facts.vocab.get("book_publisher").values
        _put(record, keys.get("publishers"), [publishers[rng.randrange(len(publishers))]])
        if (key := keys.get("publish_date")) is not None and key in record:
            record[key] = str(rng.randint(1975, gen.today.year))
        if (key := keys.get("number_of_pages")) is not None and key in record:
            record[key] = rng.randint(12, 96) * 8
        if (key := keys.get("physical_format")) is not None and isinstance(record.get(key), str):
            record[key] = rng.choice(_FORMATS)
        if (key := keys.get("works")) is not None and isinstance(record.get(key), list):
            record[key] = [f"/works/OL{int(isbn13[3:12]) % 9_000_000 + 100_000}W"]

    return step


def _put(record: dict[str, Any], key: str | None, value: list[str]) -> None:
    if key is not None and isinstance(record.get(key), list):
        record[key] = value


def _asked_isbn(gen: Generation) -> str | None:
    """The ISBN the call asks for, as ISBN-13 digits, when it is one."""
    for name in _ISBN_ARGS:
        value = gen.snaked_args.get(name)
        digits = re.sub(r"[^0-9Xx]", "", value.split(":")[-1]) if isinstance(value, str) else ""
        if len(digits) == 13 and digits.isdigit():
            return digits
        if len(digits) == 10 and digits[:9].isdigit():
            return isbn13_of(digits)
    return None


def _drawn_isbn(rng: random.Random) -> str:
    body = "978" + rng.choice("01") + "".join(str(rng.randrange(10)) for _ in range(8))
    return body + isbn13_check(body)


def isbn13_check(first12: str) -> str:
    total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(first12))
    return str((10 - total % 10) % 10)


def isbn10_check(first9: str) -> str:
    total = sum(int(d) * (10 - i) for i, d in enumerate(first9))
    check = (11 - total % 11) % 11
    return "X" if check == 10 else str(check)


def isbn13_of(isbn10: str) -> str:
    body = "978" + isbn10[:9]
    return body + isbn13_check(body)


def isbn10_of(isbn13: str) -> str:
    return isbn13[3:12] + isbn10_check(isbn13[3:12])


# -- authors --------------------------------------------------------------------------


def _author_step(keys: Mapping[str, str]) -> Step:
    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        name = record.get(keys.get("name", ""))
        if not isinstance(name, str) or not name.strip():
            return
        if (key := keys.get("personal_name")) is not None and key in record:
            record[key] = name
        if (key := keys.get("alternate_names")) is not None and isinstance(record.get(key), list):
            record[key] = _initialled(name)
        if (key := keys.get("wikipedia")) is not None and isinstance(record.get(key), str):
            record[key] = "https://en.wikipedia.org/wiki/" + name.replace(" ", "_")
        _lifespan(record, keys, gen)

    return step


def _initialled(name: str) -> list[str]:
    """A name's initialled forms ("Briana Griffin": "B. Griffin")."""
    parts = name.split()
    if len(parts) < 2:
        return []
    return [" ".join([*(p[0] + "." for p in parts[:-1]), parts[-1]])]


def _lifespan(record: dict[str, Any], keys: Mapping[str, str], gen: Generation) -> None:
    """A death date after the birth (an author who died at 40 to 95), none for the living."""
    born, died = keys.get("birth_date"), keys.get("death_date")
    if born is None or died is None or not isinstance(record.get(born), str) or died not in record:
        return
    year = re.match(r"^(\d{4})", record[born])
    if year is None:
        return
    end = int(year.group(1)) + gen.rng.randint(40, 95)
    if end >= gen.today.year:
        record.pop(died)
    else:
        record[died] = f"{end}-{gen.rng.randint(1, 12):02d}-{gen.rng.randint(1, 28):02d}"
