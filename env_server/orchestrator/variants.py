"""Grade the held-out style variants of native scenarios: accept variants must pass, reject ones fail.

A variant replaces the arguments of some gold nodes of one task. It is played along the task's
first optimal gold path (text steps as gold) and scored by native grading, the way a live or
offline run would be. ``toolenv scenarios check`` and the test suite both call
:func:`grade_variants`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from env_server.orchestrator.gold import gold_task
from env_server.orchestrator.models import ScenarioSpec, TaskSpec, Variant
from env_server.scoring import ASK, PREPARE, GoldTask, PathEngine, PredictedCall, PredictedStep, score_task

ACCEPT = "accept"
REJECT = "reject"


@dataclass(frozen=True)
class VariantOutcome:
    """One variant graded: ``ok`` when accept passed or reject failed."""

    task: int
    kind: str
    index: int
    why: str
    correct: bool
    reason: str

    @property
    def ok(self) -> bool:
        return self.correct is (self.kind == ACCEPT)


def variant_steps(gold: GoldTask, variant: Variant) -> list[PredictedStep]:
    """The gold path's steps with the variant's arguments in place of gold's."""
    steps = []
    for step in PathEngine.from_task(gold).first_optimal_path():
        first = gold.nodes[step[0]]
        if first.name in (ASK, PREPARE):
            steps.append(PredictedStep.text(first.observation or "Done."))
            continue
        calls = [PredictedCall(name=gold.nodes[i].name, arguments=_arguments_json(variant, i, gold)) for i in step]
        steps.append(PredictedStep(calls=tuple(calls)))
    return steps


def _arguments_json(variant: Variant, index: int, gold: GoldTask) -> str:
    args: dict[str, Any] = variant.nodes.get(index, gold.nodes[index].arguments)
    return json.dumps(args, ensure_ascii=False)


def grade_task_variants(task: TaskSpec, position: int, tools: list[dict[str, Any]]) -> list[VariantOutcome]:
    if task.variants is None:
        return []
    gold = gold_task(task, position, tools)
    out = []
    for kind, variants in ((ACCEPT, task.variants.accept), (REJECT, task.variants.reject)):
        for k, variant in enumerate(variants):
            score = score_task(gold, variant_steps(gold, variant))
            failed = score.grade.first_failed
            reason = failed.message if failed is not None else (score.error.reason.value if score.error else "correct")
            out.append(VariantOutcome(position, kind, k, variant.why, score.correct, reason))
    return out


def grade_variants(spec: ScenarioSpec, tools: list[dict[str, Any]]) -> list[VariantOutcome]:
    """Every variant of every task of ``spec``, graded natively (``tools``: OpenAI function tools)."""
    return [o for t, task in enumerate(spec.tasks) for o in grade_task_variants(task, t, tools)]


MIN_VARIANTS = 2


def variation_ways(task: TaskSpec, schemas: dict[str, dict[str, Any]]) -> int:
    """Kinds of reasonable variation the task's calls admit (capped at what the check asks for).

    Key order (a call with two or more arguments), each match rule, an optional parameter with a
    default that gold leaves out, a literal string argument (case and spacing). A call that only
    passes an id from an earlier result admits none: there is no other reasonable way to write it.
    """
    ways = 0
    for node in task.nodes:
        if not node.is_tool_call:
            continue
        args = node.action.arguments
        schema = schemas.get(node.action.name) or {}
        props = schema.get("properties") or {}
        ways += len(args) >= 2
        ways += len(node.match or {})
        ruled = set(node.match or {})
        ways += any("default" in p and k not in args and k not in ruled and k not in (schema.get("required") or [])
                    for k, p in props.items() if isinstance(p, dict))
        ways += any(isinstance(v, str) and v != v.lower() and "enum" not in (props.get(k) or {})
                    for k, v in args.items())
    return ways


def missing_variants(spec: ScenarioSpec, tools: list[dict[str, Any]]) -> list[str]:
    """Test-split tasks with tool calls need two reject variants and two accept variants (fewer
    accept ones only when the calls admit fewer kinds of variation, see :func:`variation_ways`)."""
    schemas = {t["function"]["name"]: t["function"].get("parameters") or {} for t in tools}
    out = []
    for t, task in enumerate(spec.tasks):
        if not any(node.is_tool_call for node in task.nodes):
            continue
        accept = len(task.variants.accept) if task.variants else 0
        reject = len(task.variants.reject) if task.variants else 0
        need = min(MIN_VARIANTS, variation_ways(task, schemas))
        if accept < need or reject < MIN_VARIANTS:
            out.append(f"task {t}: a test-split task needs >= {need} accept and >= {MIN_VARIANTS} reject "
                       f"variants, has {accept} and {reject}")
    return out
