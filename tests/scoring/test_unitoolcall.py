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
