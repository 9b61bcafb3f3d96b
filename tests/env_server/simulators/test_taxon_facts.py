"""A taxon's rank, classification and authorship follow its name."""

from __future__ import annotations

import re

from env_server.environment import ToolEnvironment
from env_server.simulators.taxon_facts import authorship
from env_server.specs.lookup_checks import rank_hits
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)

ZOOLOGICAL = re.compile(r"^\(?[A-ZÀ-Ü][a-zà-ü]+, 1[78]\d\d\)?$")


def test_a_species_record_is_a_species_with_a_zoological_authorship(env: ToolEnvironment):
    for key in (1, 5, 2435099):
        taxon = call(env, "gbif_get_species", usage_key=key)
        assert len(taxon["scientific_name"].split()) == 2 and taxon["rank"] == "SPECIES"
        assert taxon["genus"] == taxon["scientific_name"].split()[0]
        if taxon["kingdom"] == "Animalia":
            assert ZOOLOGICAL.match(taxon["authorship"]), taxon["authorship"]


def test_plants_take_a_botanists_abbreviation_and_authorship_is_fixed_per_name():
    assert authorship("Quercus robur", "Plantae").endswith((".", "Kunth", "Sw."))
    assert authorship("Panthera leo", "Animalia") == authorship("Panthera leo", "Animalia")


def test_an_exact_name_match_carries_the_names_own_family(env: ToolEnvironment):
    match = call(env, "gbif_match_species_name", name="Panthera leo")
    assert (match["match_type"], match["rank"], match["family"]) == ("EXACT", "SPECIES", "Felidae")


def test_a_search_by_rank_lists_names_of_that_rank(env: ToolEnvironment):
    rows = call(env, "gbif_search_species", q="a", rank="GENUS")["results"]
    assert rows and all(len(r["scientific_name"].split()) == 1 and r["rank"] == "GENUS" for r in rows)


def test_the_audit_reports_a_binomial_ranked_as_a_genus():
    assert rank_hits("$", {"scientific_name": "Turdus migratorius", "rank": "GENUS"})
    assert not rank_hits("$", {"scientific_name": "Turdus", "rank": "GENUS"})
