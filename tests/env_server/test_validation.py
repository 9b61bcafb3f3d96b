from __future__ import annotations

from env_server.validation import ArgumentValidator

SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "The name of the city."},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "days": {"type": "integer", "minimum": 1, "maximum": 16},
        "date": {"type": "string", "format": "date"},
    },
    "required": ["city"],
}


def test_valid_arguments_have_no_problems():
    assert ArgumentValidator("t", SCHEMA).problems({"city": "Paris", "unit": "celsius", "days": 3}) == []


def test_missing_required_names_the_parameter_and_its_type():
    (msg,) = ArgumentValidator("t", SCHEMA).problems({})
    assert msg == "missing required parameter 'city' (string: The name of the city.)"


def test_wrong_type_names_expected_and_received():
    (msg,) = ArgumentValidator("t", SCHEMA).problems({"city": 42})
    assert msg == "parameter 'city': expected string, got integer 42"


def test_enum_violation_lists_the_choices():
    (msg,) = ArgumentValidator("t", SCHEMA).problems({"city": "Oslo", "unit": "kelvin"})
    assert msg == "parameter 'unit': expected one of ['celsius', 'fahrenheit'], got \"kelvin\""


def test_range_and_format_violations_are_reported():
    problems = ArgumentValidator("t", SCHEMA).problems({"city": "Oslo", "days": 40, "date": "2026-13-01"})
    assert "parameter 'date': expected date format, got \"2026-13-01\"" in problems
    assert "parameter 'days': maximum is 16, got integer 40" in problems


def test_unknown_parameter_gets_a_did_you_mean():
    (msg,) = ArgumentValidator("t", SCHEMA).problems({"city": "Oslo", "citi": "x"})
    assert msg == "unknown parameter 'citi' (did you mean 'city'?)"


def test_unknown_parameters_are_allowed_when_strictness_is_off():
    assert ArgumentValidator("t", SCHEMA, strict_params=False).problems({"city": "Oslo", "extra": 1}) == []
