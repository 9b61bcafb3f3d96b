"""``paper`` argument check: the soft, per-call grader behind the published tables (doc 6.2).

A call scores in [0, 1]; it passes at >= 0.7. Gold keys the model omitted are not penalised.
Calls of one step are paired greedily by score within each function name.

Resolved ambiguities (documented in the README):
* integers become floats before comparison, but booleans stay booleans;
* a call with no predicted keys (and no missing required key) scores 1.0;
* a nested predicted key absent from the gold dict scores 0 ("param hallucination");
* arrays are sorted by their JSON text before element-wise comparison;
* ROUGE-L is token-level F1, case-sensitive, with CJK characters as tokens (no jieba);
* the "description mentions null" test is case-insensitive.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from env_server.scoring.args_strict import parse_arguments
from env_server.scoring.rouge import token_rouge_l

PAPER_PASS = 0.7
_COORDINATE = re.compile(r"^\d+\.\d+,\d+\.\d+$")


class PaperError(str, Enum):
    """Per-call error labels of the paper-era grader."""

    MISS_REQUIRED = "miss required params"
    PARAM_HALLUCINATION = "param hallucination"
    TYPE_ERROR = "type error"
    VALUE_HALLUCINATION = "param value hallucination"
    VALUE_ERROR = "param value error"


@dataclass(frozen=True, slots=True)
class PaperScore:
    score: float
    errors: tuple[PaperError, ...] = ()

    @property
    def ok(self) -> bool:
        return self.score >= PAPER_PASS


def _floatify(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def score_value(pred: Any, gold: Any) -> PaperScore:
    """Soft comparison of one value (doc 6.2, "Value comparison")."""
    pred, gold = _floatify(pred), _floatify(gold)
    if type(pred) is not type(gold):
        return PaperScore(0.0, (PaperError.TYPE_ERROR,))
    if pred == gold:
        return PaperScore(1.0)
    if isinstance(gold, str) and "".join(pred.split()).lower() == "".join(gold.split()).lower():
        return PaperScore(1.0)
    if isinstance(gold, dict):
        return _average([score_value(v, gold[k]) if k in gold else _hallucinated() for k, v in pred.items()])
    if isinstance(gold, list):
        if len(pred) != len(gold):
            return PaperScore(0.0, (PaperError.VALUE_ERROR,))
        key = lambda v: json.dumps(v, sort_keys=True, ensure_ascii=False)  # noqa: E731
        return _average([score_value(p, g) for p, g in zip(sorted(pred, key=key), sorted(gold, key=key), strict=True)])
    if isinstance(gold, str):
        if _COORDINATE.match(pred) and _COORDINATE.match(gold):
            return PaperScore(1.0)
        score = token_rouge_l(pred, gold)
        return PaperScore(score, () if score > PAPER_PASS else (PaperError.VALUE_ERROR,))
    return PaperScore(0.0, (PaperError.VALUE_ERROR,))


def _hallucinated() -> PaperScore:
    return PaperScore(0.0, (PaperError.PARAM_HALLUCINATION,))


def _average(parts: Sequence[PaperScore]) -> PaperScore:
    if not parts:
        return PaperScore(1.0)
    errors = tuple(e for p in parts for e in p.errors)
    return PaperScore(sum(p.score for p in parts) / len(parts), errors)


def score_call_paper(
    parameters: dict[str, Any] | None, pred_arguments: str | dict[str, Any], gold_arguments: str | dict[str, Any]
) -> PaperScore:
    """Score one predicted call against one gold call of the same name."""
    parameters = parameters or {}
    props: dict[str, Any] = parameters.get("properties", {}) or {}
    ok, pred = parse_arguments(pred_arguments)
    if not ok or not isinstance(pred, dict):
        return PaperScore(0.0, (PaperError.TYPE_ERROR,))
    _, gold = parse_arguments(gold_arguments)
    gold = gold if isinstance(gold, dict) else {}
    if any(key not in pred for key in parameters.get("required", []) or []):
        return PaperScore(0.0, (PaperError.MISS_REQUIRED,))
    parts = []
    for key, value in pred.items():
        if key not in props:
            parts.append(_hallucinated())
        elif key in gold:
            parts.append(score_value(value, gold[key]))
        else:
            parts.append(_score_extra(value, props[key]))
    return _average(parts)


def _score_extra(value: Any, prop: Any) -> PaperScore:
    """A schema key the gold omitted: fine if its value is documented in the description."""
    description = str(prop.get("description", "")) if isinstance(prop, dict) else ""
    if value is None and "null" in description.lower():
        return PaperScore(1.0)
    if value is not None and str(value) in description:
        return PaperScore(1.0)
    return PaperScore(0.0, (PaperError.VALUE_HALLUCINATION,))


def pair_calls_paper(
    parameters: dict[str, dict[str, Any]],
    predicted: Sequence[tuple[str, str]],
    gold: Sequence[tuple[str, str]],
) -> list[tuple[int, int | None, PaperScore]]:
    """Greedy pairing by score within each name: (pred index, gold index or None, score)."""
    used: set[int] = set()
    out: list[tuple[int, int | None, PaperScore]] = []
    for pi, (name, args) in enumerate(predicted):
        best: tuple[int, PaperScore] | None = None
        for gi, (gname, gargs) in enumerate(gold):
            if gi in used or gname != name:
                continue
            score = score_call_paper(parameters.get(name), args, gargs)
            if best is None or score.score > best[1].score:
                best = (gi, score)
        if best is None:
            out.append((pi, None, PaperScore(0.0, (PaperError.PARAM_HALLUCINATION,))))
        else:
            used.add(best[0])
            out.append((pi, best[0], best[1]))
    return out
