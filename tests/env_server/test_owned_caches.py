"""Caches belong to instances: what is derived from a catalog lives and dies with it, and
two catalogs (and their environments) in one process share no derived state."""

from __future__ import annotations

import datetime as dt
import gc
import weakref

from env_server.catalog import Catalog
from env_server.config import FREE_SESSION, ServerSettings
from env_server.environment import ToolEnvironment
from env_server.generator.generate import GeneratorSettings, available_packs
from env_server.simulators.generate import Generation
from env_server.simulators.plans import plans_of
from state import Database
from state.store import Durability

SEARCH = "ticketmaster_search_shows"


def _small_catalog(builtin: Catalog) -> Catalog:
    names = [n for n in builtin.tools if n.startswith(("ticketmaster_", "tmdb_"))]
    return Catalog(tools={n: builtin.tools[n] for n in names},
                   validators={n: builtin.validators[n] for n in names if n in builtin.validators})


def _env(catalog: Catalog) -> ToolEnvironment:
    return ToolEnvironment(catalog, Database(), ServerSettings(durability=Durability.EPHEMERAL))


def test_two_catalogs_keep_their_own_rules_index_plans_and_flows(builtin_catalog: Catalog):
    one, two = _small_catalog(builtin_catalog), _small_catalog(builtin_catalog)
    env_one, env_two = _env(one), _env(two)
    assert env_one.rules is not env_two.rules
    assert _env(one).rules is env_one.rules  # environments over one catalog share its rules
    assert not env_one.call_tool(FREE_SESSION, SEARCH, {"city": "Las Vegas"}).is_error
    assert plans_of(one) and not plans_of(two)  # compiled for the catalog that served the call
    assert all(entry[0] is not None for entry in plans_of(one).values())
    settings = GeneratorSettings.model_validate({"families": ["ticketmaster"]})
    assert available_packs(one, settings)
    assert "generator_tools" in one.derived and "generator_tools" not in two.derived


def test_a_dropped_catalog_and_environment_are_freed_with_their_caches(builtin_catalog: Catalog):
    catalog = _small_catalog(builtin_catalog)
    env = _env(catalog)
    assert not env.call_tool(FREE_SESSION, SEARCH, {"city": "Las Vegas"}).is_error
    assert not env.call_tool(FREE_SESSION, "search_tools", {"query": "concert tickets"}).is_error
    available_packs(catalog, GeneratorSettings.model_validate({"families": ["ticketmaster"]}))
    catalog_ref, env_ref = weakref.ref(catalog), weakref.ref(env)
    del catalog, env
    gc.collect()
    assert catalog_ref() is None and env_ref() is None


def test_a_generation_without_an_owner_compiles_into_its_own_cache():
    schema = {"type": "object", "properties": {"city": {"type": "string"}, "price": {"type": "number"}}}
    first = Generation(seed=1, today=dt.date(2026, 1, 1), args={})
    second = Generation(seed=1, today=first.today, args={})
    assert first.fill(schema) == second.fill(schema)  # the same plan, compiled twice
    assert first.plans and first.plans is not second.plans
