"""Words of tool names and descriptions: camelCase splitting and a light singular form."""

from __future__ import annotations

import functools
import re


def split_words(name: str) -> list[str]:
    """Split camelCase / snake_case / kebab names into lowercase words."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", spaced)
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w]


def singularize(word: str) -> str:
    if len(word) <= 3 or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses", "uses")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


# Words a trailing "s" does not make plural ("news" is not "new").
_KEEP = frozenset({"news", "series", "species", "analytics", "physics", "economics", "politics", "athletics"})


@functools.lru_cache(maxsize=8192)
def word_forms(word: str) -> frozenset[str]:
    """The forms a word may stand for when matched: itself and its possible singulars.

    Plural endings are ambiguous ("cases" -> case, "buses" -> bus, "movies" -> movie,
    "cities" -> city), so every candidate is kept; two words match when their forms meet.
    """
    low = word.lower()
    if low in _KEEP or len(low) <= 3 or not low.endswith("s") or low.endswith("ss"):
        return frozenset({low})
    forms = {low, low[:-1]}
    if low.endswith("es"):
        forms.add(low[:-2])
    if low.endswith("ies"):
        forms.add(low[:-3] + "y")
    return frozenset(forms)


def text_words(text: str) -> list[str]:
    """The lowercase words of free text (a description)."""
    return re.findall(r"[a-z0-9]+", text.lower())


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def snake(name: str) -> str:
    """``startDate`` -> ``start_date``, as the simulator matches output fields to arguments."""
    return _CAMEL.sub("_", name).lower().replace("-", "_").replace(" ", "_")
