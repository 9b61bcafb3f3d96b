"""Argument checks: the doc 5.2 (strict) and 6.2 (paper) cases as fixtures, ROUGE-L by hand, quirk flags."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from env_server.scoring.args_paper import pair_calls_paper, score_call_paper
from env_server.scoring.args_strict import OFFICIAL, StrictQuirks, check_call_strict
from env_server.scoring.rouge import RougeError, RougeQuirks, summary_rouge_l, token_rouge_l

FIXTURES = Path(__file__).parent / "fixtures"
STRICT = json.loads((FIXTURES / "strict_args_cases.json").read_text())
PAPER = json.loads((FIXTURES / "paper_args_cases.json").read_text())


@pytest.mark.parametrize("case", STRICT["cases"], ids=[c["id"] for c in STRICT["cases"]])
def test_strict_check_matches_documented_case(case: dict[str, Any]) -> None:
    result = check_call_strict(STRICT["schema"], case["pred"], case["gold"])
    assert result.ok is case["ok"], result.message
    if not case["ok"]:
        assert result.kind is not None and result.kind.value == case["kind"]
    if "message" in case:
        assert result.message == case["message"]
    if "message_contains" in case:
        assert case["message_contains"] in result.message


@pytest.mark.parametrize("case", PAPER["cases"], ids=[c["id"] for c in PAPER["cases"]])
def test_paper_grader_matches_documented_case(case: dict[str, Any]) -> None:
    result = score_call_paper(PAPER["schema"], json.dumps(case["pred"]), case["gold"])
    assert result.score == pytest.approx(case["score"], abs=1e-5)
    assert result.ok is case["ok"]
    assert sorted({e.value for e in result.errors}) == sorted(case["errors"])


@pytest.mark.parametrize(
    ("pred", "gold", "expected"),
    [
        ("125.532.55.10", "125.532.55.09", 0.75),  # 4 dot-sentences, 3 shared: P = R = 3/4
        ("1.2.3", "1.2.4", 2 / 3),  # 2 of 3 dotted parts
        ("3.14", "3.15", 0.5),
        ("Go to the store now", "go to the store now please", 2 * (4 / 5) * (4 / 6) / (4 / 5 + 4 / 6)),
        ("2024-07-14", "2024-07-13", 0.0),
        ("a b a", "a b", 1.0),  # unique tokens: repeats do not count twice
        ("a b. c d", "c d. a b", 1.0),  # LCS union across sentences ignores sentence order
        ("x y z", "x q z w", 2 * (2 / 3) * (2 / 4) / (2 / 3 + 2 / 4)),
        ("Paris", "paris", 0.0),  # case-sensitive
    ],
)
def test_summary_rouge_l_equals_hand_computed_value(pred: str, gold: str, expected: float) -> None:
    assert summary_rouge_l(pred, gold) == pytest.approx(expected, abs=1e-6)


def test_summary_rouge_l_raises_when_a_side_has_no_sentence() -> None:
    with pytest.raises(RougeError):
        summary_rouge_l("...", "abc")


def test_rouge_quirk_flags_turn_off_dot_splitting_and_case_sensitivity() -> None:
    plain = RougeQuirks(split_sentences_on_dots=False, case_sensitive=False)
    assert summary_rouge_l("125.532.55.10", "125.532.55.09", plain) == 0.0
    assert summary_rouge_l("Paris", "paris", plain) == pytest.approx(1.0)


def test_token_rouge_l_is_plain_lcs_f1() -> None:
    assert token_rouge_l("the cat sat", "the cat sat down") == pytest.approx(2 * 1 * 0.75 / 1.75)
    assert token_rouge_l("", "x") == 0.0
    assert token_rouge_l("Paris", "paris", lowercase=True) == 1.0


def test_dotted_value_leniency_disappears_without_the_dot_quirk() -> None:
    schema = STRICT["schema"]
    pred, gold = '{"city": "Oslo", "ip": "125.532.55.10"}', {"city": "Oslo", "ip": "125.532.55.09"}
    assert check_call_strict(schema, pred, gold).ok
    assert not check_call_strict(schema, pred, gold, StrictQuirks(rouge_splits_sentences_on_dots=False)).ok


@pytest.mark.parametrize(
    ("flag", "pred", "gold"),
    [
        ("bool_passes_integer_check", '{"city": "Oslo", "days": true}', {"city": "Oslo", "days": True}),
        ("untyped_schema_is_string", '{"city": "Oslo", "note": 5}', {"city": "Oslo", "note": 5}),
        ("propertyless_object_rejects_keys", '{"city": "Oslo", "filters": {"a": 1}}', {"city": "Oslo", "filters": {"a": 1}}),
        ("null_never_passes", '{"city": "Oslo", "note": null}', {"city": "Oslo", "note": None}),
    ],
)
def test_each_schema_quirk_flag_changes_the_verdict(flag: str, pred: str, gold: dict[str, Any]) -> None:
    official = check_call_strict(STRICT["schema"], pred, gold, OFFICIAL)
    fixed = check_call_strict(STRICT["schema"], pred, gold, StrictQuirks(**{flag: False}))
    assert official.ok != fixed.ok


def test_top_level_value_labels_are_plain_without_the_nested_quirk() -> None:
    result = check_call_strict(STRICT["schema"], '{"city": 42}', {"city": "Oslo"}, StrictQuirks(nested_labels_for_top_level_values=False))
    assert result.message == "error_schema: args type inconsistent"


def test_short_string_high_ratio_passes_without_the_fall_through_quirk() -> None:
    quirks = StrictQuirks(short_string_ratio_only_fails=False)
    assert check_call_strict(STRICT["schema"], '{"city": "Osloo"}', {"city": "Oslo"}, quirks).ok


def test_root_additional_properties_is_honoured_only_without_the_quirk() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": True}
    assert not check_call_strict(schema, '{"a": "x", "b": "y"}', {"a": "x", "b": "y"}).ok
    assert check_call_strict(schema, '{"a": "x", "b": "y"}', {"a": "x", "b": "y"}, StrictQuirks(root_ignores_additional_properties=False)).ok


def test_cjk_strings_are_compared_per_character() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    assert check_call_strict(schema, '{"q": "北京天气预报明天"}', {"q": "北京天气预报今天"}).ok
    assert not check_call_strict(schema, '{"q": "上海房价走势"}', {"q": "北京天气预报今天"}).ok


def test_paper_pairing_is_greedy_by_score_within_a_name() -> None:
    gold = [("getWeather", '{"city": "Bergen"}'), ("getWeather", '{"city": "Oslo"}')]
    pred = [("getWeather", '{"city": "Oslo"}'), ("getWeather", '{"city": "Bergen"}')]
    pairs = pair_calls_paper({"getWeather": PAPER["schema"]}, pred, gold)
    assert [(p, g) for p, g, _ in pairs] == [(0, 1), (1, 0)]
    assert all(score.ok for _, _, score in pairs)


GOLDEN_MESSAGES = json.loads((FIXTURES / "check_result_golden.json").read_text())


@pytest.mark.parametrize("case", GOLDEN_MESSAGES["cases"], ids=[c["kind"] for c in GOLDEN_MESSAGES["cases"]])
def test_check_result_text_is_the_official_wording_per_kind(case: dict[str, Any]) -> None:
    """Golden: the exact string the official score file stores for each kind of check result."""
    result = check_call_strict(GOLDEN_MESSAGES["schema"], case["pred"], case["gold"])
    assert result.message == case["message"]
