"""Task builders: one function per (task type, flow) pair.

Each builder takes the composer, the task index and the hidden-intent subtype (None for
the first task). It returns None, *before running any call*, when the dialogue so far
does not support it (nothing to refer to, no booking to cancel, ...); otherwise it runs
its gold calls and returns the finished task.
"""

from __future__ import annotations

from collections.abc import Callable

from env_server.generator import phrases as ph
from env_server.generator.compose import LONG, Composer, Created, Draft, Item, Retry, Search
from env_server.orchestrator.models import TaskType, TurnSubtype
from env_server.orchestrator.native import NativeTask

Subtype = TurnSubtype | None
Builder = Callable[[Composer, int, Subtype], NativeTask | None]


# -- first task --------------------------------------------------------------------------


def first_single(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    q = c.new_query()
    draft = Draft(i, [])
    search = c.search(draft, q)
    return c.finish(draft, ph.render(ph.pick(c.rng, c.pack.find), q=q), TaskType.SINGLE_TOOL, None,
                    c.say_search(search))


def first_parallel(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    q1, q2 = c.new_query(), c.new_query()
    user = ph.render(ph.pick(c.rng, ph.PAIR_SEARCH_FIRST), **c.slots(s1=c.scope(q1), s2=c.scope(q2)))
    draft = Draft(i, [])
    a, b = c.search(draft, q1), c.search(draft, q2)
    return c.finish(draft, user, TaskType.PARALLEL, None, f"{c.say_search(a)} {c.say_search(b)}")


def first_sequential(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    q, k = c.new_query(), c.rng.randrange(2)
    user = ph.render(ph.pick(c.rng, c.pack.find), q=q) + " " + ph.render(ph.pick(c.rng, ph.THEN_READ), ord=ph.ORDINALS[k])
    draft = Draft(i, [])
    search = c.search(draft, q)
    item = Item(search, k)
    c.read(draft, item, [search.node])
    c.focus[i] = item
    return c.finish(draft, user, TaskType.SEQUENTIAL, None, f"{c.say_search(search)} {c.say_read(item)}")


def first_mixed(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    q = c.new_query()
    user = ph.render(ph.pick(c.rng, c.pack.find), q=q) + " " + ph.render(
        ph.pick(c.rng, ph.THEN_READ_PAIR), oa=ph.ORDINALS[0], ob=ph.ORDINALS[1])
    draft = Draft(i, [])
    search = c.search(draft, q)
    a, b = Item(search, 0), Item(search, 1)
    c.read(draft, a, [search.node])
    c.read(draft, b, [search.node])
    return c.finish(draft, user, TaskType.MIXED, None, f"{c.say_search(search)} {c.say_read(a)} {c.say_read(b)}")


def first_clarify(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    if not (c.search_required and c.pack.find_bare and c.pack.ask_find and c.pack.reply_find):
        return None
    q = c.new_query()
    draft = Draft(i, [])
    last = c.clarify_nodes(draft, c.flow.search, [c.pack.query_param], c.pack.ask_find,
                           ph.render(ph.pick(c.rng, c.pack.reply_find), q=q))
    user = ph.pick(c.rng, c.pack.find_bare)
    node, obs = c.call(draft, c.flow.search, {**c.pack.search_defaults, c.pack.query_param: q}, [last])
    items = obs.get(c.flow.collection) if isinstance(obs, dict) else None
    if not isinstance(items, list) or len(items) < 2:
        raise Retry("clarified search returned fewer than two results")
    search = Search(i, node, q, items[:5])
    c.searches.append(search)
    return c.finish(draft, user, TaskType.CLARIFY, None, c.say_search(search))


FIRST: dict[TaskType, Builder] = {
    TaskType.SINGLE_TOOL: first_single,
    TaskType.PARALLEL: first_parallel,
    TaskType.SEQUENTIAL: first_sequential,
    TaskType.MIXED: first_mixed,
    TaskType.CLARIFY: first_clarify,
}


# -- later tasks -------------------------------------------------------------------------


def _live_created(c: Composer) -> set[tuple[int, int, int]]:
    return {(x.item.search.task, x.item.search.node, x.item.index) for x in c.created if not x.deleted}


def single_read(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    found = c.pick_item(i, subtype)
    if found is None:
        return None
    item, it = found
    draft = Draft(i, [])
    c.read(draft, item, [])
    c.focus[i] = item
    return c.finish(draft, ph.render(ph.pick(c.rng, ph.READ), it=it), TaskType.SINGLE_TOOL, subtype, c.say_read(item))


def single_create(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    found = c.pick_item(i, subtype, avoid=_live_created(c))
    if found is None:
        return None
    item, it = found
    args, request, _ = c.extras()
    draft = Draft(i, [])
    created = c.create(draft, item, args, [])
    c.focus[i] = item
    done = ph.render(ph.pick(c.rng, c.pack.done_create), label=c.label(item), id=created.value)
    return c.finish(draft, c.create_text(it, request), TaskType.SINGLE_TOOL, subtype, done)


def single_delete(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    live = [x for x in c.created if not x.deleted]
    if subtype is TurnSubtype.COREFERENCE:
        pool, templates = [x for x in live if x.task == i - 1], ph.CREATED_COREF
    elif subtype is TurnSubtype.PARTIAL:
        pool, templates = [x for x in live if x.task in (i - 1, i - 2)], ph.CREATED_PARTIAL
    else:
        return None
    if len(pool) != 1:
        return None
    target = pool[0]
    it = ph.render(ph.pick(c.rng, templates), sentence=False, **c.slots(label=c.label(target.item)))
    draft = Draft(i, [])
    args = {c.flow.delete_id: c.ref_to(draft, target.task, target.node, c.flow.created_id)}
    create_args = c.tasks[target.task].nodes[target.node].arguments
    args.update({p: create_args[p] for p in c.flow.delete_extra})
    c.call(draft, c.flow.delete, args, [])
    target.deleted = True
    done = ph.render(ph.pick(c.rng, c.pack.done_undo), id=target.value)
    return c.finish(draft, ph.render(ph.pick(c.rng, c.pack.undo), it=it), TaskType.SINGLE_TOOL, subtype, done)


def _later_search(c: Composer, i: int, subtype: Subtype) -> tuple[str, str] | None:
    if len(c.used_queries) >= len(c.pack.queries):
        return None
    q = c.new_query()
    text = c.search_phrase(i, subtype, q)
    if text is None:
        c.used_queries.discard(q)
        return None
    return q, text


def single_search(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    found = _later_search(c, i, subtype)
    if found is None:
        return None
    q, user = found
    draft = Draft(i, [])
    search = c.search(draft, q)
    return c.finish(draft, user, TaskType.SINGLE_TOOL, subtype, c.say_search(search))


def parallel_read(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    found = c.pick_pair(i, subtype)
    if found is None:
        return None
    a, b, both = found
    draft = Draft(i, [])
    c.read(draft, a, [])
    c.read(draft, b, [])
    user = ph.render(ph.pick(c.rng, ph.READ_PAIR), both=both)
    return c.finish(draft, user, TaskType.PARALLEL, subtype, f"{c.say_read(a)} {c.say_read(b)}")


def parallel_search(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    tasks_with_search = {s.task for s in c.searches}
    if subtype is TurnSubtype.PARTIAL and tasks_with_search & {i - 1, i - 2}:
        templates = ph.PAIR_SEARCH_PARTIAL
    elif subtype is TurnSubtype.COREFERENCE and (i - 1) in tasks_with_search:
        templates = ph.PAIR_SEARCH_COREF
    elif subtype is LONG and i == 3 and 0 in tasks_with_search:
        templates = ph.PAIR_SEARCH_LONG
    else:
        return None
    if len(c.used_queries) + 2 > len(c.pack.queries):
        return None
    q1, q2 = c.new_query(), c.new_query()
    user = ph.render(ph.pick(c.rng, templates), **c.slots(s1=c.scope(q1), s2=c.scope(q2)))
    draft = Draft(i, [])
    a, b = c.search(draft, q1), c.search(draft, q2)
    return c.finish(draft, user, TaskType.PARALLEL, subtype, f"{c.say_search(a)} {c.say_search(b)}")


def sequential_search_read(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    found = _later_search(c, i, subtype)
    if found is None:
        return None
    q, text = found
    k = c.rng.randrange(2)
    user = f"{text} {ph.render(ph.pick(c.rng, ph.THEN_READ), ord=ph.ORDINALS[k])}"
    draft = Draft(i, [])
    search = c.search(draft, q)
    item = Item(search, k)
    c.read(draft, item, [search.node])
    c.focus[i] = item
    return c.finish(draft, user, TaskType.SEQUENTIAL, subtype, f"{c.say_search(search)} {c.say_read(item)}")


def sequential_search_create(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    found = _later_search(c, i, subtype)
    if found is None:
        return None
    q, text = found
    args, request, _ = c.extras()
    user = f"{text} {c.create_text(ph.pick(c.rng, ph.FIRST_RESULT), request)}"
    draft = Draft(i, [])
    search = c.search(draft, q)
    item = Item(search, 0)
    created = c.create(draft, item, args, [search.node])
    c.focus[i] = item
    done = ph.render(ph.pick(c.rng, c.pack.done_create), label=c.label(item), id=created.value)
    return c.finish(draft, user, TaskType.SEQUENTIAL, subtype, f"{c.say_search(search)} {done}")


def sequential_read_create(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    found = c.pick_item(i, subtype, avoid=_live_created(c))
    if found is None:
        return None
    item, it = found
    args, request, _ = c.extras()
    opener = ph.render(ph.pick(c.rng, ph.READ_THEN), it=it)
    user = f"{opener} {c.create_text('it', request)}"
    draft = Draft(i, [])
    read = c.read(draft, item, [])
    node_args = {c.flow.create_ref: c.ref_to(draft, i, read, c.flow.read_id_field), **args}
    node, obs = c.call(draft, c.flow.create, node_args, [read])
    if not isinstance(obs, dict) or c.flow.created_id not in obs:
        raise Retry(f"{c.flow.create} result lacks '{c.flow.created_id}'")
    created = Created(i, node, item, obs[c.flow.created_id])
    c.created.append(created)
    c.focus[i] = item
    done = ph.render(ph.pick(c.rng, c.pack.done_create), label=c.label(item), id=created.value)
    return c.finish(draft, user, TaskType.SEQUENTIAL, subtype, f"{c.say_read(item)} {done}")


def mixed_search_reads(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    found = _later_search(c, i, subtype)
    if found is None:
        return None
    q, text = found
    a, b = sorted(c.rng.sample(range(3), 2))
    user = f"{text} {ph.render(ph.pick(c.rng, ph.THEN_READ_PAIR), oa=ph.ORDINALS[a], ob=ph.ORDINALS[b])}"
    draft = Draft(i, [])
    search = c.search(draft, q)
    if b >= len(search.items):
        a, b = 0, 1
        user = f"{text} {ph.render(ph.pick(c.rng, ph.THEN_READ_PAIR), oa=ph.ORDINALS[a], ob=ph.ORDINALS[b])}"
    ia, ib = Item(search, a), Item(search, b)
    c.read(draft, ia, [search.node])
    c.read(draft, ib, [search.node])
    return c.finish(draft, user, TaskType.MIXED, subtype,
                    f"{c.say_search(search)} {c.say_read(ia)} {c.say_read(ib)}")


def clarify_create(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    if not (c.pack.extras_required and c.pack.create_bare and c.pack.ask_create):
        return None
    found = c.pick_item(i, subtype, avoid=_live_created(c))
    if found is None:
        return None
    item, it = found
    args, _, reply = c.extras()
    missing = [p for p in args if p in c.create_required]
    draft = Draft(i, [])
    last = c.clarify_nodes(draft, c.flow.create, missing, c.pack.ask_create, reply)
    created = c.create(draft, item, args, [last])
    c.focus[i] = item
    done = ph.render(ph.pick(c.rng, c.pack.done_create), label=c.label(item), id=created.value)
    user = ph.render(ph.pick(c.rng, c.pack.create_bare), it=it)
    return c.finish(draft, user, TaskType.CLARIFY, subtype, done)


def chat_fact(c: Composer, i: int, subtype: Subtype) -> NativeTask | None:
    found = c.pick_item(i, subtype)
    if found is None:
        return None
    item, it = found
    fact = c.fact_for(item)
    if fact is None:
        return None
    c.focus[i] = item
    draft = Draft(i, [])
    answer = ph.render(fact.answer, label=c.label(item), value=item.data[fact.field])
    return c.finish(draft, ph.render(fact.question, it=it), TaskType.CHAT, subtype, answer, chat=True)


LATER: dict[TaskType, tuple[Builder, ...]] = {
    TaskType.SINGLE_TOOL: (single_read, single_create, single_delete, single_search),
    TaskType.PARALLEL: (parallel_read, parallel_search),
    TaskType.SEQUENTIAL: (sequential_read_create, sequential_search_read, sequential_search_create),
    TaskType.MIXED: (mixed_search_reads,),
    TaskType.CLARIFY: (clarify_create,),
    TaskType.CHAT: (chat_fact,),
}

# Builders that start a fresh search; the others point at earlier results (anchor linkage)
# and are tried first most of the time.
FRESH_SEARCH: frozenset[Builder] = frozenset(
    {single_search, parallel_search, sequential_search_read, sequential_search_create, mixed_search_reads}
)
