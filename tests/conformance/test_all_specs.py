"""Every spec, from every catalog we can load, validates, simulates and is deterministic."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from env_server.catalog import ToolSpec, load_catalog
from env_server.errors import ToolCallError
from env_server.simulators import CatalogRules, SimContext, StateHandle, simulate
from env_server.specs.samples import sample_arguments
from env_server.validation import ArgumentValidator
from state.world import World
from tests.conftest import TOOLALPACA, WTB_TOOLS


def _catalog_specs() -> list[pytest.param]:
    params = [pytest.param(s, id=f"builtin:{s.name}") for s in load_catalog().tools.values()]
    for label, path in (
        ("wtb", WTB_TOOLS),
        ("alpaca-sim", TOOLALPACA / "eval_simulated.json"),
        ("alpaca-real", TOOLALPACA / "eval_real.json"),
    ):
        if path.exists():
            params += [pytest.param(s, id=f"{label}:{s.name}") for s in load_catalog([path]).tools.values()]
        else:
            params.append(pytest.param(None, id=f"{label}:missing",
                                       marks=pytest.mark.skip(reason=f"reference data not found at {path}")))
    return params


@pytest.mark.parametrize("spec", _catalog_specs())
def test_spec_validates_simulates_and_is_deterministic(spec: ToolSpec):
    Draft202012Validator.check_schema(spec.input_schema)
    Draft202012Validator.check_schema(spec.output_schema)
    args_validator = ArgumentValidator(spec.name, spec.input_schema)
    out_validator = Draft202012Validator(spec.output_schema)
    for variant in range(3):
        args = sample_arguments(spec, variant)
        assert args_validator.problems(args) == [], args
        ctx = SimContext(seed=variant)
        try:
            first = simulate(spec, args, ctx)
        except ToolCallError:
            continue
        errors = [e.message for e in out_validator.iter_errors(first)]
        assert errors == [], (args, first)
        again = simulate(spec, json.loads(json.dumps(args)), ctx)
        assert json.dumps(first, sort_keys=True) == json.dumps(again, sort_keys=True)


@pytest.mark.parametrize("spec", _catalog_specs())
def test_spec_outputs_validate_with_world_state(spec: ToolSpec):
    out_validator = Draft202012Validator(spec.output_schema)
    rules = CatalogRules.from_specs([spec])
    for variant in range(3):
        args = sample_arguments(spec, variant)
        world = World(session_id="conformance", seed=variant)
        ctx = SimContext(seed=variant, state=StateHandle(world, rules))
        for _ in range(2):  # the second call reads what the first one materialized or wrote
            try:
                result = simulate(spec, args, ctx)
            except ToolCallError:
                continue
            errors = [e.message for e in out_validator.iter_errors(result)]
            assert errors == [], (args, result)
