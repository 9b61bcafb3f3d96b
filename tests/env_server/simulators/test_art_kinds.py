"""A museum object's classification is an art classification, not a web category."""

from __future__ import annotations

import datetime as dt

from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.simulators.art_kinds import art_kind
from env_server.simulators.naming import resolve_kind
from env_server.simulators.records import default_facts
from env_server.specs.samples import sample_arguments
from state import Database


def test_an_objects_classification_hinted_as_a_category_is_an_art_classification():
    assert resolve_kind("classification", "object", "records", {"classification": "category"}) == \
        "artwork_classification"


def test_a_classification_outside_a_collection_is_left_to_the_other_rules():
    assert art_kind("classification", "charity", "category") is None


def test_harvard_search_objects_are_classified_as_art(builtin_catalog: Catalog):
    classes = set(default_facts().vocab.get("artwork_classification").texts)
    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings())
    tool = "harvard_art_museums_search_objects"
    env.create_session(tools=[tool], session_id="s", seed=4, today=dt.date(2026, 12, 7))
    args = {k: v for k, v in sample_arguments(builtin_catalog.tools[tool]).items() if k != "classification"}
    records = env.call_tool("s", tool, args).result["records"]
    assert records and all(r["classification"] in classes for r in records)
