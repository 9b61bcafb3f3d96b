"""Federal Register documents read like the Register's: one entry's title, abstract, type and
agencies, a citation of the publication year's volume, RINs in the agency's format."""

from __future__ import annotations

import datetime as dt
import json
import re
from importlib import resources

from hypothesis import given
from hypothesis import strategies as st

from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.simulators.fr_documents import FIRST_VOLUME_YEAR, citation_for
from state import Database

_RIN = re.compile(r"^\d{4}-[A-Z]{2}\d{2}$")


def _records(kind: str) -> list[dict]:
    return json.loads(resources.files("tool_specs").joinpath(f"vocab/{kind}.json").read_text())["records"]


@given(st.dates(min_value=dt.date(1994, 1, 1), max_value=dt.date(2030, 12, 31)), st.integers(0, 250))
def test_a_citation_names_the_volume_of_its_publication_year(day: dt.date, jitter: int):
    volume, fr, page = citation_for(day, jitter).split(" ")
    assert (int(volume), fr) == (day.year - FIRST_VOLUME_YEAR, "FR")
    assert 1 <= int(page) <= 100_250


def test_every_fr_document_entry_is_published_by_known_agencies_in_a_register_type():
    agencies = {r["name"] for r in _records("us_agency")}
    entries = _records("fr_document")
    assert len(entries) >= 100
    for entry in entries:
        assert set(entry["agencies"]) <= agencies
        assert entry["type"] in {"Rule", "Proposed Rule", "Notice", "Presidential Document"}
        assert re.fullmatch(r"\d{4}", entry["rin_prefix"])


def test_a_federal_register_document_is_one_entry_cited_by_its_date_with_rins_for_rules():
    by_title = {}
    for entry in _records("fr_document"):
        by_title.setdefault(entry["title"], []).append(entry)
    env = ToolEnvironment(load_catalog(), Database(), ServerSettings())
    tools = ["federalregister_get_document", "federalregister_search_documents"]
    for seed in range(6):
        env.create_session(tools=tools, session_id=f"s{seed}", seed=seed, today=dt.date(2026, 12, 7))
        doc = env.call_tool(f"s{seed}", tools[0], {"document_number": f"2025-0{seed}123"}).result
        entry = next(e for e in by_title[doc["title"]] if e["abstract"] == doc["abstract"])
        assert (doc["type"], doc["agencies"]) == (entry["type"], entry["agencies"])
        volume = int(doc["citation"].split(" FR ")[0])
        assert volume == int(doc["publication_date"][:4]) - FIRST_VOLUME_YEAR
        rins = doc["regulation_id_numbers"]
        assert all(_RIN.match(r) and r.startswith(entry["rin_prefix"]) for r in rins)
        assert bool(rins) == (doc["type"] in {"Rule", "Proposed Rule"})
        for row in env.call_tool(f"s{seed}", tools[1], {}).result["results"]:
            assert any(e["abstract"] == row["abstract"] and e["type"] == row["type"] for e in by_title[row["title"]])
