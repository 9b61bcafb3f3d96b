"""Nutrients per 100 g that a food table would print: a fruit is mostly water and sugar, a
dish has protein, fat and carbohydrate in proportions that add up to at most 100 g.

``per_100g(name, entity, props)`` is asked once per object schema (``plans``); for an
object named like a per-100 g nutrient table (``nutritions``, ``nutrients``) it returns the
step that redraws the record's macronutrients from its food's profile. Energy and sugar
then follow from ``content_rules.Nutrients``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.content_rules import CARBS, ENERGY, FAT, PROTEIN, SUGAR, energy_of

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# Objects that hold amounts per 100 g (Fruityvice's "nutritions", a food parser's "nutrients").
PER_100G_OBJECTS = frozenset({"nutritions", "nutrients", "nutrition", "nutriments", "per_100g", "nutrients_per_100g"})

# Per 100 g: (protein, fat, carbohydrate) ranges in grams and sugar's share of the carbohydrate.
_PROFILES: Mapping[str, tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]] = {
    "fruit": ((0.3, 1.6), (0.1, 0.7), (7.0, 24.0), (0.5, 0.85)),
    "vegetable": ((0.8, 3.5), (0.1, 0.6), (2.5, 12.0), (0.2, 0.6)),
    "food": ((2.0, 26.0), (0.5, 24.0), (2.0, 58.0), (0.04, 0.35)),
}
_FRUITY = frozenset({"fruit", "fruits", "berry", "berries"})
_GREEN = frozenset({"vegetable", "vegetables", "veggie", "produce"})

Fixer = Callable[[dict[str, Any], "Generation"], None]


def profile_of(entity: str) -> str:
    words = set(entity.lower().split("_"))
    return "fruit" if words & _FRUITY else "vegetable" if words & _GREEN else "food"


def per_100g(name: str, entity: str, props: Mapping[str, Any]) -> Fixer | None:
    """The step that makes a per-100 g nutrient object believable, or None for other objects."""
    if name.lower() not in PER_100G_OBJECTS:
        return None
    keys = [next((k for k in names if k in props), None) for names in (PROTEIN, FAT, CARBS)]
    if None in keys:
        return None
    protein, fat, carbs = (str(k) for k in keys)
    sugar = next((k for k in SUGAR if k in props), None)
    energy = next((k for k in ENERGY if k in props), None)
    ranges = _PROFILES[profile_of(entity)]
    bounds = {k: props[k].get("maximum") if isinstance(props[k], dict) else None
              for k in (protein, fat, carbs, sugar, energy) if k is not None}

    def fix(record: dict[str, Any], gen: Generation) -> None:
        grams = [gen.rng.uniform(lo, hi) for lo, hi in ranges[:3]]
        total = sum(grams)
        if total > 95:  # a dry food: its macros still fit in 100 g
            grams = [g * 95 / total for g in grams]
        drawn = dict(zip((protein, fat, carbs), grams, strict=True))
        if sugar is not None:
            drawn[sugar] = drawn[carbs] * gen.rng.uniform(*ranges[3])
        if energy is not None:
            drawn[energy] = energy_of(drawn[protein], drawn[fat], drawn[carbs])
        for key, value in drawn.items():
            cap = bounds.get(key)
            if key in record and (cap is None or value <= cap):
                record[key] = int(round(value)) if isinstance(record[key], int) else round(value, 2)

    return fix
