"""The synonym table (``synonyms.json``, our own data) as a map from a stem to related stems.

A group makes its words interchangeable; a hint makes one word also look for others (a user
who says "tomorrow" wants a forecast, but one who says "forecast" need not mean tomorrow).
"""

from __future__ import annotations

import functools
import json
from importlib import resources

from env_server.search.text import terms


def _stems(word_list: list[str]) -> list[str]:
    return [t for word in word_list for t in terms(word)]


def build_related(groups: list[list[str]], hints: dict[str, list[str]]) -> dict[str, frozenset[str]]:
    """Stem -> the stems it also stands for (never itself)."""
    related: dict[str, set[str]] = {}
    for group in groups:
        stems = _stems(group)
        for s in stems:
            related.setdefault(s, set()).update(stems)
    for word, targets in hints.items():
        # A hint reaches its targets' groups too: "bitcoin" -> crypto -> cryptocurrency, coin.
        reached = {t for target in _stems(targets) for t in (target, *related.get(target, ()))}
        for s in _stems([word]):
            related.setdefault(s, set()).update(reached)
    return {s: frozenset(others - {s}) for s, others in related.items() if others - {s}}


@functools.cache
def related_terms() -> dict[str, frozenset[str]]:
    """The built-in table, read once per process."""
    raw = json.loads(resources.files("env_server.search").joinpath("synonyms.json").read_text(encoding="utf-8"))
    return build_related(raw["groups"], raw["hints"])
