"""Procedural scenario generator over the built-in catalog's API families.

``generate_scenario(seed, GeneratorSettings(...))`` returns a 4-task ``ScenarioSpec`` in
WildToolBench style: the six task types (Single-Tool, Parallel / Sequential / Mixed
Multi-Tool, Clarify, Chat) with serial, parallel and mixed gold DAGs, the two
pseudo-actions, and a hidden-intent subtype on every task after the first.

* **Families.** The parts of a flow (search -> read -> create -> delete) are read from the
  ToolSpec profiles (``flows.py``); the words come from packs we wrote by hand for a
  curated allow-list of families (``packs.py``, ``phrases.py``).
* **Anchor linkage.** Later tasks point at what earlier calls returned ("book the second
  one", "cancel that booking", a title quoted back) and the gold arguments say so with
  ``{"$ref": "T.N:path"}``, resolved from the recorded observations.
* **Verifiable by construction.** Every gold call runs through ``ToolEnvironment`` with the
  scenario's seed and date while it is written (``compose.py``); replaying the file with
  ``record_scenario`` gives the same observations.
* **Sessions.** ``generated_scenario_load(seeds, settings)`` is a ``ScenarioLoad`` for
  ``ScenarioSessions``/``registry_for``; ``register_generated(registry, seed, settings)``
  adds one scenario to a live registry and returns it, so an RL ``reset(options={
  "generator": {...}, "seed": k})`` can do::

      spec = register_generated(registry, k, GeneratorSettings.model_validate(options["generator"]))
      session, first_turn = registry.create(spec.id)
"""

from env_server.generator.flows import Flow, GeneratorError, resolve_flow, supported_families
from env_server.generator.generate import (
    GeneratorSettings,
    generate_native,
    generate_scenario,
    generated_scenario_load,
    register_generated,
    scenario_id,
)

__all__ = [
    "Flow",
    "GeneratorError",
    "GeneratorSettings",
    "generate_native",
    "generate_scenario",
    "generated_scenario_load",
    "register_generated",
    "resolve_flow",
    "scenario_id",
    "supported_families",
]
