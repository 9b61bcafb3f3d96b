"""UniToolCall metrics: SP, FP, SPA and FPA at call, turn and conversation level.

Definitions follow ``unitoolcall-metrics-and-qaoa.md``. For each evaluation unit with predicted
calls P and gold calls G: SP = 1 if |P| = |G| and every p has a name match; FP, SPA and FPA are the
mean over p of the name, strict and flexible match indicators.

Resolved ambiguities (README):
* an empty P scores 0 on every metric; a unit with neither predicted nor gold calls is skipped;
* a prediction matches if it matches *some* gold call of its unit (gold calls are not consumed);
* call level: within each turn, predictions are paired one-to-one with gold calls of the same
  normalized name (strict matches first); each pair, and each leftover call, is one unit;
* the semantic (flexible) rule needs equal argument keys and, per value, either a rule match or
  token ROUGE-L >= 0.7 on the lowercased text forms;
* prefix survival counts a turn as correct when its turn-level SP and SPA are both 1, over the
  dialogues that have at least k turns.
"""

from __future__ import annotations

import ast
import json
import re
import string
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from env_server.scoring.rouge import token_rouge_l

SEMANTIC_THRESHOLD = 0.7
METRICS = ("SP", "FP", "SPA", "FPA")
_DATE_FORMATS = (
    "%Y-%m-%d", "%Y/%m/%d", "%Y.%m.%d", "%Y%m%d", "%m/%d/%Y", "%B %d, %Y", "%b %d, %Y", "%B %d %Y",
    "%b %d %Y", "%d %B %Y", "%d %b %Y", "%d %B, %Y", "%b. %d, %Y",
)
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans("", "", string.punctuation)
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


class UtcCall(BaseModel):
    """A tool call: name and parsed arguments."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class UtcTurn(BaseModel):
    """One user turn: the calls the model made and the gold calls."""

    model_config = ConfigDict(extra="forbid")

    predicted: list[UtcCall] = Field(default_factory=list)
    gold: list[UtcCall] = Field(default_factory=list)


class UtcConversation(BaseModel):
    """A dialogue of one or more turns, tagged with its source dataset for macro-averaging."""

    model_config = ConfigDict(extra="forbid")

    conversation_id: str = ""
    source: str = "default"
    turns: list[UtcTurn]


def normalize_name(name: str) -> str:
    """Letters only, lowercased: ``uber.ride`` and ``Uber_Ride2`` both become ``uberride``."""
    return "".join(ch for ch in name if ch.isalpha()).lower()


def canonical_date(text: str) -> str | None:
    stripped = " ".join(text.strip().split())
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(stripped, fmt).strftime("%Y-%m-%d")
        except ValueError:
            continue
    return None


def normalize_string(text: str) -> str:
    """Lowercase, drop punctuation and the articles a/an/the, ignore whitespace."""
    text = _ARTICLES.sub(" ", text.lower().translate(_PUNCT))
    return "".join(text.split())


def _parse_array(text: str) -> list[Any] | None:
    stripped = text.strip()
    if not (stripped.startswith("[") and stripped.endswith("]")):
        return None
    for parse in (json.loads, ast.literal_eval):
        try:
            value = parse(stripped)
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, list):
            return value
    return None


def normalize_value(value: Any) -> Any:
    """Canonical form for rule matching (numbers as floats, dates as YYYY-MM-DD, folded strings)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, dict):
        return {str(k).lower(): normalize_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [normalize_value(v) for v in value]
    if isinstance(value, str):
        array = _parse_array(value)
        if array is not None:
            return normalize_value(array)
        if _NUMBER.match(value.strip()):
            return float(value)
        date = canonical_date(value)
        if date is not None:
            return date
        return normalize_string(value)
    return value


def strict_match(pred: UtcCall, gold: UtcCall) -> bool:
    return normalize_name(pred.name) == normalize_name(gold.name) and normalize_value(pred.arguments) == normalize_value(
        gold.arguments
    )


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)


def flexible_match(pred: UtcCall, gold: UtcCall) -> bool:
    if strict_match(pred, gold):
        return True
    if normalize_name(pred.name) != normalize_name(gold.name):
        return False
    p, g = normalize_value(pred.arguments), normalize_value(gold.arguments)
    if set(p) != set(g):
        return False
    pred_raw = {str(k).lower(): v for k, v in pred.arguments.items()}
    gold_raw = {str(k).lower(): v for k, v in gold.arguments.items()}
    return all(
        p[k] == g[k] or token_rouge_l(_text(pred_raw[k]), _text(gold_raw[k]), lowercase=True) >= SEMANTIC_THRESHOLD
        for k in g
    )


def score_unit(predicted: Sequence[UtcCall], gold: Sequence[UtcCall]) -> dict[str, float]:
    """SP, FP, SPA, FPA of one evaluation unit."""
    if not predicted:
        return dict.fromkeys(METRICS, 0.0)
    gold_names = {normalize_name(g.name) for g in gold}
    names = [normalize_name(p.name) in gold_names for p in predicted]
    strict = [any(strict_match(p, g) for g in gold) for p in predicted]
    flexible = [any(flexible_match(p, g) for g in gold) for p in predicted]
    n = len(predicted)
    return {
        "SP": 1.0 if len(predicted) == len(gold) and all(names) else 0.0,
        "FP": sum(names) / n,
        "SPA": sum(strict) / n,
        "FPA": sum(flexible) / n,
    }


def call_units(turn: UtcTurn) -> list[tuple[list[UtcCall], list[UtcCall]]]:
    """Pair predictions with same-name gold calls (strict matches first); leftovers stand alone."""
    free = list(range(len(turn.gold)))
    units: list[tuple[list[UtcCall], list[UtcCall]]] = []
    for pred in turn.predicted:
        same = [i for i in free if normalize_name(turn.gold[i].name) == normalize_name(pred.name)]
        best = next((i for i in same if strict_match(pred, turn.gold[i])), same[0] if same else None)
        if best is None:
            units.append(([pred], []))
        else:
            free.remove(best)
            units.append(([pred], [turn.gold[best]]))
    units.extend(([], [turn.gold[i]]) for i in free)
    return units


def _average(scores: Sequence[dict[str, float]]) -> dict[str, float | int]:
    out: dict[str, float | int] = {m: (sum(s[m] for s in scores) / len(scores) if scores else 0.0) for m in METRICS}
    out["units"] = len(scores)
    return out


Unitizer = Callable[[UtcConversation], list[tuple[list[UtcCall], list[UtcCall]]]]
LEVELS: dict[str, Unitizer] = {
    "call": lambda c: [u for t in c.turns for u in call_units(t)],
    "turn": lambda c: [(t.predicted, t.gold) for t in c.turns],
    "conversation": lambda c: [([p for t in c.turns for p in t.predicted], [g for t in c.turns for g in t.gold])],
}


def _unit_scores(conversations: Sequence[UtcConversation], level: str) -> list[dict[str, float]]:
    return [score_unit(p, g) for c in conversations for p, g in LEVELS[level](c) if p or g]


def prefix_survival(conversations: Sequence[UtcConversation]) -> list[float]:
    """Fraction of dialogues fully correct through turn k (k = 1, 2, ...)."""
    longest = max((len(c.turns) for c in conversations), default=0)
    out = []
    for k in range(1, longest + 1):
        pool = [c for c in conversations if len(c.turns) >= k]
        alive = [c for c in pool if all(_turn_correct(t) for t in c.turns[:k])]
        out.append(len(alive) / len(pool) if pool else 0.0)
    return out


def _turn_correct(turn: UtcTurn) -> bool:
    scores = score_unit(turn.predicted, turn.gold)
    return scores["SP"] == 1.0 and scores["SPA"] == 1.0 or (not turn.predicted and not turn.gold)


def compute_unitoolcall_metrics(conversations: Sequence[UtcConversation]) -> dict[str, Any]:
    """Micro averages per level, macro averages over sources, and prefix survival."""
    sources = sorted({c.source for c in conversations})
    report: dict[str, Any] = {level: _average(_unit_scores(conversations, level)) for level in LEVELS}
    macro: dict[str, Any] = {}
    for level in LEVELS:
        per_source = {s: _average(_unit_scores([c for c in conversations if c.source == s], level)) for s in sources}
        macro[level] = {m: (sum(v[m] for v in per_source.values()) / len(per_source) if per_source else 0.0) for m in METRICS}
    report["macro"] = macro
    report["prefix_survival"] = prefix_survival(conversations)
    return report
