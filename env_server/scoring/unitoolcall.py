"""UniToolCall metrics: SP, FP, SPA and FPA at call, turn and conversation level.

Definitions follow ``unitoolcall-metrics-and-qaoa.md``. For each evaluation unit with predicted
calls P and gold calls G: SP = 1 if |P| = |G| and every p has a name match; FP, SPA and FPA are the
mean over p of the name, strict and flexible match indicators.

Resolved ambiguities (README):
* **one-to-one**: each predicted call may cover at most one gold call of its turn (a maximum
  bipartite matching per indicator), so a duplicate never masks a missing call;
* **conversation level is per turn**: calls are matched only within their own turn, then pooled
  over the dialogue; SP needs every turn to have |P| = |G| with all names matched;
* **schema defaults**: with ``UtcConversation.schemas`` (tool name -> parameters), both sides get
  the schema ``default`` of every property they omit, so an optional argument left out or added at
  its default matches;
* **empty P** scores 0 on every metric. **Empty turns** (no gold and no predicted calls): the paper's
  formula divides by |P| = 0 and leaves them undefined; the published turn-level code returns zeros
  for any turn without predicted calls and still counts it, so such a turn is a turn-level unit
  scoring 0. Call level has no unit for it; a conversation counts once and scores 0 without calls;
* **argument keys keep their case**: the paper normalizes tool names, dates, arrays, strings and
  numbers, not keys (nested keys included);
* the semantic (flexible) rule needs equal argument keys and, per value, either a rule match or
  token ROUGE-L >= 0.7 on the lowercased text forms;
* call level: within each turn, predictions are paired one-to-one with gold calls of the same
  normalized name (strict matches first); each pair, and each leftover call, is one unit;
* **breakdown**: single-hop / multi-hop over turns (a turn with two or more gold calls is
  multi-hop; turn-level metrics) and single-turn / multi-turn over dialogues (conversation-level
  metrics), as the paper reports them;
* prefix survival counts a turn as correct when its turn-level SP and SPA are both 1 (a turn with
  no calls on either side counts as correct there), over the dialogues that have at least k turns.
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
    schemas: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Parameters schema per tool name; their ``default`` values fill omitted arguments."""


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
        return {str(k): normalize_value(v) for k, v in value.items()}
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
    pred_raw = {str(k): v for k, v in pred.arguments.items()}
    gold_raw = {str(k): v for k, v in gold.arguments.items()}
    return all(
        p[k] == g[k] or token_rouge_l(_text(pred_raw[k]), _text(gold_raw[k]), lowercase=True) >= SEMANTIC_THRESHOLD
        for k in g
    )


Match = Callable[[UtcCall, UtcCall], bool]


def _names_match(pred: UtcCall, gold: UtcCall) -> bool:
    return normalize_name(pred.name) == normalize_name(gold.name)


def covered(predicted: Sequence[UtcCall], gold: Sequence[UtcCall], match: Match) -> list[bool]:
    """Which predictions get a gold call of their own: a maximum one-to-one matching (augmenting paths)."""
    owner: dict[int, int] = {}  # gold index -> prediction index

    def place(p: int, seen: set[int]) -> bool:
        for g in range(len(gold)):
            if g in seen or not match(predicted[p], gold[g]):
                continue
            seen.add(g)
            if g not in owner or place(owner[g], seen):
                owner[g] = p
                return True
        return False

    for p in range(len(predicted)):
        place(p, set())
    hits = set(owner.values())
    return [p in hits for p in range(len(predicted))]


Indicators = tuple[list[bool], list[bool], list[bool], bool]
"""Per prediction: name, strict and flexible coverage; and whether |P| = |G| with every name covered."""


def indicators(predicted: Sequence[UtcCall], gold: Sequence[UtcCall]) -> Indicators:
    names = covered(predicted, gold, _names_match)
    exact = len(predicted) == len(gold) and all(names)
    return names, covered(predicted, gold, strict_match), covered(predicted, gold, flexible_match), exact


def pooled_scores(parts: Sequence[Indicators]) -> dict[str, float]:
    """SP, FP, SPA, FPA over the pooled predictions of one or more turns (each matched within itself)."""
    names = [x for part in parts for x in part[0]]
    if not names:
        return dict.fromkeys(METRICS, 0.0)
    n = len(names)
    return {
        "SP": 1.0 if all(part[3] for part in parts) else 0.0,
        "FP": sum(names) / n,
        "SPA": sum(x for part in parts for x in part[1]) / n,
        "FPA": sum(x for part in parts for x in part[2]) / n,
    }


def score_unit(predicted: Sequence[UtcCall], gold: Sequence[UtcCall]) -> dict[str, float]:
    """SP, FP, SPA, FPA of one evaluation unit (one-to-one coverage)."""
    return pooled_scores([indicators(predicted, gold)])


def with_defaults(call: UtcCall, schemas: dict[str, dict[str, Any]]) -> UtcCall:
    """The call with the schema default of every omitted top-level property filled in."""
    schema = schemas.get(call.name) or next(
        (v for k, v in schemas.items() if normalize_name(k) == normalize_name(call.name)), {})
    props = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(props, dict):
        return call
    filled = {k: p["default"] for k, p in props.items() if isinstance(p, dict) and "default" in p and k not in call.arguments}
    return call.model_copy(update={"arguments": {**call.arguments, **filled}}) if filled else call


def resolved_turns(conversation: UtcConversation) -> list[UtcTurn]:
    """The turns with schema defaults applied to both sides."""
    if not conversation.schemas:
        return list(conversation.turns)
    return [UtcTurn(predicted=[with_defaults(c, conversation.schemas) for c in t.predicted],
                    gold=[with_defaults(c, conversation.schemas) for c in t.gold]) for t in conversation.turns]


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


def _call_scores(c: UtcConversation) -> list[dict[str, float]]:
    return [score_unit(p, g) for t in resolved_turns(c) for p, g in call_units(t) if p or g]


def _turn_scores(c: UtcConversation) -> list[dict[str, float]]:
    return [score_unit(t.predicted, t.gold) for t in resolved_turns(c)]


def _conversation_scores(c: UtcConversation) -> list[dict[str, float]]:
    return [pooled_scores([indicators(t.predicted, t.gold) for t in resolved_turns(c)])]


LEVELS: dict[str, Callable[[UtcConversation], list[dict[str, float]]]] = {
    "call": _call_scores,
    "turn": _turn_scores,
    "conversation": _conversation_scores,
}


def _unit_scores(conversations: Sequence[UtcConversation], level: str) -> list[dict[str, float]]:
    return [score for c in conversations for score in LEVELS[level](c)]


def breakdown(conversations: Sequence[UtcConversation]) -> dict[str, Any]:
    """The paper's split: single-/multi-hop turns (turn level), single-/multi-turn dialogues (conversation level)."""
    hops: dict[str, list[dict[str, float]]] = {"single-hop": [], "multi-hop": []}
    dialogues: dict[str, list[dict[str, float]]] = {"single-turn": [], "multi-turn": []}
    for c in conversations:
        for turn, score in zip(c.turns, _turn_scores(c), strict=True):
            hops["multi-hop" if len(turn.gold) >= 2 else "single-hop"].append(score)
        dialogues["multi-turn" if len(c.turns) >= 2 else "single-turn"].extend(_conversation_scores(c))
    return {name: _average(scores) for name, scores in {**hops, **dialogues}.items()}


def prefix_survival(conversations: Sequence[UtcConversation]) -> list[float]:
    """Fraction of dialogues fully correct through turn k (k = 1, 2, ...)."""
    longest = max((len(c.turns) for c in conversations), default=0)
    out = []
    for k in range(1, longest + 1):
        pool = [c for c in conversations if len(c.turns) >= k]
        alive = [c for c in pool if all(_turn_correct(t) for t in resolved_turns(c)[:k])]
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
    report["breakdown"] = breakdown(conversations)
    report["prefix_survival"] = prefix_survival(conversations)
    return report
