"""A category prior learned from the catalog: which categories a query's words speak for.

A multinomial naive Bayes model over the catalog's own tool texts (each tool's name,
description, category, parameter names and parameter texts, filed under its category) gives
P(category | query words). It is trained on the tools alone, never on labelled needs, so it
knows that "vacancy" and "salary" live in Jobs and "wallet" in Cryptocurrency or Blockchain
however few tools say either word. The index blends the posterior into each tool's score.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict

# Add-alpha smoothing of each category's word distribution.
ALPHA = 0.02
# The fields of a tool that say what it is about (its result field names do not).
_FIELDS = ("name", "description", "category", "params", "param_text")


class CategoryModel:
    """P(category | words) from word counts per category, with add-alpha smoothing."""

    def __init__(self, categories: list[str], docs: list[dict[str, list[str]]]) -> None:
        counts: dict[str, Counter[str]] = defaultdict(Counter)
        tools: Counter[str] = Counter(categories)
        for category, doc in zip(categories, docs, strict=True):
            for field in _FIELDS:
                counts[category].update(doc[field])
        self.categories = sorted(counts)
        vocabulary = {w for c in counts.values() for w in c}
        size = len(vocabulary) or 1
        total_tools = sum(tools.values()) or 1
        self._log_prior = {c: math.log(tools[c] / total_tools) for c in self.categories}
        # word -> [(category, log P(word | category))] for the categories that use it; the rest
        # share their category's floor (ALPHA over the category's smoothed total).
        self._floor = {c: math.log(ALPHA / (sum(counts[c].values()) + ALPHA * size)) for c in self.categories}
        self._log_likely: dict[str, dict[str, float]] = defaultdict(dict)
        for c in self.categories:
            denominator = sum(counts[c].values()) + ALPHA * size
            for word, count in counts[c].items():
                self._log_likely[word][c] = math.log((count + ALPHA) / denominator)

    def posterior(self, weights: dict[str, float]) -> dict[str, float]:
        """P(category | the weighted words); words the catalog never uses say nothing."""
        known = {w: x for w, x in weights.items() if w in self._log_likely}
        if not known:
            return {}
        scores = {}
        for c in self.categories:
            score = self._log_prior[c]
            for word, weight in known.items():
                score += weight * self._log_likely[word].get(c, self._floor[c])
            scores[c] = score
        top = max(scores.values())
        exp = {c: math.exp(s - top) for c, s in scores.items()}
        total = sum(exp.values())
        return {c: v / total for c, v in exp.items()}
