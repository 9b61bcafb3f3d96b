"""A classifier's scored labels name each label once, best first, with scores that share 1,
and a sentiment's winner follows the words of the text."""

from __future__ import annotations

import datetime as dt
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from env_server.catalog import load_catalog
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.simulators.scored_labels import text_polarity
from state import Database

_ENV = ToolEnvironment(load_catalog(), Database(), ServerSettings())
_TOOLS = ["nlp_cloud_analyze_sentiment", "hugging_face_classify_text", "hugging_face_classify_image"]
_SESSIONS = itertools.count()
_WORDS = ["great", "terrible", "the", "river", "love", "awful", "today", "bus", "happy", "sad", "was"]


def _labels(tool: str, args: dict, seed: int) -> list[dict]:
    sid = f"s{next(_SESSIONS)}"
    _ENV.create_session(tools=_TOOLS, session_id=sid, seed=seed, today=dt.date(2026, 12, 7))
    result = _ENV.call_tool(sid, tool, args).result
    return next(v for v in result.values() if isinstance(v, list))


def test_a_negation_flips_the_word_after_it():
    assert text_polarity("The food was not good") == (0, 1)
    assert text_polarity("I love this, it is great") == (2, 0)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=8), st.integers(0, 50))
def test_sentiment_labels_appear_once_sum_to_one_and_follow_the_words(words: list[str], seed: int):
    text = " ".join(words)
    rows = _labels("nlp_cloud_analyze_sentiment", {"text": text}, seed)
    labels = [r["label"] for r in rows]
    assert len(labels) == len(set(labels))
    assert abs(sum(r["score"] for r in rows) - 1) < 0.01
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    pos, neg = text_polarity(text)
    if pos >= neg + 1:
        assert labels[0] == "POSITIVE"
    if neg >= pos + 1:
        assert labels[0] == "NEGATIVE"


def test_image_and_text_classifiers_score_each_label_once_as_a_distribution():
    for tool, args in (("hugging_face_classify_text", {"inputs": "What an awful, slow bus ride."}),
                       ("hugging_face_classify_image", {"image_url": "https://example.org/cat.jpg"})):
        for seed in range(3):
            rows = _labels(tool, args, seed)
            labels = [r["label"] for r in rows]
            assert len(labels) == len(set(labels))
            assert abs(sum(r["score"] for r in rows) - 1) < 0.01
    assert _labels("hugging_face_classify_text", {"inputs": "What an awful, slow bus ride."}, 1)[0]["label"] == "NEGATIVE"
