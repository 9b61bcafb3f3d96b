"""Compose one generated scenario: pick task types, write the user text, run the gold calls.

The composer keeps a live ``ToolEnvironment`` session (the scenario's seed, date and tools,
exactly as ``toolenv scenarios record`` sets one up) and runs every gold call the moment it
writes it. Later tasks are written from what earlier calls really returned: "book the
second one" points at the second item of a recorded search result, through a ``$ref``
argument, so gold arguments, observations and state agree by construction. Replaying the
produced file with ``record_scenario`` gives the same observations (a test checks this).

A call that fails in the simulator aborts the attempt (``Retry``); the generator then
starts over with the next attempt number, so a failed call never leaves the recording
session out of step with a replay.
"""

from __future__ import annotations

import datetime as dt
import random
import threading
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.generator import phrases as ph
from env_server.generator.flows import Flow, GeneratorError
from env_server.generator.packs import Fact, Pack
from env_server.orchestrator.models import ASK, PREPARE, TaskType, TurnSubtype
from env_server.orchestrator.native import NativeNode, NativeTask, RefProblem, lookup_ref, resolve_refs
from state import Database
from state.store import Durability

SESSION = "generate"
COREF, PARTIAL, LONG = TurnSubtype.COREFERENCE, TurnSubtype.PARTIAL, TurnSubtype.LONG_RANGE


_SCRATCH: list[Database] = []
_SCRATCH_LOCK = threading.Lock()


def _scratch_db() -> Database:
    with _SCRATCH_LOCK:
        if not _SCRATCH:
            _SCRATCH.append(Database())
        return _SCRATCH[0]


class Retry(Exception):
    """This attempt cannot become a scenario (a gold call failed, a result was too thin, no
    builder fits); the generator abandons it and starts over with the next attempt number."""


@dataclass
class Search:
    task: int
    node: int
    q: str
    items: list[dict[str, Any]]


@dataclass(frozen=True)
class Item:
    search: Search
    index: int

    @property
    def data(self) -> dict[str, Any]:
        return self.search.items[self.index]


@dataclass
class Created:
    task: int
    node: int
    item: Item
    value: Any
    deleted: bool = False


@dataclass
class Draft:
    """A task being written: its nodes so far (already run) and its text."""

    index: int
    nodes: list[NativeNode]


def _item_key(it: Item) -> tuple[int, int, int]:
    return it.search.task, it.search.node, it.index


class Composer:
    """One attempt at a scenario: a live recording session plus what its tasks produced so far.

    The task builders (``tasks.py``) use its public methods only: ``call`` and its shortcuts
    ``search`` / ``read`` / ``create`` run gold calls, ``ref_to`` points at an earlier result,
    ``finish`` closes a task; the ``say_*`` / ``pick_*`` / ``*_text`` methods write words.
    Randomness comes from ``rng`` alone, in call order, so the same calls give the same file.
    """

    def __init__(
        self, catalog: Catalog, pack: Pack, flow: Flow, rng: random.Random, seed: int, today: dt.date,
        two_round_clarify: float,
    ) -> None:
        self.pack, self.flow, self.rng = pack, flow, rng
        self.two_round_clarify = two_round_clarify
        # Ephemeral durability: the recording session lives in memory only, so every composer can
        # share one scratch database (opening a DuckDB connection per attempt cost ~30 ms).
        self.db = _scratch_db()
        with _SCRATCH_LOCK:  # concurrent CREATE TABLE IF NOT EXISTS on one DuckDB can conflict
            self.env = ToolEnvironment(catalog, self.db, ServerSettings(seed=seed, today=today,
                                                                       durability=Durability.EPHEMERAL))
        self.env.create_session(pairs=[(n, n) for n in flow.tools], seed=seed, today=today, session_id=SESSION,
                                label="generate")
        self.tasks: list[NativeTask] = []
        self.searches: list[Search] = []
        self.created: list[Created] = []
        self.focus: dict[int, Item] = {}
        self.used_queries: set[str] = set()
        self.search_required = pack.query_param in (catalog.tools[flow.search].input_schema.get("required") or [])
        create_required = catalog.tools[flow.create].input_schema.get("required") or []
        self.create_required = [str(p) for p in create_required]

    def close(self) -> None:
        self.env.release_session(SESSION)

    # -- running gold calls ----------------------------------------------------------------

    def call(self, draft: Draft, action: str, args: dict[str, Any], deps: list[int]) -> tuple[int, Any]:
        """Run gold call ``action(args)`` now and append it to ``draft``; returns (node index, observation).

        ``args`` may hold ``$ref`` values; they resolve against the nodes ``deps`` reach
        (transitively) and earlier tasks, exactly as a replay resolves them. The node keeps
        the unresolved ``args``. Raises ``Retry`` when the simulator answers with an error and
        ``GeneratorError`` for a reference the generator should never have written.
        """
        allowed: set[int] = set()
        stack = list(deps)
        while stack:
            d = stack.pop()
            if d not in allowed:
                allowed.add(d)
                stack.extend(draft.nodes[d].dependency_list)

        def observation_of(t: int, n: int) -> Any:
            nodes = draft.nodes if t == draft.index else self.tasks[t].nodes
            return nodes[n].observation if 0 <= n < len(nodes) else None

        def resolve(ref: str) -> Any:
            value = lookup_ref(ref, draft.index, allowed, observation_of)
            if isinstance(value, RefProblem):
                raise GeneratorError(f"generator wrote a bad reference '{ref}': {value.message}")
            return value

        outcome = self.env.call_tool(SESSION, action, resolve_refs(args, resolve))
        if outcome.is_error:
            raise Retry(f"{action}: {outcome.message}")
        draft.nodes.append(NativeNode(action=action, arguments=args, dependency_list=list(deps),
                                      observation=outcome.result))
        return len(draft.nodes) - 1, outcome.result

    def ref_to(self, draft: Draft, task: int, node: int, path: str) -> dict[str, str]:
        """A ``$ref`` argument value pointing at ``path`` in the observation of ``task``'s ``node``
        (written short when it is the draft's own task)."""
        where = f"{node}" if task == draft.index else f"{task}.{node}"
        return {"$ref": f"{where}:{path}"}

    def _item_ref(self, draft: Draft, item: Item) -> dict[str, str]:
        s = item.search
        return self.ref_to(draft, s.task, s.node, f"{self.flow.collection}.{item.index}.{self.flow.item_id}")

    def search(self, draft: Draft, q: str) -> Search:
        """Run the flow's search for ``q`` (no dependencies) and remember its first five items.

        Raises ``Retry`` when fewer than two items come back, ``GeneratorError`` when items lack
        the flow's id or the pack's label field.
        """
        args = {**self.pack.search_defaults, self.pack.query_param: q}
        node, obs = self.call(draft, self.flow.search, args, [])
        items = obs.get(self.flow.collection) if isinstance(obs, dict) else None
        if not isinstance(items, list) or len(items) < 2:
            raise Retry(f"search for {q!r} returned fewer than two results")
        for item in items:
            if self.flow.item_id not in item or self.pack.label_field not in item:
                raise GeneratorError(f"{self.flow.search} items lack '{self.flow.item_id}' or '{self.pack.label_field}'")
        search = Search(draft.index, node, q, items[:5])
        self.searches.append(search)
        return search

    def read(self, draft: Draft, item: Item, deps: list[int]) -> int:
        """Run the flow's read call on ``item`` (its id passed by ``$ref``); returns the node index."""
        node, _ = self.call(draft, self.flow.read, {self.flow.read_id: self._item_ref(draft, item)}, deps)
        return node

    def create(self, draft: Draft, item: Item, extra_args: dict[str, Any], deps: list[int]) -> Created:
        """Run the flow's create call on ``item`` plus ``extra_args`` and remember what it made.

        Raises ``GeneratorError`` when the result lacks the flow's created-id field.
        """
        args = {self.flow.create_ref: self._item_ref(draft, item), **extra_args}
        node, obs = self.call(draft, self.flow.create, args, deps)
        if not isinstance(obs, dict) or self.flow.created_id not in obs:
            raise GeneratorError(f"{self.flow.create} result lacks '{self.flow.created_id}'")
        created = Created(draft.index, node, item, obs[self.flow.created_id])
        self.created.append(created)
        return created

    def finish(self, draft: Draft, user: str, kind: TaskType, subtype: TurnSubtype | None, reply: str,
               chat: bool = False) -> NativeTask:
        """Close ``draft`` as a task the user asks with ``user``: a final prepare node depending on
        every node nothing else depends on, observing ``reply`` (a chat answer when ``chat``).
        The task joins ``tasks``, where later tasks can refer to it."""
        dependents = {d for n in draft.nodes for d in n.dependency_list}
        sinks = [i for i in range(len(draft.nodes)) if i not in dependents]
        draft.nodes.append(NativeNode(action=PREPARE, arguments={"answer_type": "chat" if chat else "tool"},
                                      dependency_list=sinks, observation=reply))
        task = NativeTask(user=user, type=kind, subtype=subtype, nodes=draft.nodes)
        self.tasks.append(task)
        return task

    # -- words -------------------------------------------------------------------------------

    def slots(self, **more: Any) -> dict[str, Any]:
        p = self.pack
        return {"noun": p.noun, "nouns": p.nouns, "created_noun": p.created_noun, **more}

    def scope(self, q: str) -> str:
        return ph.render(self.pack.scope, sentence=False, q=q)

    def label(self, item: Item) -> str:
        return str(item.data[self.pack.label_field])

    def new_query(self) -> str:
        fresh = [q for q in self.pack.queries if q not in self.used_queries]
        q = fresh[self.rng.randrange(len(fresh))]
        self.used_queries.add(q)
        return q

    def say_search(self, search: Search) -> str:
        labels = ph.join_names([f'"{str(i[self.pack.label_field])}"' for i in search.items[:3]])
        return ph.render(ph.pick(self.rng, ph.SAY_SEARCH), **self.slots(n=len(search.items), scope=self.scope(search.q),
                                                                         labels=labels))

    def say_read(self, item: Item) -> str:
        return ph.render(ph.pick(self.rng, ph.SAY_READ), label=self.label(item))

    def _unambiguous(self, searches: list[Search]) -> list[Item]:
        items = [Item(s, k) for s in searches for k in range(len(s.items))]
        counts: dict[str, int] = {}
        for it in items:
            counts[self.label(it)] = counts.get(self.label(it), 0) + 1
        return [it for it in items if counts[self.label(it)] == 1]

    def pick_item(self, i: int, subtype: TurnSubtype | None,
                  avoid: AbstractSet[tuple[int, int, int]] = frozenset()) -> tuple[Item, str] | None:
        """An earlier item and the words that point at it, for the given subtype."""
        if subtype is COREF:
            return self._pick_coref_item(i, avoid)
        if subtype is PARTIAL:
            return self._pick_partial_item(i, avoid)
        return self._pick_long_range_item(i, avoid)

    def _pick_coref_item(self, i: int, avoid: AbstractSet[tuple[int, int, int]]) -> tuple[Item, str] | None:
        """The previous task's focus ("that one"), or a result of its only search by position."""
        rng = self.rng
        prev = [s for s in self.searches if s.task == i - 1]
        focus = self.focus.get(i - 1)
        if focus is not None and _item_key(focus) not in avoid and (len(prev) != 1 or rng.random() < 0.5):
            return focus, ph.render(ph.pick(rng, ph.ITEM_FOCUS), sentence=False, **self.slots())
        if len(prev) != 1:
            return None
        options = [k for k in range(len(prev[0].items)) if (prev[0].task, prev[0].node, k) not in avoid]
        if not options:
            return None
        k = options[rng.randrange(len(options))]
        return Item(prev[0], k), ph.render(ph.pick(rng, ph.ITEM_COREF), sentence=False,
                                           **self.slots(ord=ph.ORDINALS[k], num=k + 1))

    def _pick_partial_item(self, i: int, avoid: AbstractSet[tuple[int, int, int]]) -> tuple[Item, str] | None:
        """A result of the last two tasks named by its (unambiguous) label."""
        rng = self.rng
        items = [it for it in self._unambiguous([s for s in self.searches if s.task in (i - 1, i - 2)])
                 if _item_key(it) not in avoid]
        if not items:
            return None
        item = items[rng.randrange(len(items))]
        return item, ph.render(ph.pick(rng, ph.ITEM_PARTIAL), sentence=False, **self.slots(label=self.label(item)))

    def _pick_long_range_item(self, i: int, avoid: AbstractSet[tuple[int, int, int]]) -> tuple[Item, str] | None:
        """Task 3 only: a result of one of task 0's searches, by position and scope."""
        rng = self.rng
        first = [s for s in self.searches if s.task == 0]
        if i != 3 or not first:
            return None
        s = first[rng.randrange(len(first))]
        options = [k for k in range(len(s.items)) if (s.task, s.node, k) not in avoid]
        if not options:
            return None
        k = options[rng.randrange(len(options))]
        templates = ph.ITEM_LONG if len(first) == 1 else ph.ITEM_LONG[1:]
        return Item(s, k), ph.render(ph.pick(rng, templates), sentence=False,
                                     **self.slots(ord=ph.ORDINALS[k], scope=self.scope(s.q)))

    def pick_pair(self, i: int, subtype: TurnSubtype | None) -> tuple[Item, Item, str] | None:
        rng = self.rng
        if subtype is COREF:
            pool = [s for s in self.searches if s.task == i - 1]
            if len(pool) != 1:
                return None
        elif subtype is PARTIAL:
            pool = [s for s in self.searches if s.task in (i - 1, i - 2)]
        else:
            pool = [s for s in self.searches if s.task == 0] if i == 3 else []
        if not pool:
            return None
        s = pool[rng.randrange(len(pool))]
        a, b = sorted(rng.sample(range(len(s.items)), 2))
        ia, ib = Item(s, a), Item(s, b)
        slots = self.slots(oa=ph.ORDINALS[a], ob=ph.ORDINALS[b], na=a + 1, nb=b + 1, la=self.label(ia),
                           lb=self.label(ib), scope=self.scope(s.q))
        if subtype is PARTIAL:
            if self.label(ia) == self.label(ib):
                return None
            templates = ph.PAIR_PARTIAL
        elif subtype is COREF:
            templates = ph.PAIR_COREF
        else:
            templates = ph.PAIR_LONG if len(pool) == 1 else ph.PAIR_LONG[1:]
        return ia, ib, ph.render(ph.pick(rng, templates), sentence=False, **slots)

    def search_phrase(self, i: int, subtype: TurnSubtype | None, q: str) -> str | None:
        """How a later task asks for a new search, leaving the action implicit."""
        tasks_with_search = {s.task for s in self.searches}
        if subtype is PARTIAL and tasks_with_search & {i - 1, i - 2}:
            return ph.render(ph.pick(self.rng, self.pack.again), q=q)
        if subtype is COREF and (i - 1) in tasks_with_search and self.tasks[i - 1].type is not TaskType.CLARIFY:
            return ph.render(ph.pick(self.rng, ph.SEARCH_COREF), **self.slots(scope=self.scope(q)))
        if subtype is LONG and i == 3 and 0 in tasks_with_search:
            return ph.render(ph.pick(self.rng, ph.SEARCH_LONG), **self.slots(scope=self.scope(q)))
        return None

    def extras(self) -> tuple[dict[str, Any], str, str]:
        if self.pack.extras is None:
            return {}, "", ""
        return self.pack.extras(self.rng)

    def create_text(self, it: str, extra: str) -> str:
        return ph.render(ph.pick(self.rng, self.pack.create), it=it, extra=extra)

    def fact_for(self, item: Item) -> Fact | None:
        facts = [f for f in self.pack.facts
                 if isinstance(item.data.get(f.field), (str, int, float)) and not isinstance(item.data.get(f.field), bool)]
        return facts[self.rng.randrange(len(facts))] if facts else None

    def clarify_nodes(self, draft: Draft, tool: str, missing: list[str], question: str, reply: str) -> int:
        """One or two ask nodes; returns the index of the last one."""
        entry = {"tool_list": [{"tool_name": tool, "missing_required_parameters": list(missing)}]}
        if self.rng.random() < self.two_round_clarify:
            draft.nodes.append(NativeNode(action=ASK, arguments=entry, observation=question,
                                          user_input=ph.pick(self.rng, ph.VAGUE_REPLIES)))
            again = ph.render(ph.pick(self.rng, ph.ASK_AGAIN),
                              missing=ph.join_names(["the " + ph.humanize(p) for p in missing]))
            draft.nodes.append(NativeNode(action=ASK, arguments=entry, dependency_list=[0], observation=again,
                                          user_input=reply))
        else:
            draft.nodes.append(NativeNode(action=ASK, arguments=entry, observation=question, user_input=reply))
        return len(draft.nodes) - 1
