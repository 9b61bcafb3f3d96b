"""Anchor links between families, read from the packs' declarations.

An intent *gives* kinds of values (``gives`` in a pack: the show's city and date, an
airport's code) and *takes* kinds in its slots. Family B is linked from family A when an
intent of B can take a kind an intent of A gives, with every other slot something a user
can name. A session draws its families along these links: a family to start from, a
partner linked from it, and sometimes a third linked from either, so later turns have
something to carry over ("the weather there on the day of that show").
"""

from __future__ import annotations

import random

from env_server.generator.packs import Intent, Library, Pack


def nameable(lib: Library, kinds: tuple[str, ...]) -> bool:
    return any(lib.kinds[k].nameable for k in kinds)


def is_start(lib: Library, intent: Intent) -> bool:
    """Every slot can be named by the user, so the intent can open a session."""
    return all(nameable(lib, kinds) for kinds in intent.slots.values())


def takes(lib: Library, intent: Intent, kinds: set[str]) -> bool:
    """``intent`` can take at least one of ``kinds``, and the user can name the rest."""
    taken = [any(k in kinds for k in ks) for ks in intent.slots.values()]
    return any(taken) and all(t or nameable(lib, ks) for t, ks in zip(taken, intent.slots.values(), strict=True))


def gives(pack: Pack) -> set[str]:
    return {g.kind for intent in pack.intents for g in intent.gives}


def linked(lib: Library, a: Pack, b: Pack) -> bool:
    """Some intent of ``b`` takes a kind ``a`` gives."""
    kinds = gives(a)
    return a.family != b.family and any(takes(lib, intent, kinds) for intent in b.intents)


def family_links(lib: Library) -> frozenset[tuple[str, str]]:
    """Every declared (giver, taker) family pair (kept on the library: ``Library.links``)."""
    return lib.links


def compute_links(lib: Library) -> frozenset[tuple[str, str]]:
    return frozenset((a.family, b.family) for a in lib.packs for b in lib.packs if linked(lib, a, b))


def pick_families(lib: Library, packs: list[Pack], rng: random.Random) -> list[str]:
    """A start family, a partner linked from it when there is one, and sometimes a third."""
    links = lib.links
    starts = [p for p in packs if any(is_start(lib, it) for it in p.intents)]
    starts = [p for p in starts if any((p.family, q.family) in links for q in packs)] or starts or packs
    first = starts[rng.randrange(len(starts))]
    chosen = [first]
    partners = [p for p in packs if (first.family, p.family) in links]
    if partners:
        chosen.append(partners[rng.randrange(len(partners))])
        thirds = [p for p in packs if p not in chosen and any((q.family, p.family) in links for q in chosen)]
        if thirds and rng.random() < 0.5:
            chosen.append(thirds[rng.randrange(len(thirds))])
    return [p.family for p in chosen]
