"""Nutrients per 100 g that a food table would print: a fruit is mostly water and sugar, a
dish has protein, fat and carbohydrate in proportions that add up to at most 100 g.

``per_100g(name, entity, props)`` is asked once per object schema (``plans``); for an
object named like a per-100 g nutrient table (``nutritions``, ``nutrients``, Open Food Facts'
``nutriments``) it returns the step that redraws the record's macronutrients from its food's
profile, with the fibre, salt, sodium and saturated fat the table also weighs, so that every
amount in grams together stays within the 100 g. Energy and sugar then follow from
``content_rules.Nutrients``, kilojoules from kilocalories (``invariants``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.content_rules import energy_of
from env_server.simulators.nutrient_names import (
    CARBS,
    ENERGY,
    FAT,
    FIBER,
    KILOJOULES,
    KJ_PER_KCAL,
    PROTEIN,
    SALT,
    SALT_PER_SODIUM,
    SATURATED,
    SODIUM,
    SUGAR,
)

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# Objects that hold amounts per 100 g (Fruityvice's "nutritions", a food parser's "nutrients").
PER_100G_OBJECTS = frozenset({"nutritions", "nutrients", "nutrition", "nutriments", "per_100g", "nutrients_per_100g"})

# Per 100 g: (protein, fat, carbohydrate) ranges in grams, sugar's share of the carbohydrate,
# fibre and salt in grams.
_Range = tuple[float, float]
_PROFILES: Mapping[str, tuple[_Range, _Range, _Range, _Range, _Range, _Range]] = {
    "fruit": ((0.3, 1.6), (0.1, 0.7), (7.0, 24.0), (0.5, 0.85), (1.0, 4.0), (0.0, 0.02)),
    "vegetable": ((0.8, 3.5), (0.1, 0.6), (2.5, 12.0), (0.2, 0.6), (1.5, 5.0), (0.01, 0.2)),
    "food": ((2.0, 26.0), (0.5, 24.0), (2.0, 58.0), (0.04, 0.35), (0.0, 8.0), (0.05, 2.5)),
}
_FRUITY = frozenset({"fruit", "fruits", "berry", "berries"})
_GREEN = frozenset({"vegetable", "vegetables", "veggie", "produce"})
_MACRO_ROOM = 95.0  # grams of 100 a dry food's protein, fat, carbohydrate, fibre and salt may take

Fixer = Callable[[dict[str, Any], "Generation"], None]


def profile_of(entity: str) -> str:
    words = set(entity.lower().split("_"))
    return "fruit" if words & _FRUITY else "vegetable" if words & _GREEN else "food"


def _key(props: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    return next((k for k in names if k in props), None)


def per_100g(name: str, entity: str, props: Mapping[str, Any]) -> Fixer | None:
    """The step that makes a per-100 g nutrient object believable, or None for other objects."""
    if name.lower() not in PER_100G_OBJECTS:
        return None
    keys = [_key(props, names) for names in (PROTEIN, FAT, CARBS)]
    if None in keys:
        return None
    protein, fat, carbs = (str(k) for k in keys)
    extra = {role: _key(props, names) for role, names in (("sugar", SUGAR), ("energy", ENERGY), ("kj", KILOJOULES),
                                                           ("fiber", FIBER), ("salt", SALT), ("sodium", SODIUM),
                                                           ("saturated", SATURATED))}
    ranges = _PROFILES[profile_of(entity)]
    bounds = {k: props[k].get("maximum") if isinstance(props[k], dict) else None
              for k in (protein, fat, carbs, *extra.values()) if k is not None}

    def fix(record: dict[str, Any], gen: Generation) -> None:
        drawn = _draw(gen, ranges, protein, fat, carbs, extra)
        for key, value in drawn.items():
            cap = bounds.get(key)
            if key in record and (cap is None or value <= cap):
                record[key] = int(round(value)) if isinstance(record[key], int) else round(value, 2)

    return fix


def _draw(gen: Generation, ranges: tuple[_Range, ...], protein: str, fat: str, carbs: str,
          extra: Mapping[str, str | None]) -> dict[str, float]:
    """Every amount of one table: the solids fit in the 100 g, the parts within their wholes."""
    grams = [gen.rng.uniform(lo, hi) for lo, hi in ranges[:3]]
    fiber = gen.rng.uniform(*ranges[4]) if extra["fiber"] else 0.0
    salt = gen.rng.uniform(*ranges[5]) if extra["salt"] or extra["sodium"] else 0.0
    total = sum(grams) + fiber + salt
    if total > _MACRO_ROOM:  # a dry food: its solids still fit in 100 g
        grams, fiber, salt = [g * _MACRO_ROOM / total for g in grams], fiber * _MACRO_ROOM / total, salt * _MACRO_ROOM / total
    drawn = dict(zip((protein, fat, carbs), grams, strict=True))
    kcal = energy_of(*grams)
    parts = {"sugar": grams[2] * gen.rng.uniform(*ranges[3]), "energy": kcal, "kj": kcal * KJ_PER_KCAL,
             "fiber": fiber, "salt": salt, "sodium": salt / SALT_PER_SODIUM,
             "saturated": grams[1] * gen.rng.uniform(0.15, 0.6)}
    drawn.update({key: parts[role] for role, key in extra.items() if key is not None})
    return drawn
