"""The synonym table (``synonyms.json``, our own data): groups, hints and phrases, as stems.

A group makes its words interchangeable; a hint makes one word also look for others (a user
who says "tomorrow" wants a forecast, but one who says "forecast" need not mean tomorrow); a
phrase stands for words none of its own words means alone ("text message" -> sms); a suffix
makes every word with that ending a hint ("dermatologist" and "cardiologist" -> doctor).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from env_server.search.stem import stem
from env_server.search.text import terms, words


@dataclass(frozen=True)
class SynonymTable:
    related: dict[str, frozenset[str]]                  # stem -> every stem it also stands for
    hints: dict[str, frozenset[str]]                    # stem -> the stems its hint names directly
    mates: dict[str, frozenset[str]]                    # stem -> the other stems of its own groups
    suffixes: dict[str, tuple[str, ...]]                # stem ending -> the stems any stem so ending stands for
    phrases: dict[tuple[str, ...], tuple[str, ...]]     # stemmed phrase -> the stems it stands for


def _stems(word_list: list[str]) -> list[str]:
    return [t for word in word_list for t in terms(word)]


def build_mates(groups: list[list[str]]) -> dict[str, frozenset[str]]:
    """Stem -> the other stems of every group it is in."""
    mates: dict[str, set[str]] = {}
    for group in groups:
        stems = _stems(group)
        for s in stems:
            mates.setdefault(s, set()).update(stems)
    return {s: frozenset(others - {s}) for s, others in mates.items() if others - {s}}


def build_related(groups: list[list[str]], hints: dict[str, list[str]]) -> dict[str, frozenset[str]]:
    """Stem -> the stems it also stands for (never itself)."""
    mates = build_mates(groups)
    related: dict[str, set[str]] = {s: set(others) for s, others in mates.items()}
    for word, targets in hints.items():
        # A hint reaches its targets' groups too: "bitcoin" -> crypto -> cryptocurrency, coin.
        reached = {t for target in _stems(targets) for t in (target, *mates.get(target, ()))}
        for s in _stems([word]):
            related.setdefault(s, set()).update(reached)
    return {s: frozenset(others - {s}) for s, others in related.items() if others - {s}}


def build_table(raw: dict[str, Any]) -> SynonymTable:
    """The table from its JSON form (``groups``, ``hints``, ``phrases``, ``suffixes``)."""
    groups: list[list[str]] = raw.get("groups") or []
    hints: dict[str, list[str]] = raw.get("hints") or {}
    phrases: dict[str, list[str]] = raw.get("phrases") or {}
    return SynonymTable(
        related=build_related(groups, hints),
        hints={s: frozenset(_stems(targets)) for word, targets in hints.items() for s in _stems([word])},
        mates=build_mates(groups),
        suffixes={end: tuple(_stems(targets)) for end, targets in (raw.get("suffixes") or {}).items()},
        # Phrases keep their function words: "open now" is not "open".
        phrases={tuple(stem(w) for w in words(p)): tuple(_stems(targets)) for p, targets in phrases.items()},
    )


@functools.cache
def synonym_table() -> SynonymTable:
    """The built-in table, read once per process."""
    text = resources.files("env_server.search").joinpath("synonyms.json").read_text(encoding="utf-8")
    return build_table(json.loads(text))
