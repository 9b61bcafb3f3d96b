"""The names a nutrient table gives its amounts, in every spelling the catalog's APIs use.

USDA and Edamam codes (``PROCNT``), plain words (``protein``), gram suffixes (``protein_g``)
and Open Food Facts' per-100 g keys (``proteins_100g``, ``energy-kcal_100g``) all name the
same amount. Open Food Facts' bare ``energy_100g`` is kilojoules, so it is a kJ name, not a
kcal one. Besides the macronutrients, a table may weigh salt, sodium, fibre and saturated fat;
they too are part of the 100 g (``GRAMS``).
"""

from __future__ import annotations


def _spellings(*names: str, per_100g: bool = True) -> tuple[str, ...]:
    """``names``, then each with Open Food Facts' ``_100g`` suffix (hyphenated as it writes them)."""
    if not per_100g:
        return names
    suffixed = tuple(f"{n}_100g" for n in names if n.islower()) + tuple(
        f"{n.replace('_', '-')}_100g" for n in names if n.islower() and "_" in n)
    return tuple(dict.fromkeys(names + suffixed))


ENERGY = (*_spellings("ENERC_KCAL", "calories", "kcal", "energy_kcal", "calories_kcal"), "energy")
KILOJOULES = (*_spellings("ENERC_KJ", "energy_kj", "kilojoules"), "energy_100g")
PROTEIN = _spellings("PROCNT", "protein", "proteins", "protein_g")
FAT = _spellings("FAT", "fat", "fat_g", "total_fat")
CARBS = _spellings("CHOCDF", "carbohydrates", "carbohydrate", "carbs", "carbs_g", "carbohydrates_g")
SUGAR = _spellings("SUGAR", "sugar", "sugars", "sugar_g")
SATURATED = _spellings("FASAT", "saturated_fat", "saturated-fat", "fat_saturated", "saturated_fat_g")
FIBER = _spellings("FIBTG", "fiber", "fibre", "fiber_g", "fibre_g", "dietary_fiber")
SALT = _spellings("salt", "salt_g")
SODIUM = _spellings("NA", "sodium", "sodium_g")
# Amounts in grams that share the 100 g (sugar is inside the carbohydrate, saturated fat inside
# the fat, sodium inside the salt: they are not counted twice).
GRAMS = (PROTEIN, FAT, CARBS, FIBER, SALT)
KJ_PER_KCAL = 4.184
SALT_PER_SODIUM = 2.5
