"""Path engine: the doc 4.1 cases as fixtures, and equality with a literal brute-force enumerator."""

from __future__ import annotations

import itertools
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from env_server.scoring.models import ScoringError
from env_server.scoring.paths import PathCursor, PathEngine

CASES = json.loads((Path(__file__).parent / "fixtures" / "path_cases.json").read_text())


def _steps(raw: list[list[int]]) -> list[tuple[int, ...]]:
    return [tuple(s) for s in raw]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_path_engine_reproduces_documented_case(case: dict[str, Any]) -> None:
    engine = PathEngine(case["names"], case["deps"])
    paths = list(engine.iter_paths())
    if "paths" in case:
        assert paths == [_steps(p) for p in case["paths"]]
    if "path_count" in case:
        assert len(paths) == case["path_count"]
    for p in case.get("contains_paths", []):
        assert _steps(p) in paths
    for p in case.get("absent_paths", []):
        assert _steps(p) not in paths
    for step in case.get("absent_first_steps", []):
        assert all(path[0] != tuple(step) for path in paths)
    assert engine.min_length == case["min_length"] == min(len(p) for p in paths)
    if "first_optimal" in case:
        assert engine.first_optimal_path() == _steps(case["first_optimal"])
    if "first_match" in case:
        move = PathCursor(engine).match_calls(case["first_match"]["names"])
        assert move is not None and move.step == tuple(case["first_match"]["step"])


def test_cyclic_dependencies_are_rejected() -> None:
    with pytest.raises(ScoringError, match="cycle"):
        PathEngine(["A", "B"], [[1], [0]])


# -- a literal, eager transcription of doc 4.1, written independently of the engine ---------------


def brute_force_paths(names: list[str], deps: list[list[int]]) -> list[list[tuple[int, ...]]]:
    n = len(names)
    succ: list[list[int]] = [[] for _ in range(n)]
    indeg = [0] * n
    for i, ds in enumerate(deps):
        for d in ds:
            succ[d].append(i)
            indeg[i] += 1
    out: list[list[tuple[int, ...]]] = []

    def rec(indeg: list[int], visited: set[int], path: list[tuple[int, ...]]) -> None:
        if len(visited) == n:
            out.append(list(path))
            return
        zero = [i for i in range(n) if i not in visited and indeg[i] == 0]
        forbidden: list[tuple[int, ...]] = []
        allowed: list[tuple[int, ...]] = []
        k = 0
        while k < len(zero):
            j = k
            while j + 1 < len(zero) and names[zero[j + 1]] == names[zero[k]]:
                j += 1
            run = tuple(zero[k : j + 1])
            if len(run) > 1:
                allowed.append(run)
                for size in range(1, len(run)):
                    forbidden.extend(itertools.combinations(run, size))
            k = j + 1
        combos = [c for size in range(1, len(zero) + 1) for c in itertools.combinations(zero, size)]
        seen: set[str] = set()
        deduped = []
        for c in combos:
            key = "\x00".join(names[i] for i in c)
            if key not in seen:
                seen.add(key)
                deduped.append(c)
        for c in deduped:
            if len(c) > 1:
                prefixes = [c[:i] for i in range(1, len(c) + 1)]
                if any(p in forbidden for p in prefixes) and not any(p in allowed for p in prefixes):
                    continue
            block = next((b for b in allowed if len(c) == 1 and b[0] == c[0]), None)
            chosen = block or c
            new_steps = [(i,) for i in block] if block else [c]
            new_indeg = list(indeg)
            for i in chosen:
                for s in succ[i]:
                    new_indeg[s] -= 1
            rec(new_indeg, visited | set(chosen), path + new_steps)

    rec(indeg, set(), [])
    return out


def _distinct(steps: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    return list(dict.fromkeys(steps))


@st.composite
def dags(draw: st.DrawFn) -> tuple[list[str], list[list[int]]]:
    n = draw(st.integers(1, 7))
    alphabet = draw(st.sampled_from(["XY", "XYZ", "XYZW"]))
    names = [draw(st.sampled_from(alphabet)) for _ in range(n)]
    order = draw(st.permutations(range(n)))  # a random topological order, so edges point both ways by index
    deps: list[list[int]] = [[] for _ in range(n)]
    for a in range(n):
        for b in range(a + 1, n):
            if draw(st.booleans()) and draw(st.booleans()):
                deps[order[b]].append(order[a])
    return names, deps


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dag=dags(), seed=st.integers(0, 2**16))
def test_lazy_engine_equals_brute_force_enumeration(dag: tuple[list[str], list[list[int]]], seed: int) -> None:
    names, deps = dag
    expected = brute_force_paths(names, deps)
    engine = PathEngine(names, deps)
    assert list(engine.iter_paths()) == expected
    best = min(len(p) for p in expected)
    assert engine.min_length == best
    assert engine.first_optimal_path() == next(p for p in expected if len(p) == best)
    # Walk the pruned path set: candidates must appear in the same first-occurrence order, both
    # after pruning on a matched step and after an unpruned (ask-text) step.
    rng = random.Random(seed)
    remaining, cursor, s = expected, PathCursor(engine), 0
    while True:
        brute = _distinct([p[s] for p in remaining if len(p) > s])
        lazy = _distinct([m.step for m in cursor.candidates()])
        assert lazy == brute
        if not brute:
            break
        if rng.random() < 0.25:
            cursor.advance_unpruned()
        else:
            chosen = rng.choice(brute)
            first = cursor.match_calls([names[i] for i in chosen])
            wanted = sorted(names[i] for i in chosen)
            assert first is not None and first.step == next(c for c in brute if sorted(names[i] for i in c) == wanted)
            remaining = [p for p in remaining if len(p) > s and p[s] == first.step]
            cursor.advance_pruned(first.step)
        s += 1


def test_ten_independent_nodes_are_scored_without_enumeration() -> None:
    names = [f"tool{i}" for i in range(10)] + ["prepare_to_answer"]
    deps: list[list[int]] = [[] for _ in range(10)] + [list(range(10))]
    start = time.perf_counter()
    engine = PathEngine(names, deps)
    cursor = PathCursor(engine)
    move = cursor.match_calls(names[:10])
    cursor.advance_pruned(move.step if move else ())
    text = cursor.match_text()
    elapsed = time.perf_counter() - start
    print(f"\n10 independent nodes: min_length + parallel match + answer in {elapsed * 1000:.2f} ms")
    assert engine.min_length == 2
    assert move is not None and move.step == tuple(range(10))
    assert text is not None and text.step == (10,)
