"""A museum object reads as one: its department, classification, medium, culture and date agree.

A watercolor river scene is not in The Costume Institute, and a 2012 quilt is neither Tibetan
nor in the public domain. An object is drawn from one department's holdings
(``tool_specs/vocab/museum_collection.json``: its classification, media, cultures and the
centuries of its making), dated within them ("ca. 1450 B.C." for an Egyptian statue), and in the
public domain only when it is older than a century. An object a collection search found is about
what was searched: its title is built around the term, in one of its department's frames
("Still Life with …" in European Paintings, "Lute with … Inlay" in Musical Instruments);
any other object takes one of its department's titles.

``artwork_step(entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.draws import slugify
from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_ENTITIES = frozenset({"object", "artwork", "art"})
_DEPARTMENTS = ("department", "department_title")
_MEDIA = ("medium", "medium_display")
_CULTURES = ("culture",)
_DATES = ("objectDate", "date_display", "dated")
_BEGIN = ("objectBeginDate", "date_start")
_END = ("objectEndDate", "date_end")
_PUBLIC = ("isPublicDomain", "is_public_domain")
_CLASSES = ("classification", "classification_title", "objectName")
_TERM_ARGS = ("q", "query", "search")
PUBLIC_DOMAIN_BEFORE = 1926  # made before: out of copyright
ANONYMOUS_BEFORE = 1300  # made before: by an unknown hand, as the collection lists it


def artwork_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a museum object's fields agree, or None."""
    if not set(snake(entity).split("_")) & _ENTITIES:
        return None
    department = next((k for k in _DEPARTMENTS if k in props), None)
    if department is None or not any(k in props for k in (*_MEDIA, *_DATES, *_PUBLIC)):
        return None

    closed = frozenset(k for k, s in props.items() if isinstance(s, dict) and s.get("enum"))
    if department in closed:
        return None  # a template's own short list of departments: not the Met's

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        sent = {**gen.snaked_args, **dict.fromkeys(snake(k) for k in closed)}  # closed lists keep their draws
        holdings = gen.facts.vocab.get("museum_collection").records
        asked = sent.get(snake(department))
        fact = next((r for r in holdings if r["department"] == asked), None) or holdings[
            gen.rng.randrange(len(holdings))]
        record[department] = fact["department"]
        _set_first(record, _CLASSES[:2], fact["classification"], sent)
        _set_first(record, _MEDIA, gen.rng.choice(fact["media"]), sent)
        _set_first(record, _CULTURES, gen.rng.choice(fact["cultures"]), sent)
        year = gen.rng.randint(fact["earliest"], min(fact["latest"], gen.today.year))
        _set_first(record, _DATES, date_text(year), sent)
        for keys, value in ((_BEGIN, year - year % 25 if year < 0 else year), (_END, year + 25 if year < 0 else year)):
            key = next((k for k in keys if isinstance(record.get(k), int)), None)
            if key is not None:
                record[key] = value
        for key in _PUBLIC:
            if isinstance(record.get(key), bool):
                record[key] = year < PUBLIC_DOMAIN_BEFORE
        _made_then(record, year, gen)
        if isinstance(record.get("title"), str) and "title" not in sent:
            record["title"] = gen.rng.choice(fact["titles"])  # an Egyptian statue, not "Portrait of a Lady"
        _title_by_term(record, gen, fact["term_titles"])

    return step


def _made_then(record: dict[str, Any], year: int, gen: Generation) -> None:
    """Acquired after it was made; an ancient or medieval maker's name is not known."""
    accession = record.get("accessionYear")
    if isinstance(accession, str) and accession.isdigit() and int(accession) <= year:
        record["accessionYear"] = str(gen.rng.randint(min(max(year + 1, 1870), gen.today.year), gen.today.year))
    if year < ANONYMOUS_BEFORE and isinstance(record.get("artistDisplayName"), str):
        record["artistDisplayName"] = ""


def _set_first(record: dict[str, Any], keys: tuple[str, ...], value: Any, sent: Mapping[str, Any]) -> None:
    key = next((k for k in keys if isinstance(record.get(k), str)), None)
    if key is not None and snake(key) not in sent:
        record[key] = value


def date_text(year: int) -> str:
    """An object's date as a museum writes it: ``1887``, ``ca. 1450 B.C.``, ``ca. A.D. 150``."""
    if year < 0:
        return f"ca. {-year} B.C."
    if year < 600:
        return f"ca. A.D. {year}"
    return str(year)


def _title_by_term(record: dict[str, Any], gen: Generation, frames: list[str]) -> None:
    """An object a search found (the search's term is in its row's context) is titled after it,
    in a frame its department's objects take ("Amulet in the Form of …" in Egyptian Art)."""
    term = next((v for k in _TERM_ARGS if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), None)
    if term is None or not isinstance(record.get("title"), str) or "title" in gen.snaked_args:
        return
    if term.lower() in record["title"].lower():
        return
    shown = " ".join(w[:1].upper() + w[1:] for w in term.strip().split())
    old = record["title"]
    record["title"] = frames[zlib.crc32(f"{term}|{old}".encode()) % len(frames)].replace("{term}", shown)
    before, after = slugify(old), slugify(record["title"])
    for key, value in record.items():  # its page follows its title
        if isinstance(value, str) and "://" in value and value.rstrip("/").endswith("/" + before):
            record[key] = value.rstrip("/")[: -len(before)] + after
