"""``generate_scenario(seed, settings)``: the public entry point, and session registration.

Determinism: everything random comes from one ``random.Random`` seeded with a string made
of the seed and the settings (string seeds hash with SHA-512, so the result does not depend
on ``PYTHONHASHSEED``), and the simulator is seeded with ``seed``. Same seed and settings,
same scenario JSON. There is one attempt per seed: builders check a plan before running a
call (``tasks.py``), so nothing is retried.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import random

from pydantic import BaseModel, ConfigDict, Field

from env_server.catalog import Catalog, load_catalog
from env_server.generator import phrases as ph
from env_server.generator.anchors import pick_families
from env_server.generator.compose import Composer, GeneratorError
from env_server.generator.packs import Library, Pack, library
from env_server.generator.tasks import FIRST, LATER, LINKING
from env_server.orchestrator.loading import ScenarioLoad
from env_server.orchestrator.models import ScenarioSpec, TaskType, TurnSubtype
from env_server.orchestrator.native import NativeScenarioFile, to_scenario_spec
from env_server.orchestrator.sessions import ScenarioSessions
from env_server.orchestrator.splits import GENERATED_ORIGIN

TASKS_PER_SCENARIO = 4
FIRST_DATE = dt.date(2026, 1, 5)
DATE_SPAN_DAYS = 330
# Task-type weights, close to WildToolBench's shares (a quarter each of Single, Clarify, Chat
# and multi-tool; among multi-tool mostly Parallel, then Mixed, few Sequential).
FIRST_WEIGHTS = {TaskType.SINGLE_TOOL: 24, TaskType.CLARIFY: 28, TaskType.PARALLEL: 18, TaskType.SEQUENTIAL: 5,
                 TaskType.MIXED: 25}
LATER_WEIGHTS = {TaskType.CHAT: 28, TaskType.SINGLE_TOOL: 18, TaskType.CLARIFY: 26, TaskType.PARALLEL: 13,
                 TaskType.SEQUENTIAL: 3, TaskType.MIXED: 12}
LINK_FIRST = 0.85  # chance that a one-family session tries builders that bring in a partner family first
COREF_SHARE = 0.58  # of the tasks that are not long-range: WildToolBench has 343 coreference to 237 partial


class GeneratorSettings(BaseModel):
    """What the RL env passes as ``options["generator"]``; every field is optional."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    families: tuple[str, ...] | None = Field(
        default=None, description="Families to draw from (default: every family with a phrase pack)."
    )
    task_types: tuple[TaskType, ...] | None = Field(
        default=None, description="Task types allowed (default: all six). The first task is never Chat."
    )
    two_round_clarify: float = Field(
        default=0.25, ge=0.0, le=1.0, description="Chance that a Clarify task needs a second question."
    )
    long_range: float = Field(
        default=0.7, ge=0.0, le=1.0, description="Chance that task 3 refers back to task 0."
    )
    id_prefix: str = Field(default="gen", pattern=r"^[a-z][a-z0-9]{1,15}$", description="Scenario id prefix.")

    def digest(self) -> str:
        """Short digest of non-default settings ('' for the defaults)."""
        data = self.model_dump(mode="json", exclude_defaults=True)
        data.pop("id_prefix", None)
        if not data:
            return ""
        return hashlib.sha256(repr(sorted(data.items())).encode()).hexdigest()[:8]


@functools.lru_cache(maxsize=1)
def _builtin_catalog() -> Catalog:
    return load_catalog()


def scenario_id(seed: int, settings: GeneratorSettings) -> str:
    digest = settings.digest()
    return f"{settings.id_prefix}_{seed}" + (f"_{digest}" if digest else "")


def family_tools(catalog: Catalog, family: str) -> tuple[str, ...]:
    """The native tools of ``family`` in this catalog (cached on the catalog)."""
    cache: dict[str, tuple[str, ...]] = catalog.derived.get("generator_tools", dict)
    if family not in cache:
        cache[family] = tuple(t.name for t in catalog.tools.values()
                              if t.family == family and t.source.value == "native")
    return cache[family]


def available_packs(catalog: Catalog, settings: GeneratorSettings, lib: Library | None = None
                    ) -> list[tuple[Pack, tuple[str, ...]]]:
    """The packs the settings allow whose every intent's tool is in ``catalog``, with their family's tools."""
    lib = lib or library()
    wanted = settings.families or tuple(p.family for p in lib.packs)
    unknown = [f for f in wanted if f not in lib.by_family]
    if unknown:
        raise GeneratorError(f"no phrase pack for famil(y/ies) {unknown}; known: {sorted(lib.by_family)}")
    out = []
    for family in wanted:
        pack, tools = lib.by_family[family], family_tools(catalog, family)
        if all(intent.tool in tools for intent in pack.intents):
            out.append((pack, tools))
    if not out:
        raise GeneratorError(f"none of the families {list(wanted)} has its tools in this catalog")
    return out


def generate_native(seed: int, settings: GeneratorSettings | None = None, catalog: Catalog | None = None
                    ) -> NativeScenarioFile:
    """The generated scenario as a native file (observations recorded), ready to write or load."""
    settings = settings or GeneratorSettings()
    catalog = catalog or _builtin_catalog()
    if seed < 0:
        raise GeneratorError(f"seed must be >= 0, got {seed}")
    lib = library()
    packs = available_packs(catalog, settings, lib)
    allowed = list(settings.task_types or list(TaskType))
    if not any(t in FIRST for t in allowed):
        raise GeneratorError("task_types must allow at least one tool-using type for the first task")
    rng = random.Random(f"toolenv-generator|{seed}|{settings.digest()}")
    families = pick_families(lib, [p for p, _ in packs], rng)
    tools = [name for f in families for name in family_tools(catalog, f)]
    day = FIRST_DATE + dt.timedelta(days=rng.randrange(DATE_SPAN_DAYS))
    moment = dt.datetime.combine(day, dt.time(rng.randint(8, 21), rng.choice((0, 15, 30, 45))))
    composer = Composer(catalog, lib, families, tools, rng, seed, day, settings.two_round_clarify)
    try:
        _compose(composer, allowed, settings)
    finally:
        composer.close()
    topics = ph.join_names([lib.by_family[f].topic for f in composer.used_families])
    return NativeScenarioFile(
        id=scenario_id(seed, settings),
        title=f"Generated: {topics} (seed {seed}).",
        split="train",
        env_info=moment.strftime("%Y-%m-%d %H:%M:%S %A"),
        seed=seed,
        tools=tools,
        tasks=composer.tasks,
    )


def _compose(c: Composer, allowed: list[TaskType], settings: GeneratorSettings) -> None:
    for i in range(TASKS_PER_SCENARIO):
        weights = FIRST_WEIGHTS if i == 0 else LATER_WEIGHTS
        seen = [t.type for t in c.tasks]
        # A type the session already has is less likely again (WildToolBench: about one Chat and one Clarify per session).
        kinds = _weighted_order(c.rng, {t: w / (1 + 3 * seen.count(t)) for t, w in weights.items() if t in allowed})
        subtypes = _subtypes(c.rng, i, settings)
        if not _build_task(c, i, kinds, subtypes):
            raise GeneratorError(f"task {i}: no task of types {[k.value for k in kinds]} fits families "
                                 f"{c.families}; allow more task types or families")
        if i == 0:
            greeting = ph.pick(c.rng, ph.GREETINGS)
            c.tasks[0].user = ph.attach(greeting, c.tasks[0].user)


def _weighted_order(rng: random.Random, weights: dict[TaskType, float]) -> list[TaskType]:
    """Task types in a random order where a heavier type tends to come first."""
    keyed = sorted(weights, key=lambda t: rng.random() ** (1.0 / weights[t]), reverse=True)
    return keyed


def _subtypes(rng: random.Random, i: int, settings: GeneratorSettings) -> list[TurnSubtype | None]:
    """The hidden-intent subtypes task ``i`` may take, in the order to try them."""
    if i == 0:
        return [None]
    pair = [TurnSubtype.COREFERENCE, TurnSubtype.PARTIAL]
    if rng.random() >= COREF_SHARE:
        pair.reverse()
    subtypes: list[TurnSubtype | None] = list(pair)
    if i == 3:
        subtypes.insert(0 if rng.random() < settings.long_range else 2, TurnSubtype.LONG_RANGE)
    return subtypes


def _build_task(c: Composer, i: int, kinds: list[TaskType], subtypes: list[TurnSubtype | None]) -> bool:
    """Try each kind, for each subtype, until a builder writes task ``i`` (builders check before they call).

    While the session has used one family only, a first pass (most of the time) tries only the
    builders that take an earlier result into another intent, so sessions compose families."""
    table = FIRST if i == 0 else LATER
    passes = [table]
    if i > 0 and len(c.used_families) < 2 and len(c.families) > 1 and c.rng.random() < LINK_FIRST:
        passes.insert(0, {k: tuple(b for b in bs if b in LINKING) for k, bs in table.items()})
    for builders_of in passes:
        for kind in kinds:
            for subtype in subtypes:
                if any(build(c, i, subtype) is not None for build in builders_of.get(kind, ())):
                    return True
    return False


def generate_scenario(seed: int, params: GeneratorSettings | None = None, catalog: Catalog | None = None
                      ) -> ScenarioSpec:
    """A fresh, validated-by-construction scenario for ``seed`` (same seed, same scenario)."""
    spec = to_scenario_spec(generate_native(seed, params, catalog), origin=f"{GENERATED_ORIGIN}seed={seed}")
    if spec.load_problems:
        raise GeneratorError(f"seed {seed}: generated references do not resolve: {spec.load_problems}")
    return spec


def generated_scenario_load(seeds: list[int] | range, params: GeneratorSettings | None = None,
                            catalog: Catalog | None = None) -> ScenarioLoad:
    """A ``ScenarioLoad`` of generated scenarios, for ``ScenarioSessions`` / ``registry_for``."""
    return ScenarioLoad(scenarios=[generate_scenario(s, params, catalog) for s in seeds])


def register_generated(sessions: ScenarioSessions, seed: int, params: GeneratorSettings | None = None) -> ScenarioSpec:
    """Make the scenario of ``seed`` playable in an existing registry; returns it (id = ``spec.id``).

    Idempotent: a scenario already registered under the same id is returned as is.
    """
    params = params or GeneratorSettings()
    known = sessions.scenarios.get(scenario_id(seed, params))
    if known is not None:
        return known
    spec = generate_scenario(seed, params, sessions.env.catalog)
    sessions.scenarios.scenarios.append(spec)
    return spec
