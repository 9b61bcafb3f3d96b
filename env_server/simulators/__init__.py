"""Deterministic simulators behind every tool.

``simulate(spec, args, ctx)`` runs the entity-aware simulator (``stateful``) for every
tool. Same (spec, args, ctx) always gives the same result, byte for byte.

One call passes through one value engine, in layers:

* ``stateful``   the session's world: searches remember rows (``rows``), reads return them,
                 writes change them (``writes``), user-owned collections start seeded;
* ``generate``   one call's generation state; ``plans`` compiles each output schema once to
                 closures, one ``RecordScope`` per object (``records``), invariants per record,
                 its scalar leaves by ``leaf_plans``; ``echoes`` which arguments an answer repeats;
* ``naming``     field name + entity -> value kind; ``values`` draws a kind (built of ``draws``);
* ``reference``  facts from data packages (places, airports, currencies, VINs, holidays);
  ``market``     one session's FX rates and prices; ``vocab`` our own words, as data;
* ``invariants`` the rules binding a record's fields, enforced here and checked by the
                 audit (``env_server/specs/audit.py``); ``ids`` ids shaped for readers.
"""

from __future__ import annotations

from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators.base import DEFAULT_TODAY, SimContext
from env_server.simulators.stateful import CatalogRules, StateHandle, simulate_stateful

__all__ = ["DEFAULT_TODAY", "CatalogRules", "SimContext", "StateHandle", "simulate"]


def simulate(spec: ToolSpec, args: dict[str, Any], ctx: SimContext) -> dict[str, Any]:
    """The result of ``spec`` called with ``args`` in ``ctx``: the entity-aware simulator, which
    falls back on schema-driven generation when the context carries no world state."""
    return simulate_stateful(spec, args, ctx)
