"""The built-in catalog's quality bar: size, realism checks, state coverage, findability."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from env_server.catalog import Catalog
from env_server.catalog.models import Operation
from env_server.search import ToolSearchIndex
from env_server.specs.checks import check_catalog, schema_problem

QUERIES = json.loads((Path(__file__).parent / "fixtures" / "search_queries.json").read_text())


def test_builtin_catalog_is_full_size_and_passes_every_check(builtin_catalog: Catalog):
    report = check_catalog(builtin_catalog, simulate_outputs=False)
    assert report.errors == []
    assert len(builtin_catalog) >= 1500
    assert len(report.providers) >= 380
    assert len(report.by_category) >= 45
    assert report.warnings == [], report.warnings[:5]


def test_at_least_sixty_providers_write_and_every_written_entity_can_be_read(builtin_catalog: Catalog):
    ops: dict[tuple[str, str], set[Operation]] = defaultdict(set)
    for spec in builtin_catalog.tools.values():
        ops[(spec.family, spec.profile.entity)].add(spec.profile.operation)
    writers = {family for (family, _), kinds in ops.items() if any(k.writes for k in kinds)}
    assert len(writers) >= 60
    readers = {Operation.READ, Operation.SEARCH, Operation.LIST}
    family_reads = {family for (family, _), kinds in ops.items() if kinds & readers}
    assert sorted(writers - family_reads) == []
    # Things people come back to (a booking, an order, a playlist) must be readable by id or list;
    # fire-and-forget writes (send an email, trigger a build) need not be.
    stateful = ("booking", "order", "list", "playlist", "reminder", "cart", "ticket", "note",
                "reservation", "event", "watchlist", "subscription", "appointment", "task", "issue")
    unreadable = sorted(
        key for key, kinds in ops.items()
        if Operation.CREATE in kinds and not kinds & readers and any(w in key[1] for w in stateful)
    )
    assert unreadable == []


def test_catalog_covers_the_families_wildtoolbench_exercises_most(builtin_catalog: Catalog):
    families = {
        "weather": ("forecast",), "air quality": ("air_quality", "aqi"), "shows and events": ("show", "event"),
        "dictionaries": ("definition", "pronunciation"), "quotes": ("quote",), "news": ("article", "headline"),
        "orders": ("order",), "markets": ("market", "stock", "ticker"), "anime": ("anime",),
    }
    names = list(builtin_catalog.tools)
    missing = [fam for fam, words in families.items() if not any(w in n for n in names for w in words)]
    assert missing == []


def test_search_tools_finds_the_right_tool_in_the_top_five(builtin_catalog: Catalog):
    index = ToolSearchIndex(list(builtin_catalog.tools.values()))
    hits, misses = 0, []
    for case in QUERIES:
        assert all(name in builtin_catalog for name in case["expect"]), case
        top = [h.name for h in index.search(case["query"], limit=5)]
        if set(top) & set(case["expect"]):
            hits += 1
        else:
            misses.append((case["query"], top))
    rate = hits / len(QUERIES)
    print(f"search_tools top-5 hit rate: {hits}/{len(QUERIES)} = {rate:.2f}")
    assert len(QUERIES) == 50
    assert rate >= 0.8, misses


def test_an_invalid_schema_is_named_with_the_reason_and_a_valid_one_passes():
    assert schema_problem({"type": "object", "properties": {"days": {"type": "integer", "minimum": 1}}}) is None
    assert schema_problem({"type": "objectx"}) == "'objectx' is not valid under any of the given schemas"
    assert schema_problem({"type": "object", "properties": {"days": {"minimum": "one"}}}) == (
        "'one' is not of type 'number'")
