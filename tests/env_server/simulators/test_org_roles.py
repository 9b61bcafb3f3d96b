"""An organisation field names an organisation of its record's role: an IP's network, a
domain's registrar, an article's outlet, a car park (not an invented firm)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.simulators.naming import resolve_kind
from env_server.simulators.org_roles import role_kind
from env_server.simulators.records import default_facts
from env_server.specs.samples import sample_arguments
from state import Database


@pytest.mark.parametrize(("field", "entity", "parent", "kind"), [
    ("isp", "ip_location", "", "network_operator"),
    ("org", "host", "matches", "network_operator"),
    ("organizations", "dns_history_record", "records", "network_operator"),
    ("name", "asn", "", "network_operator"),
    ("registrar", "domain", "", "domain_registrar"),
    ("news_site", "article", "results", "news_outlet"),
    ("name", "article", "source", "news_outlet"),
    ("source", "news_article", "articles", "news_outlet"),
    ("Development", "carpark", "value", "parking_location"),
])
def test_a_company_field_of_a_role_draws_that_roles_names(field: str, entity: str, parent: str, kind: str):
    assert resolve_kind(field, entity, parent, {field: "company"}) == kind


@pytest.mark.parametrize(("field", "entity", "parent"), [
    ("organization", "whois_record", "contacts"),  # a registrant: any firm
    ("publisher", "book", "results"),
    ("source", "recipe", "hits"),
    ("company", "job", "results"),
])
def test_a_company_field_of_no_known_role_stays_a_company(field: str, entity: str, parent: str):
    assert role_kind(field, entity, parent, "company") is None


@given(st.sampled_from(["isp", "org", "registrar", "news_site", "source"]),
       st.sampled_from(["autonomous_system", "airline", "title", "tag"]))
def test_a_specific_hint_is_never_narrowed_to_a_role(field: str, hint: str):
    assert role_kind(field, "ip_article_domain", "", hint) is None


def _call(catalog: Catalog, tool: str, seed: int) -> Any:
    env = ToolEnvironment(catalog, Database(), ServerSettings())
    env.create_session(tools=[tool], session_id="s", seed=seed, today=dt.date(2026, 12, 7))
    outcome = env.call_tool("s", tool, sample_arguments(catalog.tools[tool]))
    assert not outcome.is_error, outcome.message
    return outcome.result


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_an_ip_lookups_network_and_an_articles_source_come_from_their_role_vocabularies(
        builtin_catalog: Catalog, seed: int):
    vocab = default_facts().vocab
    networks = set(vocab.get("network_operator").texts)
    host = _call(builtin_catalog, "shodan_get_host", seed)
    assert host["org"] in networks and host["isp"] in networks
    assert _call(builtin_catalog, "ipinfo_get_ip_details", seed)["org"] in networks
    outlets = _call(builtin_catalog, "spaceflightnews_list_articles", seed)["results"]
    assert outlets and all("{" not in a["news_site"] and not a["news_site"].endswith(("Ltd", "PLC", "Inc"))
                           for a in outlets)


def test_a_list_items_publication_moment_is_no_outlet():
    assert role_kind("publication", "wanted_poster", "item", None) is None
