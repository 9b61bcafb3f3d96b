"""A Hearthstone-style card reads as one card: its type decides what it shows, and its stats
follow its cost.

Costs are mostly 1 to 6 and run from 0 to 10; a call that asks for costs (``manaCost=[2, 3]``,
10 meaning 10 or more) gets cards of those. A minion has about 2 × cost + 1 of attack and health
between them, each at most 12; a weapon has attack but no health; a spell, a location or a hero
card shows neither. Its rules text is one written for its type (``hearthstone_card_text``), and a
card of the class the call asks is of that class.

``card_step(props)`` is asked once per object schema (``record_steps``): a record with an integer
mana cost beside a card's attack, health or rarity.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

KIND = "hearthstone_card_text"
TYPES = ("minion", "spell", "weapon", "location", "hero")
_TYPE_WEIGHTS = (62, 28, 5, 3, 2)  # about how a card pool splits by type
# How often each cost from 0 to 10 is printed: a curve that peaks at 2 to 4.
_COST_WEIGHTS = (3, 11, 15, 15, 13, 11, 9, 7, 6, 3, 3)
MOST_STAT = 12
_COST_FIELDS = ("mana_cost", "cost")
_CARD_FIELDS = frozenset({"attack", "health", "rarity", "rarity_slug"})
_CLASS_FIELDS = ("class_slug", "class", "player_class", "hero_class")
_TEXT_ARGS = ("text_filter", "keyword")


def card_step(props: Mapping[str, Any]) -> Step | None:
    """The step that makes a card record one card of a type, or None for other records."""
    keys = {snake(k): k for k in props}
    cost = next((keys[n] for n in _COST_FIELDS if n in keys and _integer(props[keys[n]])), None)
    if cost is None or _CARD_FIELDS.isdisjoint(keys):
        return None
    attack, health, text = keys.get("attack"), keys.get("health"), keys.get("text")
    klass = next((keys[n] for n in _CLASS_FIELDS if n in keys), None)
    classes = _enum(props[klass]) if klass is not None else ()

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        kind, texts = card_texts(gen)
        record[cost] = card_cost(record.get(cost), gen, index)
        shown = stats(kind, record[cost], gen)
        for key, value in ((attack, shown[0]), (health, shown[1])):
            if key is not None and value is None:
                record.pop(key, None)
            elif key is not None:
                record[key] = value
        if text is not None and isinstance(record.get(text), str):
            record[text] = gen.rng.choice(texts)
        asked = gen.snaked_args.get("class")
        if klass is not None and isinstance(asked, str) and asked in classes:
            record[klass] = asked

    return step


def card_texts(gen: Generation) -> tuple[str, tuple[str, ...]]:
    """The card's type and the texts it may print: those with the words the call filters on
    (``textFilter``, ``keyword``) when some card has them, of the type asked if it has any. A
    stored card read back (its text in the context it is drawn in) keeps its text and type."""
    own = gen.snaked_args.get("text")
    known = gen.facts.vocab.index(KIND).get(own.lower()) if isinstance(own, str) else None
    if known is not None:
        return str(known["type"]), (str(known["text"]),)
    kind = card_type(gen)
    by_type = gen.facts.vocab.grouped(KIND, "type")
    words = next((v.strip().lower() for k in _TEXT_ARGS if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), "")
    if words:
        found = {t: hits for (t,), texts in by_type.items() if (hits := tuple(x for x in texts if words in x.lower()))}
        asked = _asked_type(gen)
        if asked is not None:
            return asked, found.get(asked, by_type[(asked,)])
        if found:
            kind = kind if kind in found else next(iter(found))
            return kind, found[kind]
    return kind, by_type[(kind,)]


def _asked_type(gen: Generation) -> str | None:
    asked = gen.snaked_args.get("type")
    return asked.lower() if isinstance(asked, str) and asked.lower() in TYPES else None


def card_type(gen: Generation) -> str:
    """The type the call asks for, else one drawn as a card pool holds them."""
    return _asked_type(gen) or gen.rng.choices(TYPES, _TYPE_WEIGHTS)[0]


def card_cost(current: Any, gen: Generation, index: int | None) -> int:
    """A cost the call asks for (the record's own when it is one), else one off the curve."""
    asked = gen.snaked_args.get("mana_cost")
    costs = [c for c in (asked if isinstance(asked, list) else [asked]) if isinstance(c, int) and 0 <= c <= 10]
    if costs:
        return current if current in costs else costs[(index or 0) % len(costs)]
    return gen.rng.choices(range(len(_COST_WEIGHTS)), _COST_WEIGHTS)[0]


def stats(kind: str, cost: int, gen: Generation) -> tuple[int | None, int | None]:
    """(attack, health) of a card of ``kind`` and ``cost``; None where the card shows none."""
    if kind == "weapon":
        return min(MOST_STAT, max(1, (cost + 1) // 2 + gen.rng.randint(0, 1))), None
    if kind != "minion":
        return None, None
    total = max(1, 2 * cost + 1 + gen.rng.choice((-1, 0, 0, 1)))
    attack = min(MOST_STAT, max(0, round(total * gen.rng.uniform(0.3, 0.65))))
    health = min(MOST_STAT, max(1, total - attack))
    return attack, health


def _integer(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "integer"


def _enum(schema: Any) -> tuple[Any, ...]:
    enum = schema.get("enum") if isinstance(schema, dict) else None
    return tuple(enum) if isinstance(enum, list) else ()
