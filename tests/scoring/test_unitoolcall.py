"""UniToolCall SP/FP/SPA/FPA with its normalization rules."""

from __future__ import annotations

import pytest

from env_server.scoring.unitoolcall import (
    UtcCall,
    UtcConversation,
    UtcTurn,
    canonical_date,
    compute_unitoolcall_metrics,
    flexible_match,
    normalize_name,
    normalize_value,
    score_unit,
    strict_match,
)


def c(name: str, **args: object) -> UtcCall:
    return UtcCall(name=name, arguments=args)


@pytest.mark.parametrize(("a", "b"), [("uber.ride", "uber_ride"), ("Uber_Ride2", "uberride"), ("get-weather 2", "getWeather")])
def test_tool_names_normalize_to_lowercase_letters(a: str, b: str) -> None:
    assert normalize_name(a) == normalize_name(b)


@pytest.mark.parametrize("text", ["April 1, 2023", "2023/04/01", "2023-04-01", "1 April 2023", "Apr 1, 2023"])
def test_dates_canonicalize_to_iso(text: str) -> None:
    assert canonical_date(text) == "2023-04-01"


@pytest.mark.parametrize(
    ("pred", "gold"),
    [("[1, 2, 3]", [1, 2, 3]), ("40.7128", 40.7128), ("A black cat", "blackcat"), ("The Hotel, Oslo!", "hotel oslo"),
     ("['a', 'b']", ["a", "b"]), (3, 3.0)],
)
def test_values_equal_after_normalization(pred: object, gold: object) -> None:
    assert normalize_value(pred) == normalize_value(gold)


def test_different_values_stay_different_after_normalization() -> None:
    assert normalize_value("Oslo") != normalize_value("Bergen")
    assert normalize_value("2023-04-01") != normalize_value("2023-04-02")


def test_strict_and_flexible_matches() -> None:
    gold = c("search_hotels", city="New York", checkin="2023-04-01")
    assert strict_match(c("SearchHotels", city="new york", checkin="April 1, 2023"), gold)
    near = c("search.hotels", city="New York City", checkin="2023-04-01")
    assert not strict_match(near, gold) and flexible_match(near, gold)
    assert not flexible_match(c("search_hotels", city="Boston", checkin="2023-04-01"), gold)
    assert not flexible_match(c("search_hotels", city="New York"), gold)


def test_unit_scores_follow_the_definitions() -> None:
    gold = [c("a", x=1), c("b", y="z")]
    assert score_unit([c("a", x=1), c("b", y="z")], gold) == {"SP": 1.0, "FP": 1.0, "SPA": 1.0, "FPA": 1.0}
    assert score_unit([c("a", x=2)], gold) == {"SP": 0.0, "FP": 1.0, "SPA": 0.0, "FPA": 0.0}
    assert score_unit([c("a", x=1), c("q")], gold) == {"SP": 0.0, "FP": 0.5, "SPA": 0.5, "FPA": 0.5}
    assert score_unit([], gold) == {"SP": 0.0, "FP": 0.0, "SPA": 0.0, "FPA": 0.0}


def test_levels_macro_average_and_prefix_survival() -> None:
    good = UtcTurn(predicted=[c("a", x=1)], gold=[c("a", x=1)])
    bad = UtcTurn(predicted=[c("a", x=2), c("b")], gold=[c("a", x=1)])
    conversations = [
        UtcConversation(source="s1", turns=[good, good]),
        UtcConversation(source="s2", turns=[good, bad]),
    ]
    report = compute_unitoolcall_metrics(conversations)
    assert report["turn"]["SP"] == pytest.approx(3 / 4) and report["turn"]["units"] == 4
    assert report["conversation"]["SP"] == pytest.approx(1 / 2)
    assert report["call"]["units"] == 5  # the unmatched "b" prediction stands alone
    assert report["call"]["SPA"] == pytest.approx(3 / 5)
    assert report["macro"]["conversation"]["SP"] == pytest.approx((1.0 + 0.0) / 2)
    assert report["prefix_survival"] == [1.0, 0.5]


def four(scores: dict[str, float]) -> tuple[float, ...]:
    return tuple(scores[m] for m in ("SP", "FP", "SPA", "FPA"))


@pytest.mark.parametrize(
    ("predicted", "gold", "expected"),
    [
        ([c("a"), c("a")], [c("a"), c("b")], (0.0, 0.5, 0.5, 0.5)),  # a duplicate does not cover the missing b
        ([c("a", x=1), c("a", x=1)], [c("a", x=1), c("a", x=2)], (1.0, 1.0, 0.5, 0.5)),
        ([c("a", x=1), c("a", x=1)], [c("a", x=1)], (0.0, 0.5, 0.5, 0.5)),
    ],
)
def test_each_prediction_covers_at_most_one_gold_call(predicted, gold, expected) -> None:
    assert four(score_unit(predicted, gold)) == expected


def test_conversation_level_matches_calls_within_their_own_turn() -> None:
    swapped = UtcConversation(turns=[UtcTurn(predicted=[c("b", y=2)], gold=[c("a", x=1)]),
                                     UtcTurn(predicted=[c("a", x=1)], gold=[c("b", y=2)])])
    report = compute_unitoolcall_metrics([swapped])
    assert four(report["turn"]) == (0.0, 0.0, 0.0, 0.0)
    assert four(report["conversation"]) == (0.0, 0.0, 0.0, 0.0)
    one_wrong = UtcConversation(turns=[UtcTurn(predicted=[c("a", x=1)], gold=[c("a", x=1)]),
                                       UtcTurn(predicted=[c("q")], gold=[c("b", y=2)])])
    assert compute_unitoolcall_metrics([one_wrong])["conversation"]["SP"] == 0.0


def test_schema_defaults_make_an_omitted_or_defaulted_optional_argument_match() -> None:
    schemas = {"search": {"type": "object", "properties": {"q": {"type": "string"},
                                                           "limit": {"type": "integer", "default": 10}}}}
    omitted = UtcConversation(schemas=schemas, turns=[UtcTurn(predicted=[c("search", q="x")],
                                                              gold=[c("search", q="x", limit=10)])])
    added = UtcConversation(schemas=schemas, turns=[UtcTurn(predicted=[c("search", q="x", limit=10)],
                                                            gold=[c("search", q="x")])])
    other = UtcConversation(schemas=schemas, turns=[UtcTurn(predicted=[c("search", q="x", limit=5)],
                                                            gold=[c("search", q="x")])])
    assert compute_unitoolcall_metrics([omitted])["turn"]["SPA"] == 1.0
    assert compute_unitoolcall_metrics([added])["turn"]["SPA"] == 1.0
    assert compute_unitoolcall_metrics([other])["turn"]["SPA"] == 0.0
    bare = UtcConversation(turns=omitted.turns)  # without schemas nothing is filled in
    assert compute_unitoolcall_metrics([bare])["turn"]["SPA"] == 0.0


def test_an_empty_turn_is_a_turn_level_unit_scoring_zero_as_in_the_published_code() -> None:
    talk = UtcConversation(turns=[UtcTurn(predicted=[c("a")], gold=[c("a")]), UtcTurn()])
    report = compute_unitoolcall_metrics([talk])
    assert report["turn"]["units"] == 2 and report["turn"]["SP"] == 0.5
    assert report["call"]["units"] == 1 and report["call"]["SP"] == 1.0
    assert report["prefix_survival"] == [1.0, 1.0]


def test_argument_keys_keep_their_case() -> None:
    assert not strict_match(c("f", City="Oslo"), c("f", city="Oslo"))
    assert not strict_match(c("f", place={"Lat": 1}), c("f", place={"lat": 1}))
    assert strict_match(c("f", city="OSLO"), c("f", city="oslo"))  # values still fold


def test_breakdown_splits_hops_by_turn_and_turns_by_dialogue() -> None:
    single = UtcConversation(turns=[UtcTurn(predicted=[c("a")], gold=[c("a")])])
    multi = UtcConversation(turns=[UtcTurn(predicted=[c("a"), c("b")], gold=[c("a"), c("b")]),
                                   UtcTurn(predicted=[c("q")], gold=[c("a")])])
    report = compute_unitoolcall_metrics([single, multi])["breakdown"]
    assert list(report) == ["single-hop", "multi-hop", "single-turn", "multi-turn"]
    assert report["single-hop"]["units"] == 2 and report["single-hop"]["SP"] == 0.5
    assert report["multi-hop"]["units"] == 1 and report["multi-hop"]["SP"] == 1.0
    assert report["single-turn"]["SP"] == 1.0 and report["multi-turn"]["SP"] == 0.0
