"""A small English stemmer for tool search, after M. F. Porter's 1980 suffix-stripping algorithm.

Queries and tool texts go through the same function, so "booking", "booked" and "books" meet
at "book", and "reservation" and "reserve" at "reserv". The stem need not be a word. A few
words are kept as they are, where stripping would merge two ideas ("news" is not "new").
"""

from __future__ import annotations

import functools

_VOWELS = frozenset("aeiou")
_KEEP = frozenset({"news", "series", "species", "analytics", "physics", "economics", "gas", "bus", "vin", "sms"})

# (suffix, replacement) pairs; the first suffix that ends the word is the only one tried.
_STEP2 = (
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
    ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
    ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
    ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
)
_STEP3 = (
    ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""), ("ness", ""),
)
_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
    "ism", "ate", "iti", "ous", "ive", "ize",
)


def _is_consonant(word: str, i: int) -> bool:
    ch = word[i]
    if ch in _VOWELS:
        return False
    if ch == "y":
        return i == 0 or not _is_consonant(word, i - 1)
    return True


def _measure(stem: str) -> int:
    """How many vowel-consonant runs the stem has (Porter's m)."""
    m, prev_vowel = 0, False
    for i in range(len(stem)):
        vowel = not _is_consonant(stem, i)
        if prev_vowel and not vowel:
            m += 1
        prev_vowel = vowel
    return m


def _has_vowel(stem: str) -> bool:
    return any(not _is_consonant(stem, i) for i in range(len(stem)))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _is_consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    """Ends consonant-vowel-consonant, the last not w, x or y ("hop", not "snow")."""
    if len(word) < 3 or word[-1] in "wxy":
        return False
    n = len(word)
    return _is_consonant(word, n - 3) and not _is_consonant(word, n - 2) and _is_consonant(word, n - 1)


def _plural(word: str) -> str:
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("ies"):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _tense(word: str) -> str:
    if word.endswith("eed"):
        return word[:-1] if _measure(word[:-3]) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and _has_vowel(word[: -len(suffix)]):
            base = word[: -len(suffix)]
            if base.endswith(("at", "bl", "iz")):
                return base + "e"
            if _double_consonant(base) and base[-1] not in "lsz":
                return base[:-1]
            if _measure(base) == 1 and _cvc(base):
                return base + "e"
            return base
    return word


def _replace(word: str, rules: tuple[tuple[str, str], ...], min_measure: int) -> str:
    for suffix, repl in rules:
        if word.endswith(suffix):
            base = word[: -len(suffix)]
            return base + repl if _measure(base) > min_measure else word
    return word


def _strip_ending(word: str) -> str:
    for suffix in _STEP4:
        if word.endswith(suffix):
            base = word[: -len(suffix)]
            if suffix == "ion" and not base.endswith(("s", "t")):
                return word
            return base if _measure(base) > 1 else word
    return word


def _tidy(word: str) -> str:
    if word.endswith("e"):
        base = word[:-1]
        m = _measure(base)
        if m > 1 or (m == 1 and not _cvc(base)):
            word = base
    if word.endswith("ll") and _measure(word) > 1:
        word = word[:-1]
    return word


@functools.lru_cache(maxsize=32768)
def stem(word: str) -> str:
    """The stem of one lowercase word; short words, numbers and ``_KEEP`` words pass through."""
    if len(word) <= 2 or word in _KEEP or not word.isalpha():
        return word
    w = _tense(_plural(word))
    if w.endswith("y") and _has_vowel(w[:-1]):
        w = w[:-1] + "i"
    w = _replace(w, _STEP2, 0)
    w = _replace(w, _STEP3, 0)
    return _tidy(_strip_ending(w))
