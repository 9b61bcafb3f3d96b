"""The prebuilt encoders give exactly the bytes of the ``json.dumps`` calls they replace."""

from __future__ import annotations

import datetime as dt
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from state.encoding import encode_canonical, encode_canonical_lenient, encode_compact, encode_text

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # CI machines pause
@given(json_values)
def test_each_encoder_matches_its_json_dumps_call(value: object) -> None:
    assert encode_text(value) == json.dumps(value, ensure_ascii=False)
    assert encode_compact(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert encode_canonical(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_non_ascii_quotes_and_special_floats_match_json_dumps() -> None:
    value = {"b": ["Zürich \"quoted\"\n", 1e300, -0.0, math.inf, math.nan], "a": {"東京": None}}
    assert encode_canonical(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    finite = {"b": ["Zürich \"quoted\"\n", 1e300, -0.0], "a": {"東京": None}}
    assert encode_text(finite) == json.dumps(finite, ensure_ascii=False)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_the_text_encoder_refuses_numbers_json_cannot_carry(bad: float) -> None:
    with pytest.raises(ValueError, match="not JSON compliant"):
        encode_text({"shown": [1.5, {"deep": bad}]})
    assert encode_text({"shown": 1.5}) == '{"shown": 1.5}'  # still usable after the failure


def test_lenient_encoder_turns_non_json_values_into_strings() -> None:
    value = {"when": dt.date(2026, 1, 2), "n": 1}
    assert encode_canonical_lenient(value) == '{"n":1,"when":"2026-01-02"}'


def test_strict_encoders_reject_non_json_values_with_type_error() -> None:
    with pytest.raises(TypeError, match="date is not JSON serializable"):
        encode_text({"when": dt.date(2026, 1, 2)})


def test_encoders_are_reusable_after_a_failed_encode() -> None:
    with pytest.raises(TypeError):
        encode_compact([1, {"x": object()}])
    assert encode_compact([1, {"x": 2}]) == "[1,{\"x\":2}]"


def test_encoders_answer_a_cycle_as_json_dumps_does() -> None:
    looped: list[object] = []
    looped.append(looped)
    with pytest.raises(ValueError, match="Circular reference"):
        encode_compact(looped)

