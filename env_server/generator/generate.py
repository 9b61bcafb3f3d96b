"""``generate_scenario(seed, settings)``: the public entry point, and session registration.

Determinism: everything random comes from one ``random.Random`` seeded with a string made
of the seed, the attempt number and the settings (string seeds hash with SHA-512, so the
result does not depend on ``PYTHONHASHSEED``), and the simulator is seeded with ``seed``.
Same seed and settings, same scenario JSON.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import random

from pydantic import BaseModel, ConfigDict, Field

from env_server.catalog import Catalog, load_catalog
from env_server.generator import phrases as ph
from env_server.generator.compose import Composer, Retry
from env_server.generator.flows import Flow, GeneratorError, resolve_flow
from env_server.generator.packs import PACKS, PACKS_BY_FAMILY, Pack
from env_server.generator.tasks import FIRST, FRESH_SEARCH, LATER
from env_server.orchestrator.loading import ScenarioLoad
from env_server.orchestrator.models import ScenarioSpec, TaskType, TurnSubtype
from env_server.orchestrator.native import NativeScenarioFile, to_scenario_spec
from env_server.orchestrator.sessions import ScenarioSessions
from env_server.orchestrator.splits import GENERATED_ORIGIN

TASKS_PER_SCENARIO = 4
MAX_ATTEMPTS = 8
FIRST_DATE = dt.date(2026, 1, 5)
DATE_SPAN_DAYS = 330
ANCHOR_FIRST = 0.8  # chance that builders linking to earlier results are tried before fresh searches


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
        default=0.45, ge=0.0, le=1.0, description="Chance that task 3 refers back to task 0 when it can."
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


def _flow(catalog: Catalog, family: str) -> Flow | None:
    """``resolve_flow`` scans the whole catalog, so the catalog keeps each family's flow."""
    flows: dict[str, Flow | None] = catalog.derived.get("generator_flows", dict)
    if family not in flows:
        flows[family] = resolve_flow(catalog, family)
    return flows[family]


def scenario_id(seed: int, settings: GeneratorSettings) -> str:
    digest = settings.digest()
    return f"{settings.id_prefix}_{seed}" + (f"_{digest}" if digest else "")


def available_packs(catalog: Catalog, settings: GeneratorSettings) -> list[tuple[Pack, Flow]]:
    wanted = settings.families or tuple(p.family for p in PACKS)
    unknown = [f for f in wanted if f not in PACKS_BY_FAMILY]
    if unknown:
        raise GeneratorError(f"no phrase pack for famil(y/ies) {unknown}; known: {sorted(PACKS_BY_FAMILY)}")
    out = []
    for family in wanted:
        flow = _flow(catalog, family)
        if flow is not None:
            out.append((PACKS_BY_FAMILY[family], flow))
    if not out:
        raise GeneratorError(f"none of the families {list(wanted)} has a usable flow in this catalog")
    return out


def generate_native(seed: int, settings: GeneratorSettings | None = None, catalog: Catalog | None = None
                    ) -> NativeScenarioFile:
    """The generated scenario as a native file (observations recorded), ready to write or load."""
    settings = settings or GeneratorSettings()
    catalog = catalog or _builtin_catalog()
    if seed < 0:
        raise GeneratorError(f"seed must be >= 0, got {seed}")
    packs = available_packs(catalog, settings)
    allowed = list(settings.task_types or list(TaskType))
    if not any(t in FIRST for t in allowed):
        raise GeneratorError("task_types must allow at least one tool-using type for the first task")
    problems: list[str] = []
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(f"toolenv-generator|{seed}|{attempt}|{settings.digest()}")
        pack, flow = packs[rng.randrange(len(packs))]
        day = FIRST_DATE + dt.timedelta(days=rng.randrange(DATE_SPAN_DAYS))
        moment = dt.datetime.combine(day, dt.time(rng.randint(8, 21), rng.choice((0, 15, 30, 45))))
        composer = Composer(catalog, pack, flow, rng, seed, day, settings.two_round_clarify)
        try:
            _compose(composer, allowed, settings)
        except Retry as exc:
            problems.append(str(exc))
            continue
        finally:
            composer.close()
        return NativeScenarioFile(
            id=scenario_id(seed, settings),
            title=f"Generated: {pack.nouns} with {flow.family} (seed {seed}).",
            split="train",
            env_info=moment.strftime("%Y-%m-%d %H:%M:%S %A"),
            seed=seed,
            tools=list(flow.tools),
            tasks=composer.tasks,
        )
    raise GeneratorError(f"seed {seed}: no scenario after {MAX_ATTEMPTS} attempts: {problems[-3:]}")


def _compose(c: Composer, allowed: list[TaskType], settings: GeneratorSettings) -> None:
    rng = c.rng
    for i in range(TASKS_PER_SCENARIO):
        kinds = [t for t in allowed if (t in FIRST if i == 0 else t in LATER)]
        rng.shuffle(kinds)
        subtypes = _subtypes(rng, i, settings)
        if not _build_task(c, i, kinds, subtypes):
            raise Retry(f"task {i}: no builder fits the dialogue so far with types {[k.value for k in kinds]}")
        if i == 0:
            _greet(c)


def _subtypes(rng: random.Random, i: int, settings: GeneratorSettings) -> list[TurnSubtype | None]:
    """The hidden-intent subtypes task ``i`` may take, in the order to try them."""
    if i == 0:
        return [None]
    subtypes: list[TurnSubtype | None] = [TurnSubtype.COREFERENCE, TurnSubtype.PARTIAL]
    rng.shuffle(subtypes)
    if i == 3 and rng.random() < settings.long_range:
        subtypes.insert(0, TurnSubtype.LONG_RANGE)
    elif i == 3:
        subtypes.append(TurnSubtype.LONG_RANGE)
    return subtypes


def _build_task(c: Composer, i: int, kinds: list[TaskType], subtypes: list[TurnSubtype | None]) -> bool:
    """Try the builders of each kind, for each subtype, until one writes task ``i``."""
    rng = c.rng
    for kind in kinds:
        builders = [FIRST[kind]] if i == 0 else list(LATER[kind])
        rng.shuffle(builders)
        if rng.random() < ANCHOR_FIRST:
            builders.sort(key=lambda b: b in FRESH_SEARCH)
        for subtype in subtypes:
            if any(build(c, i, subtype) is not None for build in builders):
                return True
    return False


def _greet(c: Composer) -> None:
    """Open the first user message with a greeting."""
    greeting = ph.pick(c.rng, ph.GREETINGS)
    first = c.tasks[0].user
    lower = greeting.endswith(", ") and not first.startswith(("I ", "I'"))
    c.tasks[0].user = greeting + (first[:1].lower() + first[1:] if lower else first)


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
