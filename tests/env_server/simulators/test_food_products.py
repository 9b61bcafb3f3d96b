"""A food database's product reads as one packaged food: brand and product, with that
product's categories, pack size and ingredients, not a T-shirt sold by "Conley Inc"."""

from __future__ import annotations

from env_server.catalog import Catalog
from env_server.simulators.food_products import food_product_step
from env_server.simulators.vocab import Vocabulary
from tests.env_server.free_play import catalog, ok, session  # noqa: F401  (a fixture)


def test_a_food_product_is_named_for_its_brand_and_agrees_with_its_facts(catalog: Catalog):
    tool = "open_food_facts_get_product"
    product = ok(session(catalog, tool), tool, code="3017624010701")["product"]
    assert product["product_name"].startswith(product["brands"] + " ")
    entry = Vocabulary().index("food_product")[product["product_name"].lower()]
    assert set(product["categories_tags"]) <= set(entry["categories_tags"])  # those the schema allows
    assert product["ingredients_text"] == entry["ingredients_text"]


def test_a_category_search_lists_products_of_that_category(catalog: Catalog):
    tool = "open_food_facts_search_products"
    products = ok(session(catalog, tool), tool, categories_tags_en="breakfast-cereals")["products"]
    assert products
    cereals = ("Granola", "Cornflakes", "Muesli")
    assert all(any(c in p["product_name"] for c in cereals) for p in products)


def test_a_record_without_food_facts_gets_no_food_product():
    shop_item = {"product_name": {"type": "string"}, "price": {"type": "number"}}
    assert food_product_step(shop_item) is None
    assert food_product_step({**shop_item, "nutriscore_grade": {"type": "string"}}) is not None
