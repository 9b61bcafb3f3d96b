"""``ToolSearchIndex``: BM25F over a tool's fields, synonyms, and the query's intent.

Each tool is cut into five fields, weighted by how well they say what the tool does: its name
(without the provider prefix), description, category, parameter names and, weakest, its
provider. A provider name alone ("tomorrow" in ``tomorrow_io_*``) is thin evidence, so a
tool that matches only there ranks below tools whose name or description matches. Query
words also look for their synonyms at a lower weight, and the result is scaled by whether the
query asks a question (reads first) or makes a request (its verb's write first).

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
from env_server.search.intent import Intent, classify, factor, topic
from env_server.search.synonyms import related_terms
from env_server.search.text import split_head, terms

# Field -> (weight, length normalisation b).
FIELDS: dict[str, tuple[float, float]] = {
    "name": (3.0, 0.3),
    "description": (1.0, 0.75),
    "category": (1.0, 0.0),
    "params": (0.5, 0.5),
    "provider": (0.4, 0.0),
}
K1 = 1.2
SYNONYM_WEIGHT = 0.5
# Words after the first "of", "for", "in" ... name the thing asked about, not the kind of tool:
# "icons of a shopping cart" wants icons. They count, at this weight.
TAIL_WEIGHT = 0.7
# Verbs every kind of tool has in its name; the query's intent speaks to them, not its topic.
_NAME_VERBS = frozenset(terms("get list search find create update delete add remove lookup fetch query read"))
# A written date asks for a tool that takes one ("rates on 2020-01-01").
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b")
_DATE_TERMS = tuple(terms("date historical"))
# An amount of money asks about prices ("headphones under $100").
_MONEY = re.compile(r"[$€£¥]\s?\d|\d\s?[$€£¥]")
_MONEY_TERMS = tuple(terms("price"))
# A read, update or delete keyed by an id is a second step unless the query quotes an id.
_ID_PARAM = re.compile(r"(^|_)(id|ids|uuid|gid|slug)$|[a-z](Id|Ids|Uuid)$")
_ID_VALUE = re.compile(r"\b(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{5,}\b|\b0x[0-9a-fA-F]+")
ID_FIRST_FACTOR = 0.75
# Share of the query's own words a tool matches counts: score * (COORD_FLOOR + (1 - COORD_FLOOR) * share).
COORD_FLOOR = 0.5
# Tools whose category (family) matches the query well as a whole are favoured by up to this share.
CATEGORY_BOOST, FAMILY_BOOST = 1.0, 0.3
GROUP_TOP = 3
# Only this many best tools go on to the group step; the rest cannot reach the top anyway.
CANDIDATES = 100
# A provider word in a description is a provider word when few other families use it.
_DISTINCT_FAMILIES = 3


@dataclass(frozen=True)
class SearchHit:
    name: str
    score: float


def tool_fields(spec: ToolSpec) -> dict[str, list[str]]:
    """The terms of each field of one tool."""
    provider = terms(f"{spec.provider} {spec.family}")
    name = spec.name[len(spec.family) + 1:] if spec.name.startswith(spec.family + "_") else spec.name
    name_terms = [t for t in terms(name) if t not in _NAME_VERBS]
    while name_terms and name_terms[0] in provider and len(name_terms) > 1:
        name_terms = name_terms[1:]
    return {
        "name": name_terms,
        "description": terms(spec.description),
        "category": terms(spec.category),
        "params": terms(" ".join((spec.input_schema.get("properties") or {}).keys())),
        "provider": sorted(set(provider)),
    }


class ToolSearchIndex:
    def __init__(self, tools: list[ToolSpec]) -> None:
        self._names = [spec.name for spec in tools]
        self._operations = [spec.profile.operation for spec in tools]
        self._categories = [spec.category for spec in tools]
        self._needs_id = [_needs_id(spec) for spec in tools]
        self._families = [spec.family for spec in tools]
        self.categories: dict[str, str] = {c.lower(): c for c in sorted(set(self._categories))}
        docs = [tool_fields(spec) for spec in tools]
        _move_provider_words([spec.family for spec in tools], docs)
        self._postings = _postings(docs)
        self._related = related_terms()
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
        weights = self.query_weights(query)
        final = self._rank(query, weights, keep)
        best = heapq.nsmallest(limit, ((-score, self._names[doc]) for doc, score in final.items()))
        return [SearchHit(name, round(-neg, 4)) for neg, name in best]

    def _rank(self, query: str, weights: dict[str, float], keep: set[int] | None) -> dict[int, float]:
        scale = self._scales[classify(query)]
        id_factor = 1.0 if _ID_VALUE.search(_DATE.sub(" ", query)) else ID_FIRST_FACTOR
        scores: dict[int, float] = defaultdict(float)
        matched: dict[int, int] = defaultdict(int)
        own = sum(1 for w in weights.values() if w > SYNONYM_WEIGHT) or 1
        for term, weight in weights.items():
            for doc, value in self._postings.get(term, ()):
                if keep is not None and doc not in keep:
                    continue
                scores[doc] += weight * value
                if weight > SYNONYM_WEIGHT:
                    matched[doc] += 1
        final = {
            doc: score * scale[self._operations[doc]] * (id_factor if self._needs_id[doc] else 1.0)
            * (COORD_FLOOR + (1 - COORD_FLOOR) * matched[doc] / own)
            for doc, score in scores.items()
        }
        if len(final) > CANDIDATES:
            final = dict(heapq.nlargest(CANDIDATES, final.items(), key=lambda item: item[1]))
        _favour_groups(final, self._categories, CATEGORY_BOOST)
        _favour_groups(final, self._families, FAMILY_BOOST)
        return final

    def query_weights(self, query: str) -> dict[str, float]:
        """Query stems with their weights: the user's words (less after "of", "in", "for" ...) and their synonyms."""
        head, tail = split_head(topic(query))
        weights = dict.fromkeys(terms(tail), TAIL_WEIGHT)
        weights.update(dict.fromkeys(terms(head), 1.0))
        related = [other for term in weights for other in self._related.get(term, ())]
        if _DATE.search(query):
            related += _DATE_TERMS
        if _MONEY.search(query):
            related += _MONEY_TERMS
        for other in related:
            weights.setdefault(other, SYNONYM_WEIGHT)
        return weights


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


def _needs_id(spec: ToolSpec) -> bool:
    required = spec.input_schema.get("required") or []
    return spec.profile.operation in (Operation.READ, Operation.UPDATE, Operation.DELETE) and any(
        _ID_PARAM.search(name) for name in required
    )


def _move_provider_words(families: list[str], docs: list[dict[str, list[str]]]) -> None:
    """Count "Tomorrow.io's scale" in a description as the provider, not as "tomorrow"."""
    users: dict[str, set[str]] = defaultdict(set)
    for family, doc in zip(families, docs, strict=True):
        for field in ("name", "description"):
            for term in doc[field]:
                users[term].add(family)
    for doc in docs:
        own = set(doc["provider"])
        moved = [t for t in doc["description"] if t in own and len(users[t]) <= _DISTINCT_FAMILIES]
        if moved:
            doc["description"] = [t for t in doc["description"] if t not in moved]
            doc["provider"] = doc["provider"] + moved


def _postings(docs: list[dict[str, list[str]]]) -> dict[str, list[tuple[int, float]]]:
    """Term -> [(doc, BM25F weight)], from the weighted, length-normalised field frequencies."""
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
