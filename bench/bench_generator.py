"""What the scenario generator reaches over many seeds, and what a fresh seed costs.

Generates ``--seeds`` scenarios (seeds ``--start`` ...) with default settings in one process
and prints:

* distinct families with a gold call, and distinct family pairs: families that share a
  session, and *anchored* pairs (a gold argument of family B is a ``$ref`` into a result
  of family A, A != B);
* task-type and subtype shares, next to WildToolBench's (1,024 tasks: a quarter each of
  Single-Tool, Clarify, Chat and multi-tool; subtypes from its S2 run);
* generation time per scenario (``generate_scenario``: compose, run the gold calls, load
  the spec), median / p90 / p99, as wall time and as process CPU time. Before measuring,
  30 seeds from a disjoint range warm the process (catalog, reference data, one scenario
  per family), so every measured seed is a fresh one. This 2-core VM is shared: when the
  load average is high, wall time inflates and CPU time is the steadier figure; the last
  line says how much a pure-Python loop is slowed down at that moment.

Run: ``python bench/bench_generator.py [--seeds 1000] [--start 0]``.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from env_server.catalog import Catalog, load_catalog  # noqa: E402  # after the path insert
from env_server.generator import generate_native  # noqa: E402
from env_server.orchestrator.models import PREPARE  # noqa: E402
from env_server.orchestrator.native import NativeScenarioFile, to_scenario_spec  # noqa: E402

WARMUP_FROM = 10**6
WILD_TYPES = {"Single-Tool": 0.25, "Clarify": 0.25, "Chat": 0.25, "Parallel Multi-Tool": 0.153,
              "Sequential Multi-Tool": 0.016, "Mixed Multi-Tool": 0.082}
WILD_SUBTYPES = {"Coreferential Reference": 0.451, "Partial Information": 0.312, "Long-Range Dependency": 0.232}
_REF = re.compile(r'"\$ref": "(?:(\d+)\.)?(\d+):')


def families_of(native: NativeScenarioFile, catalog: Catalog) -> list[str]:
    found = {catalog.tools[n.action].family for t in native.tasks for n in t.nodes if n.action in catalog.tools}
    return sorted(found)


def anchored_pairs(native: NativeScenarioFile, catalog: Catalog) -> set[tuple[str, str]]:
    """(giver, taker) families where a gold argument refers to another family's result."""
    out = set()
    for t, task in enumerate(native.tasks):
        for node in task.nodes:
            if node.action not in catalog.tools:
                continue
            for ref_task, ref_node in _REF.findall(json.dumps(node.arguments)):
                source = native.tasks[int(ref_task) if ref_task else t].nodes[int(ref_node)].action
                giver, taker = catalog.tools[source].family, catalog.tools[node.action].family
                if giver != taker:
                    out.add((giver, taker))
    return out


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def contention() -> float:
    """Wall time over CPU time of a pure-Python loop: 1.0 on an idle core, higher when the VM is shared."""
    ratios = []
    for _ in range(50):
        wall, cpu = time.perf_counter(), time.process_time()
        total = 0
        for i in range(60_000):
            total += i * i
        ratios.append((time.perf_counter() - wall) / max(time.process_time() - cpu, 1e-9))
    return statistics.median(ratios)


def _shares(counts: Counter[str], reference: dict[str, float]) -> str:
    total = sum(counts.values())
    return "\n".join(f"  {name:24s} {counts[name] / total:6.1%}   (WildToolBench {share:5.1%})"
                     for name, share in reference.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000, help="How many seeds to generate.")
    parser.add_argument("--start", type=int, default=0, help="First seed.")
    args = parser.parse_args()
    catalog = load_catalog()
    for seed in range(WARMUP_FROM, WARMUP_FROM + 30):
        generate_native(seed, catalog=catalog)
    wall: list[float] = []
    cpu: list[float] = []
    families: Counter[str] = Counter()
    pairs: set[tuple[str, str]] = set()
    anchored: set[tuple[str, str]] = set()
    per_session: Counter[int] = Counter()
    types: Counter[str] = Counter()
    subtypes: Counter[str] = Counter()
    for seed in range(args.start, args.start + args.seeds):
        w, c = time.perf_counter(), time.process_time()
        native = generate_native(seed, catalog=catalog)
        to_scenario_spec(native, origin="bench")
        wall.append((time.perf_counter() - w) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        used = families_of(native, catalog)
        families.update(used)
        per_session[len(used)] += 1
        pairs |= {(a, b) for a in used for b in used if a < b}
        anchored |= anchored_pairs(native, catalog)
        for k, task in enumerate(native.tasks):
            types[task.type.value] += 1
            if k:
                subtypes[task.subtype.value if task.subtype else "-"] += 1
            assert task.nodes[-1].action == PREPARE
    n = args.seeds
    print(f"{n} seeds from {args.start}")
    print(f"distinct families: {len(families)}")
    print(f"distinct family pairs in a session: {len(pairs)}; anchored (giver -> taker): {len(anchored)}")
    print("families per session: " + ", ".join(f"{k}: {v / n:.0%}" for k, v in sorted(per_session.items())))
    print("task types:\n" + _shares(types, WILD_TYPES))
    print("subtypes (tasks 1-3):\n" + _shares(subtypes, WILD_SUBTYPES))
    print(f"contention: a pure-Python loop runs at {contention():.1f}x its CPU time right now")
    for label, values in (("wall", wall), ("cpu", cpu)):
        print(f"generation {label} ms: median {statistics.median(values):.1f}  p90 {_percentile(values, 0.9):.1f}  "
              f"p99 {_percentile(values, 0.99):.1f}  max {max(values):.1f}")


if __name__ == "__main__":
    main()
