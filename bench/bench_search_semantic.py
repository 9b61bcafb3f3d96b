"""search_tools rankings on the labelled needs: lexical, MiniLM alone, and the hybrid (README, "Hybrid ranking").

Needs the `semantic` extra. Prints top-1 / top-5 on all needs and on the fifth batch (held out 3), the time
to embed the catalog and the time per query:

    python bench/bench_search_semantic.py
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from env_server.catalog import load_catalog
from env_server.search import search_index_for
from env_server.search.semantic import HybridSearchIndex

NEEDS = json.loads((Path(__file__).resolve().parents[1] / "tests/env_server/fixtures/search_needs.json").read_text())


class _EmbeddingOnly:
    """The hybrid index's embedding ranking on its own."""

    def __init__(self, hybrid: HybridSearchIndex) -> None:
        self._hybrid = hybrid

    def search(self, query: str, limit: int) -> list[str]:
        return self._hybrid._embedding_ranking(query, None, None)[:limit]


def _rates(search, needs: list[dict]) -> tuple[float, float, list[float]]:
    top1 = top5 = 0
    seconds = []
    for need in needs:
        started = time.perf_counter()
        ranked = search(need["need"])
        seconds.append(time.perf_counter() - started)
        accept = set(need["accept"])
        top1 += bool(ranked) and ranked[0] in accept
        top5 += bool(accept & set(ranked))
    return top1 / len(needs), top5 / len(needs), seconds


def main() -> None:
    catalog = load_catalog()
    lexical = search_index_for(catalog)
    started = time.perf_counter()
    hybrid = HybridSearchIndex(list(catalog.tools.values()), lexical)
    print(f"embedded {len(catalog.tools)} tools in {time.perf_counter() - started:.1f} s")
    embedding = _EmbeddingOnly(hybrid)
    rankings = {
        "lexical": lambda q: [h.name for h in lexical.search(q, 5)],
        "MiniLM alone": lambda q: embedding.search(q, 5),
        "hybrid (RRF)": lambda q: [h.name for h in hybrid.search(q, 5)],
    }
    needs = NEEDS["needs"]
    held = [n for n in needs if n.get("part") == "held out 3"]
    print("| ranking | all top-1 | all top-5 | held out 3 top-1 | held out 3 top-5 | ms a query (median, p95) |")
    for name, search in rankings.items():
        top1, top5, seconds = _rates(search, needs)
        held1, held5, _ = _rates(search, held)
        ms = sorted(s * 1000 for s in seconds)
        print(f"| {name} | {top1:.1%} | {top5:.1%} | {held1:.1%} | {held5:.1%} | "
              f"{statistics.median(ms):.1f}, {ms[int(len(ms) * 0.95)]:.1f} |")


if __name__ == "__main__":
    main()
