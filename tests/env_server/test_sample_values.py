"""What a parameter's description says is read in one module (``specs/sample_values``):
its examples and the kinds it names, for typed values first and free text last."""

from __future__ import annotations

from env_server.simulators.base import DEFAULT_TODAY
from env_server.simulators.generate import Generation
from env_server.specs.sample_values import described_value, sample_value


def _gen(seed: int = 1) -> Generation:
    return Generation(seed=seed, today=DEFAULT_TODAY, args={})


def test_a_free_text_parameter_takes_one_of_the_examples_its_description_lists():
    schema = {"type": "string", "description": "Courier slug, e.g. 'usps', 'dhl' or 'royal-mail'."}
    picks = {described_value("slug", schema, _gen(seed)) for seed in range(12)}
    assert picks <= {"usps", "dhl", "royal-mail"} and len(picks) > 1


def test_a_named_kind_fits_the_schema_and_a_second_currency_differs_from_the_first():
    currency = {"type": "string", "description": "Three-letter currency code."}
    for seed in range(12):
        first = described_value("from", currency, _gen(seed))
        assert isinstance(first, str) and len(first) == 3
        assert described_value("to", currency, _gen(seed), {"from": first}) != first
    assert described_value("code", {**currency, "maxLength": 2}, _gen()) is None


def test_a_typed_example_comes_before_the_free_text_rules():
    schema = {"type": "integer", "description": "Season year, e.g. 2021."}
    assert sample_value("season", schema, _gen()) == 2021
    assert described_value("season", schema, _gen()) is None
