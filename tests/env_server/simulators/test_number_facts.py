"""A Numbers API fact is about the number asked: true math, trivia, a date's day of the year, a year."""

from __future__ import annotations

from env_server.environment import ToolEnvironment
from env_server.simulators.number_facts import math_properties
from env_server.specs.lookup_checks import fact_hits
from tests.env_server.free_play import call, env  # noqa: F401  (a fixture)


def test_math_properties_are_true_of_the_number():
    assert math_properties(28)[0].startswith("a perfect number")
    assert "the square of 12" in math_properties(144)
    assert "a prime number" in math_properties(137)
    assert "the product of 3 × 137" in math_properties(411)
    assert "the 10th triangular number" in math_properties(55)


def test_every_kind_of_fact_names_what_was_asked(env: ToolEnvironment):
    for number in (7, 411, 1729):
        assert call(env, "numbersapi_get_trivia_fact", number=number)["text"].startswith(f"{number} is ")
        assert call(env, "numbersapi_get_math_fact", number=number)["text"].startswith(f"{number} is ")
    year = call(env, "numbersapi_get_year_fact", year=1969)
    assert year["text"].startswith("1969 is the year that ")
    date = call(env, "numbersapi_get_date_fact", month=11, day=21)
    assert date["text"].startswith("November 21st is the day in ") and date["number"] == 326


def test_a_fragment_drops_the_number_prefix(env: ToolEnvironment):
    text = call(env, "numbersapi_get_trivia_fact", number=8, fragment=True)["text"]
    assert not text.startswith("8 ") and not text.endswith(".")


def test_the_audit_reports_a_fact_that_is_not_about_the_number():
    record = {"number": 411, "text": "The Channel Tunnel is about 50 kilometres long.", "type": "trivia"}
    assert fact_hits("$", {"number": 411}, record)
    assert not fact_hits("$", {"number": 411}, {**record, "text": "411 is the number of bells in a tower."})
