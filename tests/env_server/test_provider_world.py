"""Whole providers a person who knows the API believes: geocoders, NVD, Censys, OpenUV."""

from __future__ import annotations

import pytest

from env_server.environment import ToolEnvironment
from env_server.simulators.reference import haversine_km
from env_server.simulators.security_kinds import parse_vector, severity_of
from env_server.specs.provider_checks import cvss_hits, service_hits, service_ports, uv_hits
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)


def test_a_forward_geocode_answers_the_place_asked_for(env: ToolEnvironment):
    found = call(env, "mapbox_forward_geocode", q="Berlin", limit=3)["features"]
    assert found, "Berlin is a place"
    assert all(f["name"] == "Berlin" for f in found)
    assert haversine_km(found[0]["latitude"], found[0]["longitude"], 52.52, 13.40) < 15


def test_a_forward_geocode_lists_namesakes_largest_first(env: ToolEnvironment):
    found = call(env, "mapbox_forward_geocode", q="London", limit=5)["features"]
    assert [f["country_code"] for f in found][:2] == ["GB", "CA"]


def test_a_forward_geocode_for_no_known_place_answers_nothing_rather_than_somewhere_else(env: ToolEnvironment):
    assert call(env, "mapbox_forward_geocode", q="Eiffel Tower")["features"] == []


def test_an_autocomplete_prefix_finds_the_places_it_starts(env: ToolEnvironment):
    rows = call(env, "weatherapi_search_locations", q="lond")["results"]
    assert rows and all(r["name"].lower().startswith("lond") for r in rows)


def test_known_cvss_vectors_score_as_the_specification_says():
    for vector, score in (("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", 9.8),
                          ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H", 10.0),
                          ("CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N", 6.1),
                          ("CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H", 7.8)):
        parsed = parse_vector(vector)
        assert parsed is not None and parsed.base_score == score


@pytest.mark.parametrize("cve", ["CVE-2021-44228", "CVE-2023-1111", "CVE-2024-20067", "CVE-2019-0708"])
def test_an_nvd_record_scores_its_vector_and_rates_its_score(env: ToolEnvironment, cve: str):
    cvss = call(env, "nvd_get_cve", cveId=cve)["cvssV31"]
    parsed = parse_vector(cvss["vectorString"])
    assert parsed is not None, cvss["vectorString"]
    assert cvss["baseScore"] == parsed.base_score
    assert cvss["baseSeverity"] == severity_of(cvss["baseScore"])
    assert cvss["exploitabilityScore"] <= 3.9 and 0 <= cvss["impactScore"] <= 6.1


def test_an_nvd_search_by_severity_answers_scores_in_that_band(env: ToolEnvironment):
    env.create_session(tools=["nvd_search_cves"], seed=5, session_id="nvd_fresh")
    outcome = env.call_tool("nvd_fresh", "nvd_search_cves", {"cvssV3Severity": "LOW"})
    assert not outcome.is_error, outcome.message
    rows = outcome.result["vulnerabilities"]
    assert rows and all(r["baseSeverity"] == "LOW" and 0.1 <= r["baseScore"] <= 3.9 for r in rows)


@pytest.mark.parametrize("ip", ["181.142.96.121", "63.14.29.196", "8.8.8.8"])
def test_censys_services_run_on_their_protocols_ports(env: ToolEnvironment, ip: str):
    services = call(env, "censys_view_host", ip=ip)["services"]
    for s in services:
        assert s["port"] in service_ports()[s["service_name"]], s


def test_censys_buckets_are_values_of_the_aggregated_field(env: ToolEnvironment):
    buckets = call(env, "censys_aggregate_hosts", field="services.service_name")["buckets"]
    keys = [b["key"] for b in buckets]
    assert keys and set(keys) <= set(service_ports()) and len(set(keys)) == len(keys)


@pytest.mark.parametrize(("lat", "lng"), [(42.3584, -71.0598), (-33.87, 151.21), (1.29, 103.85)])
def test_a_uv_forecast_steps_in_time_and_peaks_at_solar_noon(env: ToolEnvironment, lat: float, lng: float):
    rows = call(env, "openuv_get_uv_forecast", lat=lat, lng=lng)["result"]
    times = [r["uv_time"] for r in rows]
    assert times == sorted(times) and len(set(times)) == len(times)
    now = call(env, "openuv_get_uv_index", lat=lat, lng=lng)
    assert now["uv_max"] >= max(r["uv"] for r in rows) and now["uv_max"] >= now["uv"]
    noon_utc_hour = int(now["uv_max_time"][11:13]) + int(now["uv_max_time"][14:16]) / 60
    assert abs((noon_utc_hour - (12 - lng / 15) + 12) % 24 - 12) < 0.5  # the sun is highest at local solar noon


def test_the_provider_check_reports_what_a_security_analyst_would_not_believe():
    assert cvss_hits("$", {"baseScore": 1.16, "baseSeverity": "CRITICAL"})
    assert cvss_hits("$", {"baseScore": 5.0, "vectorString": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"})
    assert not cvss_hits("$", {"baseScore": 9.8, "baseSeverity": "CRITICAL",
                               "vectorString": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"})
    assert service_hits("$", {"service_name": "SSH", "port": 443})
    assert not service_hits("$", {"service_name": "SSH", "port": 22})
    assert uv_hits("$", {"result": [{"uv": 1, "uv_time": "2026-01-15T12:00:00Z"},
                                    {"uv": 2, "uv_time": "2026-01-15T09:00:00Z"}]})
