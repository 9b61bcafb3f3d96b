"""A query as search sees it: weighted stems, and the user's word each stem stands for.

The user's own words weigh most; words after the first "of", "in", "for" ... name the thing
asked about rather than the kind of tool ("icons of a shopping cart" wants icons) and weigh a
little less, and words of time ("tonight", "tomorrow") less again, since they say when, not
what. Each word then brings its related words from the synonym table: a hint's targets
("bitcoin" -> crypto) nearly at full weight, since the table says what the word means; the
words of a synonym group at half; words a hint reaches only through its target's group
barely; each as a share of the weight of the word it came from, so "tomorrow" brings
"forecast" only as weakly as it counts itself. A phrase ("text message") brings the words it
stands for (sms).

A related word covers the user's word it came from: a tool that says "adverse" covers "side
effects" even though it never says "side". A word with one of the table's endings
("dermatologist": -ologist) brings that ending's words, as a hint would.

The subject after "of", "about", "for" ... ("news about climate change") is a value a tool that
takes a keyword can be handed whatever it is; the index uses it when it weighs coverage.
Asking about "now" asks for current values: a tool that says "current", "live" or "latest"
covers it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from env_server.search.intent import topic
from env_server.search.stem import stem
from env_server.search.synonyms import SynonymTable
from env_server.search.text import join_mixed_case, split_head, terms, words

if TYPE_CHECKING:
    from env_server.search.concepts import ConceptHints

TAIL_WEIGHT = 0.7
TIME_WEIGHT = 0.5
HINT_WEIGHT = 0.9
SYNONYM_WEIGHT = 0.5
REACHED_WEIGHT = 0.1
NOW_WEIGHT = 0.7
_TIME_TERMS = frozenset(terms("today tonight tomorrow yesterday weekend night morning evening week month"))
# Ways of saying "now" whose words would otherwise count as topic ("right", "moment").
_NOW = re.compile(r"\b(?:right now|at the moment|at present|these days)\b", re.IGNORECASE)
# Asking about now asks for current values: a tool that says "current", "live" or "latest" covers it.
_ASKS_NOW = re.compile(r"\b(?:now|currently)\b", re.IGNORECASE)
_CURRENT = stem("current")
# A written date asks for a tool that takes one ("rates on 2020-01-01").
DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b")
_DATE_TERMS = tuple(terms("date historical"))
# An amount of money asks about prices ("headphones under $100").
_MONEY = re.compile(r"[$€£¥]\s?\d|\d\s?[$€£¥]")
_MONEY_TERMS = tuple(terms("price"))
PLACE = stem("place")
# A named thing's kind weighs this share of the name's own weight.
NAMED_WEIGHT = 0.6


@dataclass(frozen=True)
class QueryTerms:
    """Stem -> weight, and stem -> the user's stems it covers (a user's stem covers itself)."""

    weights: dict[str, float]
    covers: dict[str, frozenset[str]]
    # The user's stems after the first "of", "about", "for" ...: the subject, which a tool that
    # takes a free-text keyword can be handed whatever it is.
    subject: frozenset[str] = frozenset()
    # Whether the query names a known place ("Nairobi", "Kyoto") without saying "in".
    names_place: bool = False

    @property
    def own(self) -> list[str]:
        """The user's own stems."""
        return [t for t, sources in self.covers.items() if sources == {t}]

    @property
    def about(self) -> frozenset[str]:
        """The stems that stand only for subject words: those words and their related ones."""
        return frozenset(t for t, sources in self.covers.items() if sources and sources <= self.subject)


def query_terms(query: str, table: SynonymTable, concepts: ConceptHints | None = None) -> QueryTerms:
    """The weighted stems of ``query`` with their related words."""
    raw, query = query, join_mixed_case(query)
    head, tail = split_head(topic(_NOW.sub("now", query)))
    weights = _own_weights(query, head, tail)
    covers: dict[str, set[str]] = {t: {t} for t in weights}
    _add_related(weights, covers, table)
    _add_phrases(query, weights, covers, table)
    named: set[str] = set()
    if concepts is not None:
        named = _add_named(raw, weights, covers, concepts)
        _add_hypernyms(raw, weights, covers, table, concepts, named)
    extra = (_DATE_TERMS if DATE.search(query) else ()) + (_MONEY_TERMS if _MONEY.search(query) else ())
    for other in extra:
        weights.setdefault(other, SYNONYM_WEIGHT)
    subject = frozenset(terms(tail)) - frozenset(terms(head))
    names_place = concepts is not None and concepts.names_place(raw)
    return QueryTerms(weights, {t: frozenset(s) for t, s in covers.items()}, subject, names_place)


def _own_weights(query: str, head: str, tail: str) -> dict[str, float]:
    """The user's stems: the head's at full weight, the tail's and words of time less."""
    weights = dict.fromkeys(terms(tail), TAIL_WEIGHT)
    weights.update(dict.fromkeys(terms(head), 1.0))
    for term in _TIME_TERMS & weights.keys():
        weights[term] = min(weights[term], TIME_WEIGHT)
    if _ASKS_NOW.search(query):
        weights.setdefault(_CURRENT, NOW_WEIGHT)
    return weights


def _add_related(weights: dict[str, float], covers: dict[str, set[str]], table: SynonymTable) -> None:
    """Each user word's related words: its groups, its hints, and its suffix's words."""
    for term in list(weights):
        for other in table.related.get(term, ()):
            _relate(weights, covers, other, _related_weight(table, term, other) * weights[term], {term})
        for ending, targets in table.suffixes.items():
            if term.endswith(ending) and len(term) > len(ending) + 2:
                for other in targets:
                    _relate(weights, covers, other, HINT_WEIGHT * weights[term], {term})


def _add_phrases(query: str, weights: dict[str, float], covers: dict[str, set[str]], table: SynonymTable) -> None:
    """The words each phrase of the query stands for, covering the phrase's own words."""
    stems = [stem(w) for w in words(query)]
    for phrase, targets in table.phrases.items():
        if phrase[0] in stems and _contains(stems, phrase):
            for other in targets:
                _relate(weights, covers, other, HINT_WEIGHT, {t for t in phrase if covers.get(t) == {t}})


def _add_named(query: str, weights: dict[str, float], covers: dict[str, set[str]], concepts: ConceptHints) -> set[str]:
    """The kinds of the things the query names ("shiba inu" -> dog), covering the names' words.

    Returns the stems of the names; a place's name adds no words (the index reads it as a place slot).
    """
    named: set[str] = set()
    for sources, means in concepts.named(query):
        own = {t for t in sources if covers.get(t) == {t}}
        base = max((weights[t] for t in own), default=TAIL_WEIGHT)
        named.update(sources)
        for other in means:
            if other != PLACE:
                _relate(weights, covers, other, NAMED_WEIGHT * base, own)
    return named


def _add_hypernyms(
    query: str, weights: dict[str, float], covers: dict[str, set[str]], table: SynonymTable, concepts: ConceptHints,
    named: set[str],
) -> None:
    """The more general words of the user's common nouns the catalog hardly knows, with their synonyms.

    Words the user capitalises past the first are names, no kind of thing; words the table or a
    named thing already explains keep that meaning.
    """
    parts = [w.strip("?,.!:;\"()") for w in query.split()]
    for word in (w.lower() for i, w in enumerate(parts) if w.isalpha() and (i == 0 or not w[0].isupper())):
        own = [t for t in terms(word) if t not in named and covers.get(t) == {t} and t not in table.related]
        for term in own:
            for other, share in concepts.hypernyms(word, table.related):
                _relate(weights, covers, other, share * weights[term], {term})
                for mate in table.mates.get(other, ()):
                    _relate(weights, covers, mate, SYNONYM_WEIGHT * share * weights[term], {term})


def _related_weight(table: SynonymTable, term: str, other: str) -> float:
    if other in table.hints.get(term, ()):
        return HINT_WEIGHT
    return SYNONYM_WEIGHT if other in table.mates.get(term, ()) else REACHED_WEIGHT


def _relate(weights: dict[str, float], covers: dict[str, set[str]], other: str, weight: float, sources: set[str]) -> None:
    """Add ``other`` as standing for ``sources``, unless the user said it themselves."""
    if covers.get(other) == {other}:
        return
    weights[other] = max(weight, weights.get(other, 0.0))
    covers.setdefault(other, set()).update(sources)


def _contains(stems: list[str], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return any(tuple(stems[i:i + n]) == phrase for i in range(len(stems) - n + 1))
