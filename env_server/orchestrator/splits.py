"""Which scenarios are evaluation (test) split: their gold is revealed only with the admin token.

Every route that reveals whether a call matches gold (verdicts, rewards, success flags,
labels, observations recorded from gold, forks of a world holding them) asks
:func:`is_test_split` of the scenario it serves, and demands the admin token when it says
yes. Generated scenarios (``env_server.generator``) are made fresh from a seed and are open.

Scenarios carry no ``split`` field yet, so every scenario that was loaded rather than
generated (the built-in set, ``--scenarios`` files, official WildToolBench JSONL) is test
split. When scenarios gain a ``split`` field, this function reads it and nothing else changes.
"""

from __future__ import annotations

from env_server.orchestrator.models import ScenarioSpec

GENERATED_ORIGIN = "generator:"


def is_test_split(spec: ScenarioSpec) -> bool:
    """Whether ``spec`` belongs to the evaluation split (today: every non-generated scenario)."""
    return not spec.origin.startswith(GENERATED_ORIGIN)
