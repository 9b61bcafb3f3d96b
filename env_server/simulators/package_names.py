"""A registry's packages are about what was searched: a search for "chart" finds ``chart.js``,
``react-chart`` and ``chart-utils``, described as chart libraries, not a podcast downloader that
"leans on chart for its point".

A package or library record (npm, cdnjs) answering a search takes its name from a pattern built
around the term (``tool_specs/vocab/package_name_pattern.json``: the first hit is often the term
itself), one line about the term as its description (``package_description``), the term and a
few registry keywords (``package_keyword``) as its keywords. A read of a named package describes
that package's subject. A CDN library's ``latest`` is the URL of its main file at its version
(``https://cdnjs.cloudflare.com/ajax/libs/{name}/{version}/{file}``).

``package_step(entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_ENTITIES = frozenset({"package", "library"})
_NOT_WHOLE = frozenset({"version", "file", "stats", "download", "downloads"})  # a package's parts, not the package
_TERM_ARGS = ("text", "search", "q", "query", "keywords", "term")
_NAME_ARGS = ("name", "package", "library", "package_name")
_TERM_RE = re.compile(r"^[a-z0-9][a-z0-9 ._-]{0,29}$")
_STEM_RE = re.compile(r"^@[^/]+/|(\.js|-js|js)$")
_CDNJS = "https://cdnjs.cloudflare.com/ajax/libs"


def package_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a package record about the term searched (or the name read), or None."""
    words = set(snake(entity).split("_"))
    if not words & _ENTITIES or words & _NOT_WHOLE or "name" not in props:
        return None
    if not {"description", "latest", "keywords"} & set(props) or not {"version", "versions", "license"} & set(props):
        return None  # a package is versioned and licensed; a reading list called a library is not

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        sent = gen.snaked_args
        term = _term(sent)
        drawn = record.get("name")
        if term is not None and index is not None and isinstance(record.get("name"), str):
            record["name"] = name_for(term, index, gen.facts.vocab.get("package_name_pattern").values)
        name = record.get("name")
        named = next((v for k in _NAME_ARGS if isinstance(v := sent.get(k), str) and v.strip()), None)
        if term is None and named is not None and gen.scope.is_top:
            name = named  # a read: the package asked for (its name is echoed after this step)
        subject = term or (_stem(name) if isinstance(name, str) and named is not None else None)
        if subject is None:
            return
        if isinstance(record.get("description"), str) and "description" not in sent:
            frames = gen.facts.vocab.get("package_description").values
            record["description"] = _describe(subject, f"{subject}|{index or 0}", frames)
        if isinstance(record.get("filename"), str) and "filename" not in sent and isinstance(name, str):
            record["filename"] = f"{_stem(name)}.min.js"
        keywords = record.get("keywords")
        if isinstance(keywords, list) and all(isinstance(k, str) for k in keywords):
            pool = gen.facts.vocab.get("package_keyword").values
            extra = [pool[i] for i in gen.rng.sample(range(len(pool)), 3) if pool[i] != subject]
            record["keywords"] = [subject.replace(" ", "-"), *extra][: max(1, len(keywords))]
        if isinstance(drawn, str) and isinstance(name, str) and drawn != name:
            _follow_name(record, drawn, name)
        _latest(record)

    return step


def _follow_name(record: dict[str, Any], old: str, new: str) -> None:
    """Pages drawn from the record's first name (its homepage, its repository) name the package."""
    for value in (record, *(v for v in record.values() if isinstance(v, dict))):
        for key, text in value.items():
            if isinstance(text, str) and "://" in text and text.rstrip("/").endswith("/" + old):
                value[key] = text.rstrip("/")[: -len(old)] + new


def _term(sent: Mapping[str, Any]) -> str | None:
    """The search term, when it reads as a package's subject (a word or two, not a sentence)."""
    for key in _TERM_ARGS:
        value = sent.get(key)
        if isinstance(value, str) and _TERM_RE.match(value.strip().lower()):
            return value.strip().lower()
    return None


def _stem(name: str) -> str:
    """A package's subject from its name: ``chart.js`` -> ``chart``, ``@vue/router`` -> ``router``."""
    return _STEM_RE.sub("", name.lower()).strip("-.") or name.lower()


def name_for(term: str, index: int, patterns: Sequence[str]) -> str:
    """The ``index``-th package a search for ``term`` finds (``patterns``: the name patterns):
    distinct for each index."""
    slug = re.sub(r"[^a-z0-9]+", "-", term).strip("-")
    start = zlib.crc32(term.encode()) % 3  # the first hit: the term, "term.js" or "termjs"
    pick = start if index == 0 else (start + 3 + (index - 1) * 7) % len(patterns)
    if index and pick < 3:  # the exact names are for the first hit alone
        pick = 3 + (index - 1) % (len(patterns) - 3)
    return patterns[pick].replace("{term}", slug)


def _describe(subject: str, key: str, frames: Sequence[str]) -> str:
    """A line about ``subject``; the results of one search (``key``: subject and index) differ."""
    term, _, index = key.partition("|")
    pick = (zlib.crc32(term.encode()) + int(index or 0) * 11) % len(frames)
    text = frames[pick].replace("{term}", subject)
    return text[:1].upper() + text[1:]


def _latest(record: dict[str, Any]) -> None:
    """A CDN library's ``latest`` names its main file at its version."""
    latest, name, version = record.get("latest"), record.get("name"), record.get("version")
    if not (isinstance(latest, str) and "cdnjs" in latest and isinstance(name, str) and isinstance(version, str)):
        return
    file = record.get("filename") if isinstance(record.get("filename"), str) else f"{_stem(name)}.min.js"
    record["latest"] = f"{_CDNJS}/{name}/{version}/{file}"
