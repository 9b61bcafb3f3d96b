"""The path engine: the step semantics of WildToolBench's path enumeration, computed lazily.

A *path* is a list of steps and a step is a tuple of node indices run together. The legal next
steps depend only on a :class:`PathState` -- the set of nodes already taken (visited) and the
remaining members of a same-name block that is being run serially (pending). The in-degree table
of the reference implementation is implied by the visited set. From a state without a pending
block, the legal moves are (doc 4.1):

1. Z = unvisited nodes whose dependencies are all visited, ascending.
2. Maximal runs of consecutive Z entries with one name form *blocks* when longer than one.
3. All non-empty combinations of Z in ``itertools.combinations`` order (size, then position).
4. Only the first combination of each name sequence (names in combination order) survives.
5. A combination of size > 1 is dropped if one of its prefixes is a proper part of a block and
   none of its prefixes is a whole block.
6. A singleton that starts a block becomes the block, run serially one member per step.

Nothing here enumerates all paths except :meth:`PathEngine.iter_paths`, which exists for small
graphs and tests. ``min_length`` is a search over states; see :meth:`PathEngine.min_steps`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from env_server.scoring.models import ASK, PREPARE, GoldTask, ScoringError

Step = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PathState:
    """Where a partial path stands. ``visited`` already includes every member of a pending block."""

    visited: int = 0
    pending: Step = ()


@dataclass(frozen=True, slots=True)
class Move:
    """One legal step from a state and the state it leads to."""

    step: Step
    after: PathState


@dataclass(frozen=True, slots=True)
class _Frontier:
    """Z and its same-name blocks at one state."""

    zero: Step
    run_of: dict[int, Step] = field(default_factory=dict)  # node -> its block (runs longer than one)


class PathEngine:
    """Legal moves, successors and minimal lengths over one task's dependency DAG."""

    def __init__(self, names: Sequence[str], dependencies: Sequence[Sequence[int]]) -> None:
        if len(names) != len(dependencies):
            raise ScoringError("names and dependencies differ in length")
        self.names: tuple[str, ...] = tuple(names)
        self.size = len(self.names)
        self.full = (1 << self.size) - 1
        preds = []
        for i, deps in enumerate(dependencies):
            mask = 0
            for d in deps:
                if not 0 <= d < self.size or d == i:
                    raise ScoringError(f"node {i}: dependency {d} out of range")
                mask |= 1 << d
            preds.append(mask)
        self._preds: tuple[int, ...] = tuple(preds)
        self._check_acyclic()

    @classmethod
    def from_task(cls, task: GoldTask) -> PathEngine:
        return cls(task.names, [node.dependencies for node in task.nodes])

    def _check_acyclic(self) -> None:
        visited = 0
        while visited != self.full:
            ready = self._zero_mask(visited)
            if not ready:
                raise ScoringError("dependency lists contain a cycle")
            visited |= ready

    # -- states ---------------------------------------------------------------------------------

    def is_complete(self, state: PathState) -> bool:
        return state.visited == self.full and not state.pending

    def _zero_mask(self, visited: int) -> int:
        mask = 0
        for i, pred in enumerate(self._preds):
            if not visited >> i & 1 and pred & ~visited == 0:
                mask |= 1 << i
        return mask

    def _frontier(self, visited: int) -> _Frontier:
        ready = self._zero_mask(visited)
        zero = tuple(i for i in range(self.size) if ready >> i & 1)
        run_of: dict[int, Step] = {}
        for _, group in itertools.groupby(zero, key=lambda i: self.names[i]):
            run = tuple(group)
            if len(run) > 1:
                for i in run:
                    run_of[i] = run
        return _Frontier(zero, run_of)

    def _survives_filter(self, combo: Step, fr: _Frontier) -> bool:
        """Rule 5: a prefix inside a block must be the whole block (singletons always survive)."""
        if len(combo) == 1:
            return True
        forbidden = allowed = False
        for k in range(1, len(combo) + 1):
            run = fr.run_of.get(combo[0])
            if run is None or not set(combo[:k]) <= set(run):
                break
            if k < len(run):
                forbidden = True
            else:
                allowed = True
        return allowed or not forbidden

    def _as_move(self, combo: Step, state: PathState, fr: _Frontier) -> Move:
        run = fr.run_of.get(combo[0])
        if len(combo) == 1 and run is not None and run[0] == combo[0]:
            mask = 0
            for i in run:
                mask |= 1 << i
            return Move(combo, PathState(state.visited | mask, run[1:]))
        mask = 0
        for i in combo:
            mask |= 1 << i
        return Move(combo, PathState(state.visited | mask, ()))

    def _iter_combos(self, state: PathState, pool: Step, sizes: Sequence[int]) -> Iterator[Move]:
        """Surviving combinations drawn from ``pool`` (a sub-sequence of Z), in reference order.

        Restricting the pool is exact for rule 4 as long as every combination sharing a name
        sequence with a wanted one is drawn from the pool too, which holds when the pool is
        "all Z nodes whose names occur in the wanted step".
        """
        fr = self._frontier(state.visited)
        for size in sizes:
            seen: set[tuple[str, ...]] = set()
            for combo in itertools.combinations(pool, size):
                key = tuple(self.names[i] for i in combo)
                if key in seen:
                    continue
                seen.add(key)
                if self._survives_filter(combo, fr):
                    yield self._as_move(combo, state, fr)

    # -- moves ----------------------------------------------------------------------------------

    def moves(self, state: PathState) -> Iterator[Move]:
        """All legal moves in reference order (lazy; exponential in |Z| only if fully consumed)."""
        if state.pending:
            yield Move(state.pending[:1], PathState(state.visited, state.pending[1:]))
            return
        zero = self._frontier(state.visited).zero
        yield from self._iter_combos(state, zero, range(1, len(zero) + 1))

    def find_move(self, state: PathState, names: Sequence[str]) -> Move | None:
        """The first legal move whose sorted names equal ``sorted(names)`` (doc 3.2, branch B)."""
        wanted = sorted(names)
        if state.pending:
            head = state.pending[0]
            return Move((head,), PathState(state.visited, state.pending[1:])) if wanted == [self.names[head]] else None
        zero = self._frontier(state.visited).zero
        pool = tuple(i for i in zero if self.names[i] in wanted)
        for move in self._iter_combos(state, pool, (len(wanted),)):
            if sorted(self.names[i] for i in move.step) == wanted:
                return move
        return None

    def successor(self, state: PathState, step: Step) -> PathState | None:
        """The state after ``step`` if ``step`` is a legal move from ``state``; else None."""
        if state.pending:
            return PathState(state.visited, state.pending[1:]) if step == state.pending[:1] else None
        zero = self._frontier(state.visited).zero
        if not step or not set(step) <= set(zero):
            return None
        key = tuple(self.names[i] for i in step)
        pool = tuple(i for i in zero if self.names[i] in key)
        for move in self._iter_combos(state, pool, (len(step),)):
            if tuple(self.names[i] for i in move.step) == key:
                return move.after if move.step == step else None
        return None

    def first_pseudo_move(self, state: PathState) -> Move | None:
        """The first legal move containing a pseudo-action (doc 3.2, branch A).

        Moves come by size first and every pseudo node of Z yields a surviving singleton (the
        lowest index of its name), so the answer is the lowest-index pseudo node of Z.
        """
        if state.pending:
            head = state.pending[0]
            if self.names[head] in (ASK, PREPARE):
                return Move((head,), PathState(state.visited, state.pending[1:]))
            return None
        fr = self._frontier(state.visited)
        for i in fr.zero:
            if self.names[i] in (ASK, PREPARE):
                return self._as_move((i,), state, fr)
        return None

    # -- lengths --------------------------------------------------------------------------------

    def min_steps(self, state: PathState | None = None) -> int:
        """Fewest steps from ``state`` (default: the start) to a complete path.

        Breadth-first search over states. Taking all of Z is always a legal move (it is the only
        combination of its size, and its leading block, if any, is whole), and it dominates every
        other move: from a superset of visited nodes Z can only cover more. So the search keeps
        that one successor per level, and a pending block costs one step per member.
        """
        state = state or PathState()
        steps, visited = len(state.pending), state.visited
        while visited != self.full:
            visited |= self._zero_mask(visited)
            steps += 1
        return steps

    @property
    def min_length(self) -> int:
        return self.min_steps()

    def iter_paths(self, state: PathState | None = None) -> Iterator[list[Step]]:
        """Every complete path from ``state`` in reference order. Exponential; for small graphs."""
        state = state or PathState()
        if self.is_complete(state):
            yield []
            return
        for move in self.moves(state):
            for rest in self.iter_paths(move.after):
                yield [move.step, *rest]

    def first_optimal_path(self) -> list[Step]:
        """The first path of minimal length in reference order (the gold history, doc 3.1)."""
        best = self.min_length

        def search(state: PathState, budget: int) -> list[Step] | None:
            if self.is_complete(state):
                return []
            for move in self.moves(state):
                if 1 + self.min_steps(move.after) <= budget:
                    rest = search(move.after, budget - 1)
                    if rest is not None:
                        return [move.step, *rest]
            return None

        path = search(PathState(), best)
        if path is None:  # pragma: no cover - min_steps is exact, so a path of that length exists
            raise ScoringError("no optimal path found")
        return path


class PathCursor:
    """The pruned path set P of one running task, kept as an ordered set of states.

    States are kept in the order of the first path prefix that reaches them, which is the order
    in which their candidates appear in the reference candidate list. Duplicate candidates of
    later prefixes are dropped; they could never win a first-match.
    """

    def __init__(self, engine: PathEngine) -> None:
        self.engine = engine
        self.states: list[PathState] = [PathState()]
        self.step = 0

    def candidates(self) -> Iterator[Move]:
        for state in self.states:
            yield from self.engine.moves(state)

    def has_candidates(self) -> bool:
        return any(not self.engine.is_complete(s) for s in self.states)

    def match_calls(self, names: Sequence[str]) -> Move | None:
        for state in self.states:
            move = self.engine.find_move(state, names)
            if move is not None:
                return move
        return None

    def match_text(self) -> Move | None:
        for state in self.states:
            move = self.engine.first_pseudo_move(state)
            if move is not None:
                return move
        return None

    def advance_pruned(self, step: Step) -> None:
        """Keep only paths whose current element equals ``step``."""
        self._replace(s for st in self.states if (s := self.engine.successor(st, step)) is not None)

    def advance_unpruned(self) -> None:
        """Move every path one step on (the ask-text branch does not prune)."""
        self._replace(m.after for st in self.states for m in self.engine.moves(st))

    def _replace(self, states: Iterator[PathState]) -> None:
        self.states = list(dict.fromkeys(states))
        self.step += 1
