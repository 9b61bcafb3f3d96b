"""A record named from a record vocabulary carries that entry's facts (``simulators/entry_fields.py``)."""

from __future__ import annotations

from env_server.catalog import Catalog
from env_server.environment import ToolEnvironment
from env_server.simulators.records import default_facts
from env_server.specs.entry_checks import entry_hits
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

_COCKTAILS = default_facts().vocab.index("cocktail")


def test_a_margarita_is_an_alcoholic_cocktail_in_a_margarita_glass(env: ToolEnvironment):
    drinks = call(env, "thecocktaildb_search_cocktails", s="margarita")["drinks"]
    assert drinks[0]["strDrink"] == "Margarita"
    assert (drinks[0]["strCategory"], drinks[0]["strAlcoholic"], drinks[0]["strGlass"]) == (
        "Cocktail", "Alcoholic", "Margarita glass")


def test_a_cocktail_search_finds_the_drinks_named_like_the_text(env: ToolEnvironment):
    names = {d["strDrink"] for d in call(env, "thecocktaildb_search_cocktails", s="margarita")["drinks"]}
    assert {"Margarita", "Tommy's Margarita", "Frozen Margarita"} <= names


def test_a_cocktail_search_answers_cocktails_never_beers_or_wines(env: ToolEnvironment):
    for text in ("gaming", "summer", "xyz"):
        for drink in call(env, "thecocktaildb_search_cocktails", s=text)["drinks"]:
            entry = _COCKTAILS[drink["strDrink"].lower()]
            assert (drink["strCategory"], drink["strGlass"]) == (entry["category"], entry["glass"])


def test_a_cocktail_filter_answers_drinks_that_pass_it(env: ToolEnvironment):
    for drink in call(env, "thecocktaildb_filter_cocktails", a="Non_Alcoholic")["drinks"]:
        assert _COCKTAILS[drink["strDrink"].lower()]["alcoholic"] == "Non alcoholic"


def test_the_audit_reports_a_margarita_in_a_wine_glass_and_a_beer_among_cocktails(catalog: Catalog):
    spec = catalog.tools["thecocktaildb_search_cocktails"]
    wrong = {"drinks": [{"strDrink": "Margarita", "strCategory": "Cocktail", "strAlcoholic": "Alcoholic",
                         "strGlass": "Wine glass"}, {"strDrink": "Belgian Witbier", "strGlass": "Pint glass"}]}
    details = " ".join(detail for _, detail in entry_hits(spec, wrong))
    assert "Wine glass" in details and "Belgian Witbier" in details
    right = {"drinks": [{"strDrink": "Margarita", "strCategory": "Cocktail", "strAlcoholic": "Alcoholic",
                         "strGlass": "Margarita glass"}]}
    assert entry_hits(spec, right) == []
