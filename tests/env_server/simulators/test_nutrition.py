"""Per-100 g nutrient tables (``simulators/nutrition.py``, ``nutrient_names.py``)."""

from __future__ import annotations

import pytest

from env_server.environment import ToolEnvironment
from env_server.simulators import invariants
from env_server.specs.content_checks import nutrient_hits
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

_BARCODES = ("3017624010701", "5449000000996", "7622210449283", "4006381333931", "0737628064502")


@pytest.mark.parametrize("code", _BARCODES)
def test_an_open_food_facts_product_weighs_at_most_100_g_per_100_g(env: ToolEnvironment, code: str):
    table = call(env, "open_food_facts_get_product", code=code)["product"]["nutriments"]
    solids = sum(table.get(k, 0) for k in ("proteins_100g", "fat_100g", "carbohydrates_100g", "salt_100g"))
    assert solids <= 100
    assert table["sugars_100g"] <= table["carbohydrates_100g"]


@pytest.mark.parametrize("code", _BARCODES)
def test_an_open_food_facts_products_energy_follows_its_fat_carbs_and_protein(env: ToolEnvironment, code: str):
    table = call(env, "open_food_facts_get_product", code=code)["product"]["nutriments"]
    kcal = 9 * table["fat_100g"] + 4 * table["carbohydrates_100g"] + 4 * table["proteins_100g"]
    assert table["energy-kcal_100g"] == pytest.approx(kcal, rel=0.05, abs=1)


def test_kilojoules_follow_kilocalories_in_a_per_100_g_table():
    table = {"energy-kcal_100g": 250.0, "energy-kj_100g": 90.0, "proteins_100g": 10.0, "fat_100g": 10.0,
             "carbohydrates_100g": 30.0}
    invariants.enforce(table, {}, invariants.rules_for(table))
    assert table["energy-kj_100g"] == pytest.approx(table["energy-kcal_100g"] * 4.184, abs=0.1)
    assert invariants.violations(table, {}) == []


def test_the_audit_reports_a_per_100_g_table_heavier_than_100_g():
    heavy = {"nutriments": {"proteins_100g": 81.8, "fat_100g": 83.46, "carbohydrates_100g": 61.41, "salt_100g": 84.88}}
    assert nutrient_hits("$.product", heavy)
    light = {"nutriments": {"proteins_100g": 8.0, "fat_100g": 3.0, "carbohydrates_100g": 60.0, "salt_100g": 1.2}}
    assert nutrient_hits("$.product", light) == []
