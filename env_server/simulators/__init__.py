"""Deterministic simulators behind every tool.

``simulate(spec, args, ctx)`` dispatches to the family module registered for the spec's
API family, falling back on the entity-aware one (``stateful``). Same (spec, args, ctx)
always gives the same result, byte for byte.

One call passes through one value engine, in layers:

* ``stateful``   the session's world: searches remember rows (``rows``), reads return them,
                 writes change them (``writes``), user-owned collections start seeded;
* ``generate``   one call's generation state; ``plans`` compiles each output schema once to
                 closures, one ``RecordScope`` per object (``records``), invariants per record;
* ``naming``     field name + entity -> value kind; ``values`` draws a kind;
* ``reference``  facts from data packages (places, airports, currencies, VINs, holidays);
  ``market``     one session's FX rates and prices; ``vocab`` our own words, as data;
* ``invariants`` the rules binding a record's fields, enforced here and checked by the
                 audit (``env_server/specs/audit.py``); ``ids`` ids shaped for readers.
"""

from __future__ import annotations

from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators.base import DEFAULT_TODAY, SimContext, Simulator
from env_server.simulators.stateful import CatalogRules, StateHandle, simulate_stateful

__all__ = ["DEFAULT_TODAY", "CatalogRules", "SimContext", "Simulator", "StateHandle", "simulate"]

# Family slug -> simulator; families not listed use the entity-aware one, which itself
# falls back on schema-driven generation when the context carries no world state.
FAMILIES: dict[str, Simulator] = {}


def simulate(spec: ToolSpec, args: dict[str, Any], ctx: SimContext) -> dict[str, Any]:
    if not FAMILIES:  # no family module registered: skip deriving the spec's family
        return simulate_stateful(spec, args, ctx)
    return FAMILIES.get(spec.family, simulate_stateful)(spec, args, ctx)
