"""Generated plan functions draw exactly as the closure plans they replace.

The closure compiler in ``generate`` is the reference: for the same schema, generation
state and arguments, a ``plan_source`` function must return the same JSON (types and key
order included) and leave the random generator in the same state.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from env_server.catalog import Catalog
from env_server.catalog.models import Operation
from env_server.catalog.samples import sample_arguments
from env_server.simulators import generate
from env_server.simulators.generate import Generation
from env_server.simulators.plan_source import compile_source


@pytest.fixture
def closure_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Generation.fill`` uses closure plans only, from an empty cache."""
    monkeypatch.setattr(generate, "USE_SOURCE_PLANS", False)
    monkeypatch.setattr(generate, "_PLANS", {})


def _outcome(run: Any) -> tuple[str, Any]:
    gen: Generation = run.gen
    try:
        value = json.dumps(run(), allow_nan=True)
    except (ValueError, TypeError, IndexError) as exc:  # a bad schema must fail the same way
        value = f"{type(exc).__name__}: {exc}"
    return value, gen.rng.getstate()


class _Fill:
    def __init__(self, gen: Generation, plan: Any, schema: Any, name: str, index: int | None) -> None:
        self.gen, self.plan, self.schema, self.name, self.index = gen, plan, schema, name, index

    def __call__(self) -> Any:
        if self.plan is None:
            return self.gen.fill(self.schema, self.name, self.index)
        return self.plan(self.gen, self.index)


def assert_same_draws(schema: Any, make_gen: Any, *, name: str = "", index: int | None = None, plan: Any = None) -> None:
    if plan is None:
        probe = make_gen()
        plan = compile_source(schema, name, "", probe.entity, probe.hints)
    assert plan is not None, f"no source plan for {schema!r}"
    reference = _outcome(_Fill(make_gen(), None, schema, name, index))
    compiled = _outcome(_Fill(make_gen(), plan, schema, name, index))
    assert compiled == reference, schema


def _check_catalog(catalog: Catalog) -> int:
    today = dt.date(2026, 3, 7)
    checked = 0
    for spec in catalog.tools.values():
        profile = spec.profile
        searching = profile.operation in (Operation.SEARCH, Operation.LIST)
        variants: list[dict[str, Any]] = [{}, sample_arguments(spec, 1), {"limit": 2, "query": "paris"}]
        # camelCase keys reach snake_case fields through the echo's second lookup
        variants.append({k[:1] + k.title().replace("_", "")[1:]: v for k, v in variants[1].items()})
        plan = compile_source(spec.output_schema, "", "", profile.entity, profile.hints)
        for seed, args in enumerate(variants):
            def make(args: dict[str, Any] = args, seed: int = seed) -> Generation:
                return Generation(seed=seed, today=today, args=args, entity=profile.entity, hints=profile.hints,
                                  searching=searching)

            assert_same_draws(spec.output_schema, make, plan=plan)
            assert_same_draws(spec.output_schema, make, index=seed, plan=plan)
            checked += 1
        for name, sub in (spec.input_schema.get("properties") or {}).items():
            assert_same_draws(sub, lambda: Generation(seed=3, today=today, args={}), name=name)
    return checked


def test_source_plans_match_closure_plans_on_the_builtin_catalog(closure_plans, builtin_catalog):
    assert _check_catalog(builtin_catalog) == 4 * len(builtin_catalog.tools)


def test_source_plans_match_closure_plans_on_wildtoolbench(closure_plans, wtb_catalog):
    assert _check_catalog(wtb_catalog) == 4 * len(wtb_catalog.tools)


# -- arbitrary schemas ----------------------------------------------------------------------

_FIELDS = st.sampled_from(
    ["id", "user_id", "userId", "name", "title", "description", "city", "price", "temperature", "date", "time",
     "created_at", "status", "email", "url", "image", "count", "rating", "tags", "results", "hourly", "lat",
     "version", "aqi", "keywords", "summary", "release_date", "birthday", "x", "limit", "query", "words"]
)
_NUMBERS = st.one_of(st.integers(-60, 60), st.floats(-60, 60, allow_nan=False).map(lambda f: round(f, 1)))
_STRINGS = st.fixed_dictionaries(
    {"type": st.just("string")},
    optional={
        "format": st.sampled_from(["date", "date-time", "email", "uuid", "uri", "url", "time", "hostname"]),
        "minLength": st.integers(0, 8),
        "maxLength": st.integers(2, 30),
        "enum": st.lists(st.sampled_from(["active", "closed", "open", "a", "b"]), min_size=1, max_size=4),
    },
)
_NUMERIC = st.fixed_dictionaries(
    {"type": st.sampled_from(["integer", "number"])},
    optional={"minimum": _NUMBERS, "maximum": _NUMBERS, "exclusiveMinimum": _NUMBERS, "exclusiveMaximum": _NUMBERS},
)
_SCALARS = st.one_of(
    _STRINGS,
    _NUMERIC,
    st.just({"type": "boolean"}),
    st.just({"type": "null"}),
    st.just({}),
    st.just({"type": ["string", "null"]}),
    st.builds(lambda v: {"const": v}, st.one_of(st.integers(), st.text(max_size=4))),
)


def _containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    objects = st.builds(
        lambda props, closed: {"type": "object", "properties": props, **({"additionalProperties": False} if closed else {})},
        st.dictionaries(_FIELDS, children, max_size=5),
        st.booleans(),
    )
    arrays = st.fixed_dictionaries(
        {"type": st.just("array"), "items": children},
        optional={"minItems": st.integers(0, 3), "maxItems": st.integers(1, 6), "uniqueItems": st.booleans()},
    )
    return st.one_of(objects, arrays)


_SCHEMAS = st.recursive(_SCALARS, _containers, max_leaves=16)
_ARGS = st.dictionaries(
    _FIELDS, st.one_of(st.integers(-5, 50), st.text(max_size=6), st.booleans(), st.none(), _NUMBERS), max_size=5
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    schema=_SCHEMAS,
    args=_ARGS,
    seed=st.integers(0, 2**64 - 1),
    entity=st.sampled_from(["item", "user", "city", "forecast", "book"]),
    searching=st.booleans(),
    index=st.one_of(st.none(), st.integers(0, 5)),
    name=st.one_of(st.just(""), _FIELDS),
)
def test_source_plans_match_closure_plans_on_arbitrary_schemas(schema, args, seed, entity, searching, index, name):
    today = dt.date(2026, 1, 15)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(generate, "USE_SOURCE_PLANS", False)
        mp.setattr(generate, "_PLANS", {})
        assert_same_draws(
            schema,
            lambda: Generation(seed=seed, today=today, args=args, entity=entity, searching=searching),
            name=name,
            index=index,
        )


def test_schemas_the_source_form_cannot_express_keep_the_closure_plan():
    today = dt.date(2026, 1, 15)
    odd = {"type": "integer", "minimum": "5"}  # a string bound: fails at call time, as before
    assert compile_source(odd, "n", "", "item", {}) is None
    with pytest.raises(TypeError):
        Generation(seed=1, today=today, args={}).fill(odd)
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(14):
        deep = {"type": "array", "items": deep, "minItems": 1, "maxItems": 1}
    assert compile_source(deep, "", "", "item", {}) is None
    value = Generation(seed=1, today=today, args={}).fill(deep)
    for _ in range(14):
        assert isinstance(value, list) and len(value) == 1
        value = value[0]
    assert isinstance(value, str)
