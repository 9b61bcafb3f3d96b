"""A drink is one recipe: its facts and its ingredients with measures (``simulators/cocktails.py``)."""

from __future__ import annotations

from env_server.environment import ToolEnvironment
from env_server.simulators.records import default_facts
from tests.env_server.free_play import call, env  # noqa: F401  (fixtures)

_COCKTAILS = default_facts().vocab.index("cocktail")


def _made_with(name: str) -> set[str]:
    return {i["ingredient"].lower() for i in _COCKTAILS[name.lower()]["ingredients"]}


def test_the_vocabulary_holds_over_150_drinks_each_with_a_measured_recipe():
    assert len(_COCKTAILS) >= 150
    for entry in _COCKTAILS.values():
        assert entry["ingredients"] and all(i["ingredient"] and i["measure"] for i in entry["ingredients"])
    assert {"tequila", "triple sec", "lime juice", "salt"} == _made_with("Margarita")


def test_a_drink_read_by_id_lists_its_own_ingredients_with_their_measures(env: ToolEnvironment):
    for drink_id in ("11007", "17222", "11000", "12345"):
        drink = call(env, "thecocktaildb_get_cocktail", i=drink_id)
        recipe = _COCKTAILS[drink["strDrink"].lower()]["ingredients"]
        assert [(r["ingredient"], r["measure"]) for r in drink["ingredients"]] == [
            (i["ingredient"], i["measure"]) for i in recipe]
        assert [r["position"] for r in drink["ingredients"]] == list(range(1, len(recipe) + 1))


def test_a_drink_found_by_a_search_reads_back_with_the_same_recipe(env: ToolEnvironment):
    found = call(env, "thecocktaildb_filter_cocktails", i="Campari")["drinks"][0]
    drink = call(env, "thecocktaildb_get_cocktail", i=found["idDrink"])
    assert drink["strDrink"] == found["strDrink"]
    assert [r["ingredient"] for r in drink["ingredients"]] == [
        i["ingredient"] for i in _COCKTAILS[found["strDrink"].lower()]["ingredients"]]
    assert "campari" in _made_with(drink["strDrink"])


def test_a_filter_by_ingredient_answers_only_drinks_made_with_it(env: ToolEnvironment):
    for ingredient in ("Gin", "Lime juice", "Campari", "Coffee liqueur"):
        drinks = call(env, "thecocktaildb_filter_cocktails", i=ingredient)["drinks"]
        assert drinks
        assert all(ingredient.lower() in _made_with(d["strDrink"]) for d in drinks), ingredient


def test_a_filter_by_ingredient_no_drink_uses_finds_nothing(env: ToolEnvironment):
    assert call(env, "thecocktaildb_filter_cocktails", i="Chartreuse")["drinks"] == []


def test_a_filter_by_category_or_glass_holds_and_lists_each_drink_once(env: ToolEnvironment):
    for args, fact, want in (({"c": "Shot"}, "category", "Shot"), ({"g": "Copper_mug"}, "glass", "Copper mug"),
                             ({"a": "Non_Alcoholic"}, "alcoholic", "Non alcoholic")):
        names = [d["strDrink"] for d in call(env, "thecocktaildb_filter_cocktails", **args)["drinks"]]
        assert names and len(names) == len(set(names)), args
        assert all(_COCKTAILS[n.lower()][fact] == want for n in names), args


def test_a_name_search_lists_each_matching_drink_once(env: ToolEnvironment):
    names = [d["strDrink"] for d in call(env, "thecocktaildb_search_cocktails", s="negroni")["drinks"]]
    assert len(names) == len(set(names)) and all("negroni" in n.lower() for n in names)


def test_every_ingredient_a_common_recipe_uses_reads_as_itself(env: ToolEnvironment):
    for name in ("Green Chartreuse", "Maraschino liqueur", "Egg white", "Cognac"):
        ingredient = call(env, "thecocktaildb_get_ingredient", i=name)
        assert ingredient["strIngredient"] == name and ingredient["strDescription"]
