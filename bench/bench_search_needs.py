"""search_tools (lexical) on the labelled needs: top-1 / top-5 by part and by even / odd position, and speed.

Tuning looks at the even-positioned needs of the first 512 only; the odd-positioned ones, and the
batches written after, say whether a change generalizes. Prints a markdown table and the CPU time
to build the index and to answer a query (the first pass reads WordNet on first use):

    python bench/bench_search_needs.py            # the table
    python bench/bench_search_needs.py --misses   # and the even needs whose top hit is not acceptable
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from env_server.catalog import load_catalog
from env_server.search import ToolSearchIndex

NEEDS = json.loads((Path(__file__).resolve().parents[1] / "tests/env_server/fixtures/search_needs.json").read_text())
# The needs that were there when issue 18 item 5 began; even and odd positions split these.
FIRST = 512


def _rates(index: ToolSearchIndex, needs: list[dict]) -> tuple[float, float]:
    top1 = top5 = 0
    for need in needs:
        ranked = [hit.name for hit in index.search(need["need"], 5)]
        accept = set(need["accept"])
        top1 += bool(ranked) and ranked[0] in accept
        top5 += bool(accept & set(ranked))
    return top1 / len(needs), top5 / len(needs)


def main() -> None:
    needs = NEEDS["needs"]
    tools = list(load_catalog().tools.values())
    started = time.process_time()
    index = ToolSearchIndex(tools)
    build = time.process_time() - started
    started = time.process_time()
    for need in needs:
        index.search(need["need"], 10)
    first = (time.process_time() - started) / len(needs)
    seconds = []
    for need in needs:
        started = time.process_time()
        index.search(need["need"], 10)
        seconds.append(time.process_time() - started)
    parts: dict[str, list[dict]] = {
        "all": needs, f"first {FIRST}, even (tuned on)": needs[:FIRST:2], f"first {FIRST}, odd": needs[1:FIRST:2],
    }
    for need in needs:
        parts.setdefault(need.get("part", "earlier 230"), []).append(need)
    print("| needs | n | top-1 | top-5 |\n|---|---|---|---|")
    for name, group in parts.items():
        top1, top5 = _rates(index, group)
        print(f"| {name} | {len(group)} | {top1:.1%} | {top5:.1%} |")
    ms = sorted(s * 1000 for s in seconds)
    print(f"\nindex of {len(tools)} tools built in {build * 1000:.0f} ms CPU; first pass {first * 1000:.2f} ms a query, "
          f"then median {statistics.median(ms):.2f} ms, p95 {ms[int(len(ms) * 0.95)]:.2f} ms")
    if "--misses" in sys.argv:
        for need in needs[:FIRST:2]:
            ranked = [hit.name for hit in index.search(need["need"], 5)]
            if not ranked or ranked[0] not in need["accept"]:
                print(f"{'top-5' if set(ranked) & set(need['accept']) else 'miss '} | {need['need']} | {ranked[:3]}")


if __name__ == "__main__":
    main()
