"""Task builders: one function per task type, for the first task and for later ones.

A builder takes the composer, the task index and the hidden-intent subtype (None for the
first task). It returns None, *before running any call*, when the dialogue so far does not
support it (nothing to point at, no intent that takes what was given, ...); otherwise it
runs its gold calls and returns the finished task. Which intent a later task uses is read
from the anchors of the window its subtype points into (``Composer.window``): a request
"there, that day" takes the city and the date an earlier reply showed.
"""

from __future__ import annotations

from collections.abc import Callable

from env_server.generator import anchors
from env_server.generator import phrases as ph
from env_server.generator.compose import Anchor, Composer, Draft, Fill, Result, Said, call_key
from env_server.generator.packs import Intent
from env_server.orchestrator.models import TaskType, TurnSubtype
from env_server.orchestrator.native import NativeTask

Subtype = TurnSubtype | None
Builder = Callable[[Composer, int, Subtype], NativeTask | None]
FORM = {TurnSubtype.COREFERENCE: "coref", TurnSubtype.PARTIAL: "partial", TurnSubtype.LONG_RANGE: "partial"}
LEAD = {TurnSubtype.COREFERENCE: "coref", TurnSubtype.PARTIAL: "partial", TurnSubtype.LONG_RANGE: "long"}


# -- choosing intents and filling slots ----------------------------------------------------


def session_intents(c: Composer) -> list[Intent]:
    return [intent for f in c.families for intent in c.library.by_family[f].intents]


def is_start(c: Composer, intent: Intent) -> bool:
    return anchors.is_start(c.library, intent)


def links(c: Composer, intent: Intent, kinds: set[str]) -> bool:
    return anchors.takes(c.library, intent, kinds)


def gives(intent: Intent) -> set[str]:
    return {g.kind for g in intent.gives}


def fill(c: Composer, intent: Intent, anchors: dict[str, Anchor], form: str, leave: str | None = None,
         shared: dict[str, Said] | None = None, shared_form: str = "explicit") -> dict[str, Fill] | None:
    """Slots of ``intent`` filled from ``anchors`` (said with ``form``), from values already said
    in this task (``shared``), or with fresh values; None when a slot cannot be filled or the
    same call was made before. ``leave`` is named fresh (the user will give it when asked)."""
    fills: dict[str, Fill] = {}
    for slot, kinds in intent.slots.items():
        anchor = next((anchors[k] for k in kinds if k in anchors), None) if slot != leave else None
        said = next(((k, shared[k]) for k in kinds if k in shared), None) if shared and slot != leave else None
        if anchor is not None:
            fills[slot] = Fill(anchor.kind, form, anchor=anchor)
        elif said is not None:
            fills[slot] = Fill(said[0], shared_form, said=said[1])
        else:
            kind = next((k for k in kinds if c.kind(k).nameable), None)
            if kind is None:
                return None
            taken = tuple(_value(f) for f in fills.values() if f.kind == kind)
            fresh = c.say(kind, avoid=taken)
            if fresh is None:
                return None
            fills[slot] = Fill(kind, "explicit", said=fresh)
    if call_key(intent, fills) in c.used_calls:
        return None
    return fills


def _value(f: Fill) -> object:
    return f.anchor.value if f.anchor is not None else f.said.value if f.said is not None else None


def ranked(c: Composer, intents: list[Intent]) -> list[Intent]:
    """``intents`` shuffled, families the session has not used yet first, then intents it has not used."""
    pool = list(intents)
    c.rng.shuffle(pool)
    return sorted(pool, key=lambda it: (c.catalog.tools[it.tool].family in c.used_families, it.name in c.used_intents))


def linked_candidates(c: Composer, anchors: dict[str, Anchor], exclude: tuple[Intent, ...] = ()) -> list[Intent]:
    kinds = set(anchors)
    return ranked(c, [it for it in session_intents(c) if it not in exclude and links(c, it, kinds)])


def _text(c: Composer, result: Result, i: int) -> str:
    return c.reply(result, ph.pick(c.rng, result.intent.reply), i)


def _anchors_of(result: Result) -> dict[str, Anchor]:
    out: dict[str, Anchor] = {}
    for a in result.anchors:
        out.setdefault(a.kind, a)
    return out


def _lead(c: Composer, subtype: Subtype, text: str) -> str:
    return text if subtype is None else ph.attach(ph.pick(c.rng, ph.LEAD[LEAD[subtype]]), text)


# -- the first task ------------------------------------------------------------------------


def _start_intent(c: Composer) -> Intent | None:
    first = [it for it in c.library.by_family[c.families[0]].intents if is_start(c, it)]
    return first[c.rng.randrange(len(first))] if first else None


def first_single(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    intent = _start_intent(c)
    fills = fill(c, intent, {}, "explicit") if intent else None
    if intent is None or fills is None:
        return None
    draft = Draft(i)
    result = c.call(draft, intent, fills, [])
    return c.finish(draft, c.ask_text(intent, fills), TaskType.SINGLE_TOOL, None, _text(c, result, i), [result])


def first_parallel(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    intent = _start_intent(c)
    if intent is None:
        return None
    fills = fill(c, intent, {}, "explicit")
    if fills is None:
        return None
    shared = {f.kind: f.said for f in fills.values() if f.said is not None}
    partners = [it for it in ranked(c, session_intents(c)) if it.tool != intent.tool and links(c, it, set(shared))]
    if partners and c.rng.random() < 0.7:
        other = partners[0]
        other_fills = fill(c, other, {}, "explicit", shared=shared, shared_form="coref")
        if other_fills is not None:
            return _run_parallel(c, i, None, [(intent, fills), (other, other_fills)])
    slot = next(iter(fills))
    second = fill(c, intent, {}, "explicit", shared={f.kind: f.said for s, f in fills.items() if s != slot and f.said})
    a, b = fills[slot].said, second[slot].said if second else None
    if second is None or a is None or b is None:
        return None
    both = dict(fills)
    both[slot] = Fill(fills[slot].kind, "explicit", said=Said(f"{a.np} and {b.np}", f"{a.pp} and {b.pp}", None))
    draft = Draft(i)
    r1, r2 = c.call(draft, intent, fills, []), c.call(draft, intent, second, [])
    return c.finish(draft, c.ask_text(intent, both), TaskType.PARALLEL, None,
                    f"{_text(c, r1, i)} {_text(c, r2, i)}", [r1, r2])


def _run_parallel(c: Composer, i: int, subtype: Subtype, calls: list[tuple[Intent, dict[str, Fill]]]) -> NativeTask:
    draft = Draft(i)
    results = [c.call(draft, intent, fills, []) for intent, fills in calls]
    first, second = (c.ask_text(intent, fills) for intent, fills in calls)
    user = _lead(c, subtype, f"{first} {ph.attach(ph.pick(c.rng, ph.ALSO), second)}")
    return c.finish(draft, user, TaskType.PARALLEL, subtype, " ".join(_text(c, r, i) for r in results), results)


def first_chain(c: Composer, i: int, subtype: Subtype, branches: int) -> NativeTask | None:
    intent = _start_intent(c)
    if intent is None:
        return None
    followers = [it for it in ranked(c, session_intents(c)) if it.tool != intent.tool and links(c, it, gives(intent))]
    if len(followers) < branches:
        return None
    fills = fill(c, intent, {}, "explicit")
    if fills is None:
        return None
    draft = Draft(i)
    head = c.call(draft, intent, fills, [])
    return _chain(c, draft, c.ask_text(intent, fills), head, followers, branches, subtype)


def _chain(c: Composer, draft: Draft, opening: str, head: Result, followers: list[Intent], branches: int,
           subtype: Subtype) -> NativeTask:
    """Run up to ``branches`` followers on ``head``'s anchors (a serial or a fork-shaped DAG) and finish.

    ``followers`` all take a kind ``head`` gives, so each can be filled; a follower is only
    skipped when the session already made that very call, and then the task keeps the
    calls it has (Mixed becomes Sequential, Sequential becomes Single-Tool) instead of
    starting over."""
    anchors = _anchors_of(head)
    planned: list[tuple[Intent, dict[str, Fill]]] = []
    for intent in followers:
        fills = fill(c, intent, anchors, "seq")
        if fills is not None and all(intent.tool != p[0].tool for p in planned):
            planned.append((intent, fills))
        if len(planned) == branches:
            break
    results = [c.call(draft, intent, fills, [head.node]) for intent, fills in planned]
    asks = [c.ask_text(intent, fills) for intent, fills in planned]
    user = opening
    if asks:
        user += " " + ph.attach(ph.pick(c.rng, ph.THEN), asks[0])
    if len(asks) > 1:
        user += " " + ph.attach(ph.pick(c.rng, ph.ALSO), asks[1])
    kind = (TaskType.SINGLE_TOOL, TaskType.SEQUENTIAL, TaskType.MIXED)[len(asks)]
    reply = " ".join(_text(c, r, draft.index) for r in [head, *results])
    return c.finish(draft, _lead(c, subtype, user), kind, subtype, reply, [head, *results])


def first_clarify(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    options = [(it, s) for it in ranked(c, session_intents(c)) if is_start(c, it)
               for s in it.ask_bare if c.required(it, s)]
    options.sort(key=lambda o: c.catalog.tools[o[0].tool].family != c.families[0])
    for intent, slot in options:
        fills = fill(c, intent, {}, "explicit")
        if fills is not None and fills[slot].said is not None:
            return _run_clarify(c, i, None, intent, fills, slot)
    return None


def _run_clarify(c: Composer, i: int, subtype: Subtype, intent: Intent, fills: dict[str, Fill], slot: str
                 ) -> NativeTask:
    draft = Draft(i)
    user = _lead(c, subtype, c.ask_text(intent, fills, bare=slot))
    last = c.clarify_nodes(draft, intent, slot, fills[slot])
    result = c.call(draft, intent, fills, [last])
    return c.finish(draft, user, TaskType.CLARIFY, subtype, _text(c, result, i), [result])


FIRST: dict[TaskType, tuple[Builder, ...]] = {
    TaskType.SINGLE_TOOL: (first_single,),
    TaskType.PARALLEL: (first_parallel,),
    TaskType.SEQUENTIAL: (lambda c, i, s: first_chain(c, i, s, 1),),
    TaskType.MIXED: (lambda c, i, s: first_chain(c, i, s, 2),),
    TaskType.CLARIFY: (first_clarify,),
}


# -- later tasks -----------------------------------------------------------------------------


def later_single(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    assert subtype is not None
    _, anchors = c.window(i, subtype)
    for intent in linked_candidates(c, anchors):
        fills = fill(c, intent, anchors, FORM[subtype])
        if fills is not None:
            draft = Draft(i)
            result = c.call(draft, intent, fills, [])
            return c.finish(draft, _lead(c, subtype, c.ask_text(intent, fills)), TaskType.SINGLE_TOOL, subtype,
                            _text(c, result, i), [result])
    return None


def later_parallel(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    assert subtype is not None
    _, anchors = c.window(i, subtype)
    planned: list[tuple[Intent, dict[str, Fill]]] = []
    for intent in linked_candidates(c, anchors):
        fills = fill(c, intent, anchors, FORM[subtype])
        if fills is not None and all(intent.tool != p[0].tool for p in planned):
            planned.append((intent, fills))
        if len(planned) == 2:
            return _run_parallel(c, i, subtype, planned)
    return None


def later_chain(c: Composer, i: int, subtype: Subtype, branches: int) -> NativeTask | None:
    assert subtype is not None
    _, anchors = c.window(i, subtype)
    for intent in linked_candidates(c, anchors):
        followers = [it for it in ranked(c, session_intents(c)) if it.tool != intent.tool and links(c, it, gives(intent))]
        if len(followers) < branches:
            continue
        fills = fill(c, intent, anchors, FORM[subtype])
        if fills is None:
            continue
        draft = Draft(i)
        head = c.call(draft, intent, fills, [])
        return _chain(c, draft, c.ask_text(intent, fills), head, followers, branches, subtype)
    return None


def later_clarify(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    assert subtype is not None
    _, anchors = c.window(i, subtype)
    for intent in linked_candidates(c, anchors):
        for slot in intent.ask_bare:
            if not c.required(intent, slot) or any(k in anchors for k in intent.slots[slot]):
                continue
            fills = fill(c, intent, anchors, FORM[subtype], leave=slot)
            if fills is not None and fills[slot].said is not None and any(f.anchor for f in fills.values()):
                return _run_clarify(c, i, subtype, intent, fills, slot)
    return None


def later_chat(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    assert subtype is not None
    tasks, _ = c.window(i, subtype)
    options = [(r, k) for t in tasks for r in c.told[t] for k in range(len(r.intent.chat))]
    if not options:
        return None
    fresh = [o for o in options if (o[0].intent.name, o[1]) not in c.used_chats]
    result, k = (fresh or options)[c.rng.randrange(len(fresh or options))]
    c.used_chats.add((result.intent.name, k))
    chat = result.intent.chat[k]
    it = ph.pick(c.rng, getattr(result.intent.thing, "long" if subtype is TurnSubtype.LONG_RANGE else FORM[subtype]))
    user = _lead(c, subtype, ph.render(ph.pick(c.rng, chat.user), it=it))
    reply = c.reply(result, ph.pick(c.rng, chat.reply), i)
    return c.finish(Draft(i), user, TaskType.CHAT, subtype, reply, [result], chat=True)


def _again_options(c: Composer, i: int, subtype: Subtype, required: bool = False) -> list[tuple[Result, str]]:
    """(earlier result, slot the user named) pairs in the window, shuffled: material for "the same, with X"."""
    assert subtype is not None
    tasks, _ = c.window(i, subtype)
    options = [(r, s) for t in tasks for r in c.told[t] for s, f in r.fills.items()
               if f.said is not None and (not required or c.required(r.intent, s))]
    c.rng.shuffle(options)
    return options


def _again_fills(c: Composer, result: Result, slot: str, avoid: tuple[object, ...] = ()) -> dict[str, Fill] | None:
    old = result.fills[slot]
    fresh = c.say(old.kind, avoid=(*avoid, *(_value(f) for f in result.fills.values())))
    if fresh is None:
        return None
    fills = {**result.fills, slot: Fill(old.kind, "explicit", said=fresh)}
    return None if call_key(result.intent, fills) in c.used_calls else fills


def later_again(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    """An earlier request again with one named value changed ("And in Porto?", "Do the same for Porto")."""
    assert subtype is not None
    for result, slot in _again_options(c, i, subtype):
        fills = _again_fills(c, result, slot)
        said = fills[slot].said if fills else None
        if fills is None or said is None:
            continue
        draft = Draft(i)
        again = c.call(draft, result.intent, fills, [])
        user = _lead(c, subtype, ph.render(ph.pick(c.rng, ph.AGAIN[LEAD[subtype]]), np=said.np, pp=said.pp))
        return c.finish(draft, user, TaskType.SINGLE_TOOL, subtype, _text(c, again, i), [again])
    return None


def later_again_pair(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    """Parallel: an earlier request again for two new values ("And Porto and Ghent?")."""
    assert subtype is not None
    for result, slot in _again_options(c, i, subtype):
        first = _again_fills(c, result, slot)
        a = first[slot].said if first else None
        second = _again_fills(c, result, slot, avoid=(a.value,)) if a else None
        b = second[slot].said if second else None
        if first is None or second is None or a is None or b is None:
            continue
        draft = Draft(i)
        results = [c.call(draft, result.intent, first, []), c.call(draft, result.intent, second, [])]
        np_, pp = f"{a.np} and {b.np}", f"{a.pp} and {b.pp}"
        user = _lead(c, subtype, ph.render(ph.pick(c.rng, ph.AGAIN[LEAD[subtype]]), np=np_, pp=pp))
        return c.finish(draft, user, TaskType.PARALLEL, subtype, " ".join(_text(c, r, i) for r in results), results)
    return None


def later_clarify_again(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    """An earlier request again for another value the user leaves out, so the assistant asks for it."""
    for result, slot in _again_options(c, i, subtype, required=True):
        fills = _again_fills(c, result, slot)
        if fills is None:
            continue
        noun = c.kind(fills[slot].kind).noun
        draft = Draft(i)
        user = _lead(c, subtype, ph.render(ph.pick(c.rng, ph.AGAIN_BARE), noun=noun))
        last = c.clarify_nodes(draft, result.intent, slot, fills[slot])
        again = c.call(draft, result.intent, fills, [last])
        return c.finish(draft, user, TaskType.CLARIFY, subtype, _text(c, again, i), [again])
    return None


def later_sequential(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    return later_chain(c, i, subtype, 1)


def later_mixed(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    return later_chain(c, i, subtype, 2)


LATER: dict[TaskType, tuple[Builder, ...]] = {
    TaskType.SINGLE_TOOL: (later_single, later_again),
    TaskType.PARALLEL: (later_parallel, later_again_pair),
    TaskType.SEQUENTIAL: (later_sequential,),
    TaskType.MIXED: (later_mixed,),
    TaskType.CLARIFY: (later_clarify, later_clarify_again),
    TaskType.CHAT: (later_chat,),
}
# Builders whose calls take an earlier result into an intent (possibly of another family).
LINKING: frozenset[Builder] = frozenset({later_single, later_parallel, later_sequential, later_mixed, later_clarify})
