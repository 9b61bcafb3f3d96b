"""Procedural scenario generator: sessions that compose two or three API families.

``generate_scenario(seed, GeneratorSettings(...))`` returns a 4-task ``ScenarioSpec`` in
WildToolBench style: the six task types (Single-Tool, Parallel / Sequential / Mixed
Multi-Tool, Clarify, Chat) with serial, parallel and fork-shaped gold DAGs, the two
pseudo-actions, and a hidden-intent subtype on every task after the first.

* **Packs as data.** The words and the anchors live in ``tool_specs/generator/*.json``
  (``packs.py`` validates them): per family, intents (one tool call over named slots), the
  user's phrasings, the assistant's replies quoting the result, what the result gives to
  later calls, and chat about it.
* **Anchor links.** A session draws 2-3 families linked by what one gives and another
  takes (``anchors.py``): a show's city and date feed the weather there that day; an
  airport's coordinates feed the tides nearby. Later gold arguments point at earlier
  results with ``{"$ref": "T.N:path"}``, and only at values an assistant reply showed.
* **Verifiable by construction.** Every gold call runs through ``ToolEnvironment`` with the
  scenario's seed and date while it is written (``compose.py``); replaying the file with
  ``record_scenario`` gives the same observations. Builders check a plan before calling,
  so there is one attempt per seed and no retry loop.
* **Sessions.** ``generated_scenario_load(seeds, settings)`` is a ``ScenarioLoad`` for
  ``ScenarioSessions``/``registry_for``; ``register_generated(registry, seed, settings)``
  adds one scenario to a live registry and returns it, so an RL ``reset(options={
  "generator": {...}, "seed": k})`` can do::

      spec = register_generated(registry, k, GeneratorSettings.model_validate(options["generator"]))
      session, first_turn = registry.create(spec.id)
"""

from env_server.generator.compose import GeneratorError
from env_server.generator.generate import (
    GeneratorSettings,
    available_packs,
    generate_native,
    generate_scenario,
    generated_scenario_load,
    register_generated,
    scenario_id,
)

__all__ = [
    "GeneratorError",
    "GeneratorSettings",
    "available_packs",
    "generate_native",
    "generate_scenario",
    "generated_scenario_load",
    "register_generated",
    "scenario_id",
]
