"""Which scenarios are evaluation (test) split: their gold is revealed only with the admin token.

Every route that reveals whether a call matches gold (verdicts, rewards, success flags,
labels, observations recorded from gold, forks of a world holding them) asks
:func:`is_test_split` of the scenario it serves, and demands the admin token when it says
yes.

The answer: generated scenarios (``env_server.generator``) are made fresh from a seed and are
open (train). A scenario that declares ``split`` (every native file must) is what it declares.
A loaded scenario that declares nothing (official WildToolBench JSONL) is test split: an
undeclared held-out set stays guarded.
"""

from __future__ import annotations

from env_server.orchestrator.models import ScenarioSpec, Split

GENERATED_ORIGIN = "generator:"


def is_test_split(spec: ScenarioSpec) -> bool:
    """Whether ``spec`` belongs to the evaluation split."""
    if spec.origin.startswith(GENERATED_ORIGIN):
        return False
    return spec.split is not Split.TRAIN
