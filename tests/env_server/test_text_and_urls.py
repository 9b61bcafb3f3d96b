"""Text that belongs to the domain, and URLs on the provider's own host."""

from __future__ import annotations

from urllib.parse import urlparse

from env_server import ToolEnvironment
from env_server.catalog import Catalog
from env_server.simulators.records import default_facts
from env_server.simulators.sites import ProviderSites, own_site, registrable
from env_server.specs.audit_text import domain_text_hits, url_host_hits
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)


def test_docs_labels_come_off_the_link_host():
    assert registrable("api.gitguardian.com") == "gitguardian.com"
    assert registrable("api-docs.iqair.com") == "iqair.com"
    assert registrable("api.ratings.food.gov.uk") == "ratings.food.gov.uk"
    assert registrable("www.bbc.co.uk") == "bbc.co.uk"


def test_a_site_comes_from_the_link_or_from_the_override_for_shared_docs_hosts():
    sites = ProviderSites({"GitHub": {"web": "github.com", "cdn": "avatars.githubusercontent.com"}})
    assert sites.site_for("Frankfurter", "https://www.frankfurter.app/docs").web == "frankfurter.app"  # type: ignore[union-attr]
    assert sites.site_for("CoinGecko", "https://www.coingecko.com/api").web == "www.coingecko.com"  # type: ignore[union-attr]
    assert sites.site_for("GitHub", "https://docs.github.com/en/rest").cdn == "avatars.githubusercontent.com"  # type: ignore[union-attr]
    # A provider documented on GitHub with no override: its name, not github.com.
    assert sites.site_for("Quote Garden", "https://github.com/pprathameshmore/QuoteGarden").web == "www.quotegarden.com"  # type: ignore[union-attr]
    assert sites.site_for("wild_tool_bench_3", None) is None


def test_own_addresses_stay_off_the_provider_host():
    assert own_site("website", "brewery") and own_site("destination", "link") and own_site("url", "news_source")
    assert not own_site("gitguardian_url", "secret_incident") and not own_site("html_url", "issue")


def test_incident_urls_and_dog_images_are_on_the_providers_hosts(env: ToolEnvironment):
    incidents = call(env, "gitguardian_list_secret_incidents")["incidents"]
    assert incidents and all(urlparse(i["gitguardian_url"]).netloc == "dashboard.gitguardian.com" for i in incidents)
    images = call(env, "the_dog_api_search_images")["images"]
    assert images and all(urlparse(i["url"]).netloc == "cdn2.thedogapi.com" for i in images)


def test_a_news_source_keeps_its_own_website(env: ToolEnvironment):
    sources = call(env, "newsdata_list_sources")["results"]
    assert sources and all(urlparse(s["url"]).netloc != "newsdata.io" for s in sources)


def test_detectors_sections_and_place_types_come_from_their_domain(env: ToolEnvironment):
    vocab = default_facts().vocab
    detectors = set(vocab.get("secret_detector").values)
    for incident in call(env, "gitguardian_list_secret_incidents")["incidents"]:
        assert incident["detector_name"] in detectors
    sections = {r["section_id"]: r["section_name"] for r in vocab.get("news_section").records}
    for row in call(env, "guardian_search_content", q="climate")["results"]:
        assert row["section_id"] in sections
    osm_types = {r["type"] for r in vocab.get("osm_feature").records}
    for place in call(env, "nominatim_search", q="Berlin")["results"]:
        assert place["type"] in osm_types
    for event in call(env, "mhw_db_list_events")["events"]:
        assert event["requirements"] in set(vocab.get("quest_requirement").values)


def test_records_with_no_title_vocabulary_get_names_of_their_own_kind(env: ToolEnvironment):
    # A launch is not an office document ("Employee Handbook 2026").
    launches = call(env, "spacex_query_launches")["docs"]
    documents = set(default_facts().vocab.get("document_title").values)
    assert launches and not any(launch["name"] in documents for launch in launches)
    assert all(launch["name"].endswith("Launch") for launch in launches)


def test_the_text_checks_flag_catch_all_text_and_foreign_hosts(catalog: Catalog):
    spec = catalog.tools["gitguardian_list_secret_incidents"]
    catch_all = spec.model_copy(update={"profile": spec.profile.model_copy(
        update={"hints": {**spec.profile.hints, "detector_name": "tag"}})})
    assert [p for p, _ in domain_text_hits(catch_all)] == ["$.incidents[].detector_name"]
    assert domain_text_hits(spec) == []
    site = ProviderSites().site_for(spec.provider, spec.link)
    result = {"incidents": [{"gitguardian_url": "https://smith-jones.com/x"},
                            {"gitguardian_url": "https://dashboard.gitguardian.com/workspace/1/incidents/2"}]}
    hits = url_host_hits(result, spec, site, frozenset())
    assert [p for p, _ in hits] == ["$.incidents[0].gitguardian_url"]
    # The caller's own URL is theirs.
    assert url_host_hits(result, spec, site, frozenset({"https://smith-jones.com/x"})) == []
