"""The audit reports records whose fields contradict each other: trackers, shelter animals, museum objects."""

from __future__ import annotations

from env_server.catalog import Catalog
from env_server.specs.agreement_checks import agreement_hits


def test_the_audit_reports_an_open_issue_with_a_closing_date_and_reason(builtin_catalog: Catalog):
    spec = builtin_catalog.tools["github_get_issue"]
    bad = {"state": "open", "state_reason": "not_planned", "closed_at": "2026-01-02T00:00:00Z",
           "created_at": "2026-01-01T00:00:00Z"}
    assert len(agreement_hits(spec, bad)) == 2
    assert agreement_hits(spec, {**bad, "state": "closed"}) == []
    early = {"state": "closed", "created_at": "2026-01-05T00:00:00Z", "closed_at": "2026-01-02T00:00:00Z"}
    assert agreement_hits(spec, early)


def test_the_audit_reports_a_rabbit_of_a_dog_breed(builtin_catalog: Catalog):
    spec = builtin_catalog.tools["petfinder_search_animals"]
    assert agreement_hits(spec, {"animals": [{"type": "Rabbit", "breed_primary": "Affenpinscher"}]})
    assert agreement_hits(spec, {"animals": [{"type": "Rabbit", "breed_primary": "Holland Lop"}]}) == []


def test_the_audit_reports_an_animal_whose_size_is_not_its_breeds(builtin_catalog: Catalog):
    spec = builtin_catalog.tools["petfinder_search_animals"]
    bedlington = {"type": "Dog", "breed_primary": "Bedlington Terrier"}
    assert agreement_hits(spec, {"animals": [{**bedlington, "size": "Extra Large"}]})
    assert agreement_hits(spec, {"animals": [{**bedlington, "size": "Medium"}]}) == []
    assert agreement_hits(spec, {"animals": [{"type": "Dog", "breed_primary": "Irish Setter", "size": "Small"}]})


def test_the_audit_reports_a_recent_work_in_the_public_domain_and_a_medium_its_department_lacks(
        builtin_catalog: Catalog):
    spec = builtin_catalog.tools["met_museum_get_object"]
    bad = {"objectDate": "2012", "isPublicDomain": True, "department": "The Costume Institute",
           "medium": "Watercolor on paper"}
    assert len(agreement_hits(spec, bad)) == 2
    good = {"objectDate": "ca. 1450 B.C.", "isPublicDomain": True, "department": "Egyptian Art", "medium": "Faience"}
    assert agreement_hits(spec, good) == []
