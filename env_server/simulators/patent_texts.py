"""Patents whose title, abstract, claims and class are about one invention.

A record is a patent's when its entity or its own name says patent, invention or claims, or
it has a patent's fields (``patent_title``, ``ipc_classes``, ``cpc_group``). It takes one
``invention`` (a title, the thing claimed, its characterizing element, what it achieves, an
IPC symbol): one the search term names when the call searched (a search for "battery" finds
battery patents), else any. Its title fields take the invention's title, its abstract a
``patent_text`` abstract about it, its IPC or CPC fields the symbol. A claim (an item of a
``claims`` list) is about the call's one invention: claim 1 is independent, later claims
refer back to it, numbered in order.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.draws import draw_unused
from env_server.simulators.naming import snake
from env_server.simulators.notice_compose import (
    Fields,
    capitalized,
    compose,
    compose_whole,
    is_free_text,
    retitle,
    words_of,
)

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

KIND, TEXTS = "invention", "patent_text"
_PATENT_WORDS = frozenset({"patent", "patents", "invention", "inventions", "claims", "claim"})
_PATENT_FIELDS = frozenset({"patent_title", "patent_abstract", "ipc_class", "ipc_classes", "cpc_group", "cpc_groups",
                            "invention_title", "ipc"})
_TITLES = ("patent_title", "invention_title", "title")
_ABSTRACTS = ("patent_abstract", "abstract", "abstract_text")
_CLASSES = ("ipc_class", "ipc_classes", "ipc", "cpc_group", "cpc_groups", "classification")
_CLAIM_TEXTS = ("text", "claim_text", "claim")
_NUMBERS = ("number", "claim_number", "num")
_IDS = ("publication_number", "patent_id", "patent_number", "application_number", "doc_number")
_TERMS = ("q", "query", "search", "keyword", "keywords", "text", "text_any", "text_all", "text_phrase", "term", "title")


def patent_step(name: str, entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that writes a patent record's texts about its invention, or None."""
    words = words_of(name, entity)
    names = {snake(k) for k in props}
    if words.isdisjoint(_PATENT_WORDS) and names.isdisjoint(_PATENT_FIELDS):
        return None
    if "claims" in words_of(name) or (not words.isdisjoint({"claims", "claim"}) and names & set(_CLAIM_TEXTS)
                                      and names & set(_NUMBERS)):
        return _claim_step(props)
    titles, abstracts = Fields.among(props, _TITLES), Fields.among(props, _ABSTRACTS)
    # Class fields that take any symbol (an enum keeps its own, drawn from its list).
    classes = Fields(tuple(k for k in Fields.among(props, _CLASSES, text_only=False).keys
                           if is_free_text((props[k].get("items") or {}) if props[k].get("type") == "array"
                                           else props[k])))
    if not (titles or abstracts):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        own = titles.first_value(record)
        known = gen.facts.vocab.index(KIND).get(own.lower()) if own is not None else None
        # A stored patent read back keeps its invention; a new one takes the call's.
        found = slots_of(known) if known is not None else _invention(gen, shared=not titles)
        retitle(record, titles, found["title"], props)
        for key in classes.keys:
            if key in record:
                record[key] = [found["ipc"]] if isinstance(record[key], list) else found["ipc"]
        for key in abstracts.keys:
            if key in record:
                record[key] = compose(gen, TEXTS, ("section",), ("abstract",), found)

    return compose_whole(step, abstracts)


def _claim_step(props: Mapping[str, Any]) -> Step | None:
    texts, numbers = Fields.among(props, _CLAIM_TEXTS), Fields.among(props, _NUMBERS, text_only=False)
    if not texts:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        found = _invention(gen, shared=True)
        number = gen.scope.index + 1
        for key in numbers.keys:
            if isinstance(record.get(key), int):
                record[key] = number
        section = "claim_first" if number == 1 else "claim_dependent"
        slots = {**found, "ref": 1 if number <= 3 else gen.rng.randint(1, number - 1)}
        for key in texts.keys:
            if key in record:
                record[key] = f"{number}. " + capitalized(compose(gen, TEXTS, ("section",), (section,), slots))

    return compose_whole(step, texts)


def _invention(gen: Generation, *, shared: bool) -> dict[str, Any]:
    """The record's invention (the call's one, for a record that does not title its own)."""
    if shared:
        found: dict[str, Any] = gen.scope.top.once("invention", lambda: _draw(gen))
        return found
    return _draw(gen)


def _draw(gen: Generation) -> dict[str, Any]:
    vocab = gen.facts.vocab
    named = next((v for k in _IDS if isinstance(v := gen.snaked_args.get(k), (str, int)) and str(v).strip()), None)
    if named is not None:  # one publication is one invention, in every tool that reads it
        records = vocab.get(KIND).records
        return slots_of(records[zlib.crc32(str(named).strip().upper().encode()) % len(records)])
    term = next((v for k in _TERMS if isinstance(v := gen.snaked_args.get(k), str) and len(v.strip()) >= 3), None)
    used: set[str] = gen.scope.top.once("inventions_used", set)  # titles this call has given
    pool = vocab.containing(KIND, term) if term is not None else ()
    if all(r["title"] in used for r in pool):  # none, or the term's inventions are used up: any other
        pool = vocab.get(KIND).records
    titles = tuple(r["title"] for r in pool) if len(pool) < 16 else ()
    if titles:
        title = draw_unused(gen, titles, used, titles[gen.rng.randrange(len(titles))], 8)
        return slots_of(pool[titles.index(title)])
    for _ in range(8):  # a large pool: redraw while the title was given
        found = pool[gen.rng.randrange(len(pool))]
        if found["title"] not in used:
            break
    used.add(found["title"])
    return slots_of(found)


def slots_of(invention: Mapping[str, Any]) -> dict[str, Any]:
    """An invention's facts with the article forms its sentences use."""
    subject, element = str(invention["subject"]), str(invention["element"])
    article = "an" if subject[:1].lower() in "aeiou" else "a"
    head, _, rest = element.partition(" ")
    return {**invention, "a_subject": f"{article} {subject}", "A_subject": f"{article.capitalize()} {subject}",
            "the_element": f"the {rest}" if head in ("a", "an", "the") else element}
