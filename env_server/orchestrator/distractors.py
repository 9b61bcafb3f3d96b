"""Distractor tools (Hybrid-N, as in UniToolCall): N catalog tools added to a session's list.

The choice is deterministic given the seed. Candidates come in three tiers, each taken in
full before the next: *similar* tools (same API family, or a name close to a scenario tool's),
ordered by name similarity; then tools of a scenario tool's *category*; then the rest. Ties and
the last two tiers are ordered by a ``random.Random(seed)`` shuffle. A distractor never shares
an exposed name, a catalog name or a base signature with a scenario tool.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Mapping

from env_server.catalog import Catalog
from env_server.catalog.models import ToolSpec

SIMILAR_NAME_RATIO = 0.6


def _base(name: str) -> str:
    return name.split("__", 1)[0]


def pick_distractors(catalog: Catalog, tools: Mapping[str, ToolSpec], n: int, seed: int) -> list[str]:
    """``n`` catalog names (fewer if the catalog runs out) for a session offering ``tools``."""
    if n <= 0:
        return []
    taken = set(tools) | {t.name for t in tools.values()}
    families = {t.family for t in tools.values()}
    categories = {t.category for t in tools.values()}
    rng = random.Random(seed)
    matchers = _name_matchers(sorted(taken))
    ranked: list[tuple[int, float, float, str]] = []
    for spec in _candidates(catalog, tools, taken):
        ratio = max(_similarity(matcher, spec.name) for matcher in matchers)
        if spec.family in families or ratio >= SIMILAR_NAME_RATIO:
            tier = 0
        elif spec.category in categories:
            tier = 1
        else:
            tier = 2
        ranked.append((tier, -ratio if tier == 0 else 0.0, rng.random(), spec.name))
    ranked.sort()
    return [name for *_, name in ranked[:n]]


def _candidates(catalog: Catalog, tools: Mapping[str, ToolSpec], taken: set[str]) -> list[ToolSpec]:
    """Catalog tools sharing no exposed name, catalog name or base signature with ``tools``."""
    bases = {_base(name) for name in taken} | {t.base_name for t in tools.values() if t.base_name}
    return [
        spec for key, spec in sorted(catalog.tools.items())
        if key not in taken and _base(key) not in bases and (spec.base_name or "") not in bases
    ]


def _name_matchers(names: list[str]) -> list[difflib.SequenceMatcher[str]]:
    """One matcher per scenario name; seq2 is the one SequenceMatcher caches, so it holds that name."""
    matchers = []
    for other in names:
        matcher = difflib.SequenceMatcher(None)
        matcher.set_seq2(other)
        matchers.append(matcher)
    return matchers


def _similarity(matcher: difflib.SequenceMatcher[str], name: str) -> float:
    """The name ratio when it can reach the threshold, else 0 (the cheap bounds say it cannot)."""
    matcher.set_seq1(name)
    if matcher.real_quick_ratio() < SIMILAR_NAME_RATIO or matcher.quick_ratio() < SIMILAR_NAME_RATIO:
        return 0.0
    return matcher.ratio()
