"""Compose one generated scenario: a live recording session plus what its tasks said and gave.

The composer keeps a ``ToolEnvironment`` session (the scenario's seed, date and tools,
exactly as ``toolenv scenarios record`` sets one up) and runs every gold call the moment it
is written. A result *gives* anchors (``Give`` in the packs): values a later call may take
("there" = the city of the show found before). An anchor is only offered once the
assistant has shown it: every reply template quotes the anchors' paths, so a user only
ever points at what the assistant said. A later gold argument takes the anchor as a
``$ref`` to the recorded observation (or, for a date cut from a timestamp, the literal
date the reply wrote), so gold, observations and state agree by construction, and replaying
the file with ``record_scenario`` gives the same observations.

Nothing here retries: the task builders (``tasks.py``) check that a plan fits *before*
running any call, and a call that fails is a bug in a pack (``GeneratorError``).
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
import threading
from dataclasses import dataclass, field
from typing import Any

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.errors import ToolenvError
from env_server.generator import phrases as ph
from env_server.generator.packs import QUOTE, SLOT_ARG, Give, Intent, Kind, Library
from env_server.orchestrator.models import ASK, PREPARE, TaskType, TurnSubtype
from env_server.orchestrator.native import NativeNode, NativeTask, RefProblem, lookup_ref, resolve_refs
from state import Database
from state.store import Durability

_ENV_LOCK = threading.Lock()
_SESSION_IDS = itertools.count()


class GeneratorError(ToolenvError):
    """The generator cannot build a scenario with the requested settings or catalog."""


@dataclass(frozen=True)
class Said:
    """A value the user names: as a noun phrase, as a prepositional phrase, and as the argument."""

    np: str
    pp: str
    value: Any


@dataclass(frozen=True)
class Anchor:
    """A value a result gave and the reply showed: kind, where it lives, and its value."""

    kind: str
    task: int
    node: int
    give: Give
    value: Any


@dataclass
class Fill:
    """How one slot of a call is filled: named by the user (``said``) or taken from an ``anchor``."""

    kind: str
    form: str  # explicit | coref | partial | seq
    said: Said | None = None
    anchor: Anchor | None = None


@dataclass(frozen=True)
class Result:
    task: int
    node: int
    intent: Intent
    observation: Any
    anchors: tuple[Anchor, ...]
    fills: dict[str, Fill]


@dataclass
class Draft:
    """A task being written: its nodes so far (already run) and its results."""

    index: int
    nodes: list[NativeNode] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)


class Phrase:
    """``{slot.pp}`` / ``{slot.np}`` in a user template."""

    def __init__(self, pp: str, np: str) -> None:
        self.pp, self.np = pp, np


def _scratch_env(catalog: Catalog) -> ToolEnvironment:
    """One in-memory environment per catalog, shared by every generation (sessions are per scenario)."""
    with _ENV_LOCK:
        envs: dict[str, ToolEnvironment] = catalog.derived.get("generator_env", dict)
        if "env" not in envs:
            envs["env"] = ToolEnvironment(catalog, Database(), ServerSettings(durability=Durability.EPHEMERAL))
        return envs["env"]


class Composer:
    """One scenario being written: the recording session, the tasks so far and what they gave.

    Task builders use its public methods: ``call`` runs a gold call, ``reply`` writes the
    assistant's answer for a result, ``finish`` closes a task, ``window`` lists the anchors
    a subtype may point at, ``say`` / ``phrase`` write words. Randomness comes from ``rng``
    alone, in call order, so the same seed gives the same file.
    """

    def __init__(self, catalog: Catalog, library: Library, families: list[str], tools: list[str],
                 rng: random.Random, seed: int, today: dt.date, two_round_clarify: float) -> None:
        self.catalog, self.library, self.families = catalog, library, families
        self.rng, self.today, self.two_round_clarify = rng, today, two_round_clarify
        self.env = _scratch_env(catalog)
        self.session = f"generate-{next(_SESSION_IDS)}"
        self.env.create_session(pairs=[(n, n) for n in tools], seed=seed, today=today, session_id=self.session,
                                label="generate")
        self.tasks: list[NativeTask] = []
        self.told: list[list[Result]] = []  # per task: the results its reply showed (a chat task: its referent)
        self.used_values: set[tuple[str, str]] = set()
        self.used_calls: set[str] = set()
        self.used_families: list[str] = []
        self.used_intents: set[str] = set()
        self.used_chats: set[tuple[str, int]] = set()

    def close(self) -> None:
        self.env.release_session(self.session)

    # -- gold calls -------------------------------------------------------------------------

    def call(self, draft: Draft, intent: Intent, fills: dict[str, Fill], deps: list[int]) -> Result:
        """Run ``intent`` with its slots filled and append it to ``draft``; returns the result.

        Anchored slots become ``$ref`` arguments (resolved exactly as a replay resolves them).
        Raises ``GeneratorError`` when the simulator answers with an error or the result lacks
        a path the pack quotes: both are bugs in a pack, never bad luck.
        """
        args = self._arguments(draft, intent.args, fills)
        allowed = _ancestors(draft.nodes, deps)

        def observation_of(t: int, n: int) -> Any:
            nodes = draft.nodes if t == draft.index else self.tasks[t].nodes
            return nodes[n].observation if 0 <= n < len(nodes) else None

        def resolve(ref: str) -> Any:
            value = lookup_ref(ref, draft.index, allowed, observation_of)
            if isinstance(value, RefProblem):
                raise GeneratorError(f"generator wrote a bad reference '{ref}': {value.message}")
            return value

        outcome = self.env.call_tool(self.session, intent.tool, resolve_refs(args, resolve))
        if outcome.is_error:
            raise GeneratorError(f"pack intent {intent.name}: {intent.tool} failed: {outcome.message}")
        draft.nodes.append(NativeNode(action=intent.tool, arguments=args, dependency_list=list(deps),
                                      observation=outcome.result))
        node = len(draft.nodes) - 1
        anchors = tuple(Anchor(g.kind, draft.index, node, g, _given(outcome.result, g, intent)) for g in intent.gives)
        result = Result(draft.index, node, intent, outcome.result, anchors, dict(fills))
        draft.results.append(result)
        self.used_calls.add(call_key(intent, fills))
        self.used_intents.add(intent.name)
        family = self.catalog.tools[intent.tool].family
        if family not in self.used_families:
            self.used_families.append(family)
        return result

    def _arguments(self, draft: Draft, template: Any, fills: dict[str, Fill]) -> Any:
        if isinstance(template, dict):
            return {k: self._arguments(draft, v, fills) for k, v in template.items()}
        if isinstance(template, list):
            return [self._arguments(draft, v, fills) for v in template]
        match = SLOT_ARG.match(template) if isinstance(template, str) else None
        if match is None:
            return template
        fill, part = fills[match.group(1)], match.group(2)
        if fill.anchor is not None:
            return self._anchor_value(draft, fill.anchor, part)
        assert fill.said is not None
        return _part(fill.said.value, part)

    def _anchor_value(self, draft: Draft, anchor: Anchor, part: str | None) -> Any:
        give = anchor.give
        if give.parts:
            path = give.parts[part or ""]
        elif give.as_date or part:
            return _part(anchor.value, part)
        else:
            path = give.path
        where = f"{anchor.node}" if anchor.task == draft.index else f"{anchor.task}.{anchor.node}"
        return {"$ref": f"{where}:{path}"}

    # -- words ------------------------------------------------------------------------------

    def reply(self, result: Result, template: str, at_task: int) -> str:
        """The assistant's words for ``result``: ``[path]`` becomes ``{{N:path}}`` (``{{T.N:path}}``
        from a later task), ``[path|date]`` the date written out."""
        where = f"{result.node}" if result.task == at_task else f"{result.task}.{result.node}"

        def quote(match: Any) -> str:
            path, as_date = match.group(1), match.group(2)
            value = _lookup(result.observation, path)
            if value is None:
                raise GeneratorError(f"pack intent {result.intent.name}: result has no '{path}'")
            return ph.natural_date(value) if as_date else "{{" + f"{where}:{path}" + "}}"

        return QUOTE.sub(quote, template)

    def kind(self, name: str) -> Kind:
        return self.library.kinds[name]

    def say(self, kind_name: str, avoid: tuple[Any, ...] = ()) -> Said | None:
        """A fresh value of ``kind_name`` for the user to name (None when the kind has no pool)."""
        kind = self.kind(kind_name)
        options = self._pool(kind)
        fresh = [s for s in options if (kind_name, repr(s.value)) not in self.used_values and s.value not in avoid]
        if not fresh:
            fresh = [s for s in options if s.value not in avoid]
        if not fresh:
            return None
        said = fresh[self.rng.randrange(len(fresh))]
        self.used_values.add((kind_name, repr(said.value)))
        return said

    def _pool(self, kind: Kind) -> list[Said]:
        if kind.generated == "date":
            return [Said(np, pp, day.isoformat()) for np, pp, day in ph.spoken_dates(self.today)]
        if kind.generated == "year":
            return [Said("this year", "this year", self.today.year)]
        return [Said(kind.np.explicit.format(v=v.say), kind.pp.explicit.format(v=v.say), v.value) for v in kind.pool]

    def phrase(self, fill: Fill) -> Phrase:
        """How the user words a filled slot."""
        kind = self.kind(fill.kind)
        if fill.form == "explicit":
            assert fill.said is not None
            return Phrase(fill.said.pp, fill.said.np)
        pp: tuple[str, ...] = getattr(kind.pp, fill.form)
        np: tuple[str, ...] = getattr(kind.np, fill.form)
        return Phrase(ph.pick(self.rng, pp), ph.pick(self.rng, np))

    def ask_text(self, intent: Intent, fills: dict[str, Fill], bare: str | None = None) -> str:
        """The user's request for ``intent`` (without slot ``bare`` when the assistant must ask for it)."""
        anchored = "+".join(sorted(s for s, f in fills.items() if f.form != "explicit"))
        if bare is not None:
            templates = intent.ask_bare[bare]
        else:
            templates = intent.ask_linked.get(anchored) or intent.ask
        phrases: dict[str, Any] = {s: self.phrase(f) for s, f in fills.items() if s != bare}
        return ph.render(ph.pick(self.rng, templates), **phrases)

    # -- tasks ------------------------------------------------------------------------------

    def finish(self, draft: Draft, user: str, kind: TaskType, subtype: TurnSubtype | None, reply: str,
               told: list[Result], chat: bool = False) -> NativeTask:
        """Close ``draft`` as a task the user opens with ``user``: a final prepare node depending on
        every sink, observing ``reply`` (a chat answer when ``chat``). ``told`` are the results
        the reply showed; later tasks may point at their anchors."""
        dependents = {d for n in draft.nodes for d in n.dependency_list}
        sinks = [i for i in range(len(draft.nodes)) if i not in dependents]
        draft.nodes.append(NativeNode(action=PREPARE, arguments={"answer_type": "chat" if chat else "tool"},
                                      dependency_list=sinks, observation=reply))
        task = NativeTask(user=user, type=kind, subtype=subtype, nodes=draft.nodes)
        self.tasks.append(task)
        self.told.append(told)
        return task

    def window(self, i: int, subtype: TurnSubtype) -> tuple[list[int], dict[str, Anchor]]:
        """The earlier tasks ``subtype`` may point into, and the anchors they gave whose value is
        unambiguous there (one value per kind), latest first."""
        if subtype is TurnSubtype.COREFERENCE:
            tasks = [i - 1]
        elif subtype is TurnSubtype.PARTIAL:
            tasks = [t for t in (i - 1, i - 2) if t >= 0]
        else:
            tasks = [0] if i >= 3 else []
        values: dict[str, set[str]] = {}
        latest: dict[str, Anchor] = {}
        for t in tasks:
            for result in self.told[t]:
                for anchor in result.anchors:
                    values.setdefault(anchor.kind, set()).add(repr(anchor.value))
                    latest.setdefault(anchor.kind, anchor)
        return tasks, {k: a for k, a in latest.items() if len(values[k]) == 1}

    def clarify_nodes(self, draft: Draft, intent: Intent, slot: str, fill: Fill) -> int:
        """One or two ask nodes for ``slot`` of ``intent`` (the user answers with ``fill``); returns the
        index of the last one."""
        kind, said = self.kind(fill.kind), fill.said
        assert said is not None
        missing = sorted(_params_of(intent.args, slot))
        entry = {"tool_list": [{"tool_name": intent.tool, "missing_required_parameters": missing}]}
        answer_value = said.pp if kind.pp.explicit == "{v}" else said.np
        answer = ph.render(ph.pick(self.rng, kind.answer), v=answer_value)
        question = ph.pick(self.rng, kind.ask)
        if self.rng.random() < self.two_round_clarify:
            draft.nodes.append(NativeNode(action=ASK, arguments=entry, observation=question,
                                          user_input=ph.pick(self.rng, ph.VAGUE_REPLIES)))
            again = ph.render(ph.pick(self.rng, ph.ASK_AGAIN), noun=kind.noun)
            draft.nodes.append(NativeNode(action=ASK, arguments=entry, dependency_list=[0], observation=again,
                                          user_input=answer))
        else:
            draft.nodes.append(NativeNode(action=ASK, arguments=entry, observation=question, user_input=answer))
        return len(draft.nodes) - 1

    def required(self, intent: Intent, slot: str) -> bool:
        """Every argument ``slot`` fills is a required parameter of the tool (so it can be asked for)."""
        schema = self.catalog.tools[intent.tool].input_schema
        params = _params_of(intent.args, slot)
        return bool(params) and params <= set(schema.get("required") or [])


def call_key(intent: Intent, fills: dict[str, Fill]) -> str:
    """Identifies a call by intent and values, so a session never asks the same thing twice."""
    parts = []
    for slot in sorted(fills):
        fill = fills[slot]
        value = fill.anchor.value if fill.anchor is not None else fill.said.value if fill.said else None
        parts.append(f"{slot}={value!r}")
    return intent.name + "|" + "|".join(parts)


def _params_of(args: dict[str, Any], slot: str) -> set[str]:
    return {k for k, v in args.items() if slot in _slots_in(v)}


def _slots_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        return {s for v in value.values() for s in _slots_in(v)}
    if isinstance(value, list):
        return {s for v in value for s in _slots_in(v)}
    match = SLOT_ARG.match(value) if isinstance(value, str) else None
    return {match.group(1)} if match else set()


def _ancestors(nodes: list[NativeNode], deps: list[int]) -> set[int]:
    seen: set[int] = set()
    stack = list(deps)
    while stack:
        d = stack.pop()
        if d not in seen:
            seen.add(d)
            stack.extend(nodes[d].dependency_list)
    return seen


def _lookup(value: Any, path: str) -> Any:
    for step in [p for p in path.split(".") if p]:
        if isinstance(value, list) and step.isdigit() and int(step) < len(value):
            value = value[int(step)]
        elif isinstance(value, dict) and step in value:
            value = value[step]
        else:
            return None
    return value


def _given(observation: Any, give: Give, intent: Intent) -> Any:
    """The value an anchor carries (parts as a dict); a missing path is a pack bug."""
    paths = dict(give.parts) if give.parts else {"": give.path}
    values = {k: _lookup(observation, p) for k, p in paths.items()}
    missing = [paths[k] for k, v in values.items() if v is None]
    if missing:
        raise GeneratorError(f"pack intent {intent.name}: result has no {missing}")
    if give.as_date:
        day = ph.iso_date(values[""])
        if day is None:
            raise GeneratorError(f"pack intent {intent.name}: {give.path} is not a date: {values['']!r}")
        return day.isoformat()
    return values if give.parts else values[""]


def _part(value: Any, part: str | None) -> Any:
    """A part of a plain value: ``month`` / ``day`` of an ISO date."""
    if part is None:
        return value
    day = ph.iso_date(value)
    if day is None or part not in ("month", "day", "year"):
        raise GeneratorError(f"cannot take '{part}' of {value!r}")
    return getattr(day, part)
