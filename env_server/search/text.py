"""Words to terms: how tool texts and queries are cut up before ranking.

One pattern splits prose, snake_case and camelCase alike ("getCityAQI" gives get, city, aqi).
Function words and bare numbers are dropped, and every other word is stemmed, so a query and
a description meet on "forecast" whether either says "forecasts" or "forecasting".
"""

from __future__ import annotations

import re

from env_server.search.stem import stem

_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
# "to-do", "e-mail", "one-time": the joined form is a word of its own as well.
_COMPOUND = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)+")
# "YouTube", "GitHub", "iPhone": a name written in mixed case is one word as well as its parts.
_MIXED = re.compile(r"\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b")

STOP_WORDS = frozenset(
    """
    a about after again all also am an and any are as at be been before being but by can could d did do
    does doing don for from get give had has have having he her here hers him his how i if in into is it
    its just let ll m me might more most much must my need no not now of off on once only or other our
    ours out over own please re s same she should so some such t than that the their theirs them then
    there these they this those to too under until up us ve very want was we were what when where which
    while who whom why will with would you your yours like tell
    something anything everything thing things stuff
    """.split()
)


def words(text: str) -> list[str]:
    """Lowercase words of ``text``, camelCase and snake_case split apart, hyphenated ones also joined."""
    found = [w.lower() for w in _WORD.findall(text)]
    if "-" in text:
        found += [c.replace("-", "").lower() for c in _COMPOUND.findall(text)]
    found += [m.lower() for m in _MIXED.findall(text)]
    return found


def join_mixed_case(text: str) -> str:
    """A query's mixed-case names as the one word the user means: "on YouTube" -> "on youtube"."""
    return _MIXED.sub(lambda m: m.group(0).lower(), text)


def terms(text: str) -> list[str]:
    """The stems ranking compares: content words only, in order, repeats kept."""
    return [stem(w) for w in words(text) if w not in STOP_WORDS and not w.isdigit() and len(w) > 1]


# Words after which a query names its subject rather than the tool it wants.
_BOUNDARIES = frozenset("of for by about in from with on at near to called named saying titled".split())


def split_head(query: str) -> tuple[str, str]:
    """Split "icons of a shopping cart" into ("icons", "of a shopping cart") at the first boundary
    word that follows a content word; the whole query is the head when there is none."""
    parts = query.split()
    seen_content = False
    for i, part in enumerate(parts):
        word = part.lower()
        if seen_content and word in _BOUNDARIES:
            return " ".join(parts[:i]), " ".join(parts[i:])
        seen_content = seen_content or bool(terms(part))
    return query, ""
