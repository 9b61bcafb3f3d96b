"""Records whose facts a reader checks on sight: an Uber product's seats and sharing are that
product's, a wger exercise search finds exercises of the term in their real category, an MLB
roster's numbers, position types and statuses are MLB's, and a Hearthstone card's stats follow
its cost and type."""

from __future__ import annotations

from env_server.catalog import Catalog
from env_server.simulators.agreement_rules import POSITION_TYPES, PositionTypeFollowsCode
from env_server.simulators.card_stats import card_step
from env_server.simulators.draws import faker_pool
from env_server.simulators.vocab import Vocabulary
from tests.env_server.free_play import catalog, ok, session  # noqa: F401  (a fixture)


def test_an_uber_product_has_the_seats_sharing_and_description_of_its_tier(catalog: Catalog):
    tool = "uber_list_products"
    index = Vocabulary().index("ride_product")
    for lat in (40.7, 51.5, 19.4):
        for product in ok(session(catalog, tool), tool, latitude=lat, longitude=-0.1)["products"]:
            tier = index[product["display_name"].lower()]
            assert (product["capacity"], product["shared"], product["description"]) == (
                tier["capacity"], tier["shared"], tier["description"])
    assert index["uber moto"]["capacity"] == 1 and index["uberxl"]["capacity"] == 6
    assert not index["xl"]["shared"] and index["uberx share"]["shared"]


def test_an_exercise_search_suggests_exercises_named_for_the_term_in_their_category(catalog: Catalog):
    tool = "wger_search_exercises"
    index = Vocabulary().index("exercise_name")
    assert len(index) >= 300
    for term in ("squat", "curl", "leg press"):
        found = ok(session(catalog, tool), tool, term=term)["suggestions"]
        names = [s["name"] for s in found]
        assert names and all(term in n.lower() for n in names)
        assert len(set(names)) == len(names)  # three matches are listed once each, not cycled
        assert all(s["category"] == index[s["name"].lower()]["category"] for s in found)
    assert index["barbell back squat"]["category"] == "Legs"


def test_a_roster_lists_men_with_real_numbers_position_types_and_statuses(catalog: Catalog):
    tool = "mlb_stats_get_team_roster"
    men = {n.split(" ")[0] for n in faker_pool("name_male")}
    players = [p for team in (147, 121, 119) for p in ok(session(catalog, tool), tool, teamId=team)["roster"]]
    for player in players:
        assert 0 <= int(player["jerseyNumber"]) <= 99
        assert player["position_type"] == POSITION_TYPES[player["position_abbreviation"]]
        assert player["status_code"] == "A"  # the active roster, the default
        assert player["fullName"].split(" ")[0] in men


def test_a_position_type_that_disagrees_with_its_position_is_a_violation():
    rule = PositionTypeFollowsCode()
    shortstop = {"position_abbreviation": "SS", "position_type": "Pitcher", "status_code": "D10"}
    assert rule.violation(shortstop, {}) is not None
    rule.enforce(shortstop, {})
    assert shortstop["position_type"] == "Infielder" and shortstop["status_code"] == "A"
    assert rule.violation(shortstop, {}) is None


def test_cards_cost_what_hearthstone_prints_and_spells_show_no_stats(catalog: Catalog):
    tool = "hearthstone_search_cards"
    env = session(catalog, tool)
    for card in ok(env, tool)["cards"] + ok(env, tool, pageSize=40)["cards"]:
        assert 0 <= card["manaCost"] <= 10
        assert all(0 <= card.get(k, 0) <= 12 for k in ("attack", "health"))
    spells = ok(env, tool, type="spell")["cards"]
    assert spells and all("attack" not in c and "health" not in c for c in spells)
    texts = {r["text"]: r["type"] for r in Vocabulary().get("hearthstone_card_text").records}
    assert all(texts[c["text"]] == "spell" for c in spells)
    asked = ok(env, tool, manaCost=[1, 2], **{"class": "mage"}, rarity="epic")["cards"]
    assert asked and all(c["manaCost"] in (1, 2) and c["classSlug"] == "mage" and c["rarity"] == "epic" for c in asked)


def test_a_minion_has_about_twice_its_cost_plus_one_in_stats(catalog: Catalog):
    tool = "hearthstone_search_cards"
    minions = ok(session(catalog, tool), tool, type="minion", manaCost=[3], pageSize=40)["cards"]
    assert minions and all(5 <= c["attack"] + c["health"] <= 8 for c in minions)


def test_a_card_step_needs_an_integer_mana_cost_beside_card_fields():
    assert card_step({"mana_cost": {"type": "string"}, "rarity": {"type": "string"}}) is None  # Scryfall's "{2}{G}"
    assert card_step({"manaCost": {"type": "integer"}, "price": {"type": "number"}}) is None
    assert card_step({"manaCost": {"type": "integer"}, "attack": {"type": "integer"}}) is not None


def test_a_stored_card_read_back_keeps_its_type_and_stats(catalog: Catalog):
    tool = "hearthstone_search_cards"
    env = session(catalog, tool)
    assert ok(env, tool) == ok(env, tool)  # a spell stored without attack is not read back as a minion
