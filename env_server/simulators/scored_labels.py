"""A classifier's scored labels name each label once, best first, with scores that share 1.

Sentiment and text-classification APIs (NLP Cloud, Hugging Face pipelines) answer with a list
of ``{"label", "score"}`` items: a probability over the model's labels. So a label appears
once, the scores sum to about 1 and the list runs from the most likely label down. When the
labels are a sentiment's (POSITIVE, NEGATIVE, NEUTRAL in any case), the winner follows the
words of the call's text, read against a small lexicon of our own (``_POSITIVE``,
``_NEGATIVE``): "I have a headache and feel tired" scores NEGATIVE first.

``scored_list_step(props)`` is asked once per object schema (``record_steps``) and finds the
list fields whose items are scored labels; the step rewrites such a list on each record.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.text_kinds import call_text

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_LABEL_KEYS = ("label", "name", "class", "category")
_SCORE_KEYS = ("score", "confidence", "probability", "prob")
_SENTIMENTS = frozenset({"positive", "negative", "neutral", "mixed", "pos", "neg", "neu"})
_POSITIVE = frozenset(
    "good great love loved lovely excellent amazing awesome happy glad wonderful fantastic best nice enjoy enjoyed "
    "perfect delighted pleased beautiful brilliant superb recommend thanks thank helpful fun friendly easy fast "
    "delicious comfortable impressive favourite favorite exciting excited cheerful success win won calm".split())
_NEGATIVE = frozenset(
    "bad terrible awful hate hated horrible worst poor sad angry upset disappointed disappointing broken slow "
    "rude dirty ugly boring annoying painful pain headache tired sick ill wrong fail failed failure problem "
    "problems late lost never refund cold noisy expensive useless worse crash crashed afraid worried sorry".split())
_NEGATIONS = frozenset({"not", "no", "never", "don't", "didn't", "isn't", "wasn't", "can't", "won't", "hardly"})
_WORD = re.compile(r"[a-z']+")


def text_polarity(text: str) -> tuple[int, int]:
    """How many positive and negative words a text has; a negation flips the word after it."""
    pos = neg = 0
    flip = False
    for word in _WORD.findall(text.lower()):
        good, bad = word in _POSITIVE, word in _NEGATIVE
        if flip and (good or bad):
            good, bad = bad, good
        pos, neg = pos + good, neg + bad
        flip = word in _NEGATIONS
    return pos, neg


def _weight(label: str, pos: int, neg: int) -> float:
    low = label.lower()
    if low.startswith("pos"):
        return 1.0 + 3.0 * pos
    if low.startswith("neg"):
        return 1.0 + 3.0 * neg
    return 2.5 if pos == neg else 0.6  # neutral (or mixed) when the words do not lean


def _scored(labels: list[str], gen: Generation, sentiment: bool) -> list[tuple[str, float]]:
    if sentiment:
        pos, neg = text_polarity(call_text(gen))
        weights = [_weight(label, pos, neg) * gen.rng.uniform(0.85, 1.15) for label in labels]
    else:
        weights = sorted((gen.rng.random() ** 3 for _ in labels), reverse=True)
        weights[0] += 1.0  # one label clearly ahead, as a confident classifier answers
    total = sum(weights)
    return sorted(zip(labels, (round(w / total, 4) for w in weights), strict=True), key=lambda p: -p[1])


def _list_fields(props: Mapping[str, Any]) -> tuple[tuple[str, str, str, tuple[str, ...]], ...]:
    found = []
    for name, sub in props.items():
        items = sub.get("items") if isinstance(sub, dict) and sub.get("type") == "array" else None
        inner = items.get("properties") if isinstance(items, dict) else None
        if not isinstance(inner, dict) or len(inner) > 4:
            continue
        label = next((k for k in _LABEL_KEYS if k in inner), None)
        score = next((k for k in _SCORE_KEYS if k in inner), None)
        if label is not None and score is not None and (inner[score].get("maximum") or 1) <= 1:  # a 0-100 score is no share
            enum = tuple(str(e) for e in inner[label].get("enum") or () if isinstance(e, str))
            found.append((name, label, score, enum))
    return tuple(found)


def scored_list_step(props: Mapping[str, Any]) -> Step | None:
    """The step that makes each scored-label list a distribution, or None without one."""
    fields = _list_fields(props)
    if not fields:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        for name, label, score, enum in fields:
            items = record.get(name)
            if not isinstance(items, list) or not items or not all(isinstance(i, dict) for i in items):
                continue
            seen = list(dict.fromkeys(str(i.get(label)) for i in items))
            labels = list(enum) if enum and {e.lower() for e in enum} <= _SENTIMENTS else seen
            sentiment = {lab.lower() for lab in labels} <= _SENTIMENTS
            scored = _scored(labels, gen, sentiment)
            template = items[0]
            record[name] = [{**template, label: lab, score: value} for lab, value in scored]

    return step
