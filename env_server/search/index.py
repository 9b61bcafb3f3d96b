"""``ToolSearchIndex``: BM25F over a tool's fields, synonyms, and what the query asks and holds.

Each tool is cut into weighted fields (``env_server.search.fields``), the query into weighted
stems with their related words (``env_server.search.query``). A tool's BM25F score is then
scaled by:

- coverage: the share of the user's words the tool covers, by the word itself or a related
  one, anywhere in its text (its result field names included); a tool that takes a free-text
  keyword covers the subject words ("news articles about climate change") whatever they are;
- naming: a tool whose name matches only the subject, not what is asked ("trailers for the new
  Dune movie" -> a movie database), counts less; a service the query names ("on YouTube")
  counts more (``services``);
- intent: a question favours reads, a request its verb's operation (``intent``);
- ids: a tool that needs an id first counts less, unless the query holds one ("order 12345",
  "by its hash"), and then more;
- slots: a query that names a place, or holds a URL, domain, IP, email, phone number, date,
  picture or piece of text, favours tools that take one (``slots``);
- groups: tools whose category and family match the query well as a whole.

The index is inverted: each term keeps the tools it occurs in with their precomputed weight,
so a query touches only the postings of its own terms.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from env_server.catalog.models import Operation, ToolSpec
from env_server.search.concepts import ConceptHints
from env_server.search.fields import FIELDS, move_provider_words, needs_id, takes_keyword, tool_fields, vocabulary_of
from env_server.search.intent import Intent, classify, factor
from env_server.search.query import DATE, QueryTerms, query_terms
from env_server.search.services import named_services, service_names
from env_server.search.slots import Slot, query_slots, tool_slots
from env_server.search.synonyms import synonym_table

K1 = 1.2
# Score * (COVER_FLOOR + (1 - COVER_FLOOR) * the weighted share of the user's words covered).
COVER_FLOOR = 0.3
# Needing an id the query does not hold (or holding the one it needs).
ID_FIRST_FACTOR, ID_HELD_FACTOR = 0.85, 1.25
_ID_VALUE = re.compile(r"\b(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{5,}\b|\b0x[0-9a-fA-F]+")
_ID_HELD = re.compile(
    r"\b(?:its|this|that|my|the)\s+(?:\w+\s+)?(?:id|hash|number|code|uuid|vin|isbn|doi|key|sku)\b", re.IGNORECASE
)
# Taking (or not taking) a kind of value the query holds.
SLOT_FIT = {slot: 1.2 if slot is Slot.PLACE else 1.25 for slot in Slot}
SLOT_MISS = dict.fromkeys(Slot, 0.85)
# A tool listing a service's own vocabulary, when the query does not name what it lists.
VOCABULARY_FACTOR = 0.8
# Tools whose category (family) matches the query well as a whole are favoured by up to this share.
CATEGORY_BOOST, FAMILY_BOOST = 1.0, 0.3
GROUP_TOP = 3
# Only this many best tools go on to the group step; the rest cannot reach the top anyway.
CANDIDATES = 100
# A tool whose name matches only what the query is about, not what it asks for.
SUBJECT_NAME_FACTOR = 0.9
# A service the user names ("trending videos on YouTube") is the one they want.
NAMED_SERVICE_FACTOR = 1.5


@dataclass(frozen=True)
class _QueryContext:
    """What a query asks for beyond its words, computed once per query."""

    scale: dict[Operation, float]      # operation -> intent factor
    id_factor: float                   # for a tool that needs an id first
    fit: dict[frozenset[Slot], float]  # the slots a tool takes -> slot factor
    own: frozenset[str]                # the user's own stems
    about: frozenset[str]              # stems standing only for the subject ("for the new Dune movie")
    asked: frozenset[str]              # every other stem of the query


@dataclass(frozen=True)
class SearchHit:
    name: str
    score: float


class ToolSearchIndex:
    def __init__(self, tools: list[ToolSpec]) -> None:
        self._names = [spec.name for spec in tools]
        self._operations = [spec.profile.operation for spec in tools]
        self._categories = [spec.category for spec in tools]
        self._families = [spec.family for spec in tools]
        self._service_names = service_names(tools)
        self._needs_id = [needs_id(spec) for spec in tools]
        self._takes = [tool_slots(spec) for spec in tools]
        self._vocabulary = [vocabulary_of(spec) for spec in tools]
        self._keyword = [takes_keyword(spec) for spec in tools]
        self._slot_kinds = set(self._takes)
        self.categories: dict[str, str] = {c.lower(): c for c in sorted(set(self._categories))}
        docs = [tool_fields(spec) for spec in tools]
        self._name_terms = [frozenset(doc["name"]) for doc in docs]
        move_provider_words(self._families, docs)
        self._postings = _postings(docs)
        self._synonyms = synonym_table()
        self._concepts = ConceptHints({term: len(p) for term, p in self._postings.items()}, len(tools))
        # (intent, wanted operation) -> operation -> score factor, for every intent a query can have.
        self._scales = {
            (intent, wanted): {op: factor(intent, wanted, op) for op in Operation}
            for intent in Intent for wanted in (None, *Operation)
        }

    def search(
        self, query: str, limit: int = 10, allowed: frozenset[str] | None = None, category: str | None = None
    ) -> list[SearchHit]:
        """The best ``limit`` tools for ``query``, among ``allowed`` names and in ``category`` if given."""
        keep = None
        if allowed is not None or category is not None:
            keep = {
                doc for doc, name in enumerate(self._names)
                if (allowed is None or name in allowed) and (category is None or self._categories[doc] == category)
            }
        final = self._rank(query, self.query_terms(query), keep)
        best = heapq.nsmallest(limit, ((-score, self._names[doc]) for doc, score in final.items()))
        return [SearchHit(name, round(-neg, 4)) for neg, name in best]

    def query_terms(self, query: str) -> QueryTerms:
        """The query's weighted stems and the user's words each covers."""
        return query_terms(query, self._synonyms, self._concepts)

    def query_weights(self, query: str) -> dict[str, float]:
        """Query stems with their weights: the user's words and their related words."""
        return self.query_terms(query).weights

    def _rank(self, query: str, plan: QueryTerms, keep: set[int] | None) -> dict[int, float]:
        bits = {term: 1 << i for i, term in enumerate(plan.own)}
        scores, covered = self._match(plan, bits, keep)
        cover = self._cover_factors(plan, bits, covered)
        asks = self._query_context(query, plan)
        final = {doc: score * cover[doc] * self._tool_factor(doc, asks) for doc, score in scores.items()}
        if len(final) > CANDIDATES:
            final = dict(heapq.nlargest(CANDIDATES, final.items(), key=lambda item: item[1]))
        named = named_services(query, self._service_names)
        for doc in final:
            if self._families[doc] in named:
                final[doc] *= NAMED_SERVICE_FACTOR
        _favour_groups(final, self._categories, CATEGORY_BOOST)
        _favour_groups(final, self._families, FAMILY_BOOST)
        return final

    def _cover_factors(self, plan: QueryTerms, bits: dict[str, int], covered: dict[int, int]) -> dict[int, float]:
        """Each matching tool's coverage factor: the weighted share of the user's words it covers."""
        own = plan.own
        total = sum(plan.weights[t] for t in own) or 1.0
        subject = sum(bits[t] for t in plan.subject if t in bits)
        masks = {doc: mask | subject if self._keyword[doc] else mask for doc, mask in covered.items()}
        share = {m: sum(plan.weights[t] for t in own if m & bits[t]) / total for m in set(masks.values())}
        return {doc: COVER_FLOOR + (1 - COVER_FLOOR) * share[mask] for doc, mask in masks.items()}

    def _query_context(self, query: str, plan: QueryTerms) -> _QueryContext:
        """What the query asks beyond its words: intent, a held id, the values it holds, its subject."""
        held = bool(_ID_VALUE.search(DATE.sub(" ", query)) or _ID_HELD.search(query))
        slots = query_slots(query) | ({Slot.PLACE} if plan.names_place else set())
        return _QueryContext(
            scale=self._scales[classify(query)],
            id_factor=ID_HELD_FACTOR if held else ID_FIRST_FACTOR,
            fit={takes: _slot_factor(slots, takes) for takes in self._slot_kinds},
            own=frozenset(plan.own),
            about=plan.about,
            asked=frozenset(plan.weights.keys() - plan.about),
        )

    def _tool_factor(self, doc: int, asks: _QueryContext) -> float:
        """How well the tool's operation, inputs and name fit what the query asks, as one factor."""
        result = asks.scale[self._operations[doc]] * asks.fit[self._takes[doc]]
        if self._needs_id[doc]:
            result *= asks.id_factor
        if self._vocabulary[doc] is not None and self._vocabulary[doc] not in asks.own:
            result *= VOCABULARY_FACTOR
        name = self._name_terms[doc]
        if name & asks.about and not name & asks.asked:
            result *= SUBJECT_NAME_FACTOR
        return result

    def _match(
        self, plan: QueryTerms, bits: dict[str, int], keep: set[int] | None
    ) -> tuple[dict[int, float], dict[int, int]]:
        """Each matching tool's BM25F score, and the user's words it covers as a bit mask."""
        scores: dict[int, float] = defaultdict(float)
        covered: dict[int, int] = defaultdict(int)
        for term, weight in plan.weights.items():
            mask = 0
            for source in plan.covers.get(term, ()):
                mask |= bits.get(source, 0)
            for doc, value in self._postings.get(term, ()):
                if keep is None or doc in keep:
                    scores[doc] += weight * value
                    covered[doc] |= mask
        return scores, covered


def _slot_factor(slots: frozenset[Slot], takes: frozenset[Slot]) -> float:
    result = 1.0
    for slot in slots:
        result *= SLOT_FIT[slot] if slot in takes else SLOT_MISS[slot]
    return result


def _favour_groups(scores: dict[int, float], group_of: list[str], boost: float) -> None:
    """Scale each score by how well its group (mean of the group's best GROUP_TOP) matches, in place."""
    if not boost or not scores:
        return
    strength: dict[str, float] = defaultdict(float)
    taken: Counter[str] = Counter()
    for doc in sorted(scores, key=scores.__getitem__, reverse=True):
        group = group_of[doc]
        if taken[group] < GROUP_TOP:
            taken[group] += 1
            strength[group] += scores[doc] / GROUP_TOP
    top = max(strength.values()) or 1.0
    for doc in scores:
        scores[doc] *= 1 + boost * strength[group_of[doc]] / top


def _postings(docs: list[dict[str, list[str]]]) -> dict[str, list[tuple[int, float]]]:
    """Term -> [(doc, BM25F weight)], from the weighted, length-normalised field frequencies.

    A term found only in a zero-weight field is posted with weight 0: it adds nothing to the
    score, but the tool covers the query word.
    """
    n = len(docs) or 1
    avg = {f: (sum(len(d[f]) for d in docs) / n) or 1.0 for f in FIELDS}
    df: Counter[str] = Counter()
    blended: list[dict[str, float]] = []
    for doc in docs:
        tf: dict[str, float] = defaultdict(float)
        for field, (weight, b) in FIELDS.items():
            norm = 1 - b + b * len(doc[field]) / avg[field]
            for term, count in Counter(doc[field]).items():
                tf[term] += weight * count / norm
        df.update(tf.keys())
        blended.append(tf)
    postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for i, tf in enumerate(blended):
        for term, value in tf.items():
            idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
            postings[term].append((i, idf * value * (K1 + 1) / (value + K1)))
    return dict(postings)
