"""Deterministic simulators behind every tool.

``simulate(spec, args, ctx)`` dispatches to the family module registered for the spec's
API family, falling back on the generic schema-driven family. Same (spec, args, ctx)
always gives the same result, byte for byte.
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
