"""What the domain notices share: their record fields, read once per object schema, and
templates filled from the record's own facts.

A domain notice (a transit alert, a vehicle recall, a drug label, a patent, a company
filing) is text whose wording is a vocabulary of templates grouped by a topic (the effect an
alert announces, the section of a label). Each family's step finds, once per object schema,
which of the record's fields hold its key facts and which hold its texts (``Fields``); per
record it picks a template of the topic and fills its slots with ``str.format_map``: no
pattern matching per call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from env_server.simulators.draws import slugify
from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation


Step = Callable[[dict[str, Any], "Generation", "int | None"], None]


@dataclass(frozen=True)
class Composer:
    """A record step that writes the fields ``writes`` whole, whatever they held: the record's
    plan leaves them empty instead of drawing a value first (``plans``)."""

    run: Step
    writes: frozenset[str]

    def __call__(self, record: dict[str, Any], gen: Generation, index: int | None) -> None:
        self.run(record, gen, index)


def compose_whole(run: Step, *written: Fields | Iterable[str]) -> Composer:
    keys = frozenset(k for group in written for k in (group.keys if isinstance(group, Fields) else group))
    return Composer(run, keys)


@dataclass(frozen=True)
class Fields:
    """The schema's keys (as written) whose snake_case names are among ``names``, in the order of ``names``."""

    keys: tuple[str, ...]

    @classmethod
    def among(cls, props: Mapping[str, Any], names: Iterable[str], *, text_only: bool = True) -> Fields:
        by_name = {snake(k): k for k in props}
        return cls(tuple(by_name[n] for n in dict.fromkeys(names) if n in by_name
                         and (not text_only or is_free_text(props[by_name[n]]))))

    def __bool__(self) -> bool:
        return bool(self.keys)

    def first_value(self, record: Mapping[str, Any]) -> str | None:
        """The first of these fields that holds a non-empty string in ``record``."""
        return next((v for k in self.keys if isinstance(v := record.get(k), str) and v.strip()), None)

    def write(self, record: dict[str, Any], value: Any, props: Mapping[str, Any]) -> None:
        """Set every one of these fields the record has to ``value`` (an enum field only to a member)."""
        for key in self.keys:
            if key in record and fits(value, props.get(key)):
                record[key] = value


_URLS = ("url", "uri", "link", "web_url", "html_url", "permalink")


def retitle(record: dict[str, Any], titles: Fields, title: str, props: Mapping[str, Any]) -> None:
    """Write the record's new title; a page URL slugged from an old title names the new one."""
    olds = {slugify(v) for k in titles.keys if isinstance(v := record.get(k), str) and v.strip()}
    titles.write(record, title, props)
    after = slugify(title)
    for key in _URLS:
        url = record.get(key)
        if not isinstance(url, str):
            continue
        head, _, last = url.rstrip("/").rpartition("/")
        if head and last in olds:
            record[key] = f"{head}/{after}"


def is_free_text(schema: Any) -> bool:
    """A plain string field: no enum, no const, no format."""
    return isinstance(schema, dict) and schema.get("type", "string") == "string" and not (
        {"enum", "const", "format"} & set(schema))


def fits(value: Any, schema: Any) -> bool:
    if not isinstance(schema, dict):
        return True
    enum = schema.get("enum")
    if enum is not None:
        return value in enum
    typ = schema.get("type", "string")
    return typ == "string" and isinstance(value, str) or typ != "string"


def words_of(*names: str) -> frozenset[str]:
    return frozenset(w for name in names for w in snake(name).split("_") if w)


def template(gen: Generation, kind: str, keys: tuple[str, ...], topic: tuple[str, ...]) -> str:
    """A random template of ``kind`` whose ``keys`` have the values ``topic`` (any of the kind's
    templates when none has them)."""
    groups = gen.facts.vocab.grouped(kind, *keys)
    texts = groups.get(topic)
    if not texts:
        texts = next(iter(groups.values()))
    return texts[gen.rng.randrange(len(texts))]


def compose(gen: Generation, kind: str, keys: tuple[str, ...], topic: tuple[str, ...],
            slots: Mapping[str, Any]) -> str:
    """A template of the topic, its slots filled from the record's facts."""
    return template(gen, kind, keys, topic).format_map(slots)


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def titled(name: str) -> str:
    """A name sent in lower case as a name is written (``acura`` -> ``Acura``; ``rdx`` -> ``RDX``)."""
    if not name or not name.islower():
        return name
    if len(name) <= 3 and name.isalnum():
        return name.upper()
    return name.title()
