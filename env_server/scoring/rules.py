"""Per-argument match rules of our native scenario format, and the argument check that applies them.

A native gold node may carry ``match``: one :class:`ArgRule` per top-level argument name. The
rules say which other values a careful agent may fairly write:

* ``any_of``: equivalent values ("Lisbon, Portugal" for "Lisbon"); the gold value is always one;
* ``optional_default``: leaving an optional argument out, or setting it to the schema's default
  (or to gold's value), is correct;
* ``free_text``: any non-empty text holding the user's keywords (an email subject, a task name);
* ``number_tolerance``: any number within this distance of gold's.

:func:`check_call_native` is the strict check (:func:`~env_server.scoring.args_strict.check_call_strict`)
with those arguments judged by their rule instead: the schema check runs on the whole call, the
other arguments are compared exactly as the official checker compares them. A gold node whose
``match`` is ``None`` (official data, or native data graded with ``--grading official``) never
reaches this module: it is checked by the official code, unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from env_server.scoring.args_strict import (
    OFFICIAL,
    PASS,
    ArgCheck,
    ArgErrorKind,
    StrictQuirks,
    check_call_strict,
    compare_values,
    parse_arguments,
    validate_arguments,
)

MAX_PAIRING_CALLS = 8
_ABSENT = object()


class Grading(str, Enum):
    """How native gold is graded: with its match rules, or as the official checker would."""

    NATIVE = "native"
    OFFICIAL = "official"


class FreeText(BaseModel):
    """Any non-empty text on the topic: it must hold the user's keywords (case-insensitive)."""

    model_config = ConfigDict(extra="forbid")

    keywords: list[str] = Field(
        min_length=1, description="Words the user gave; 'a|b' accepts either spelling. All must appear."
    )
    min_keywords: int | None = Field(
        default=None, ge=1, description="Accept text holding at least this many keywords (default: all)."
    )

    def missing(self, text: str) -> list[str]:
        folded = text.casefold()
        return [k for k in self.keywords if not any(alt.strip().casefold() in folded for alt in k.split("|"))]

    def accepts(self, text: str) -> bool:
        need = self.min_keywords or len(self.keywords)
        return bool(text.strip()) and len(self.keywords) - len(self.missing(text)) >= need


class ArgRule(BaseModel):
    """How one gold argument may fairly be matched. At most one value rule; ``optional_default`` combines."""

    model_config = ConfigDict(extra="forbid")

    any_of: list[Any] | None = Field(default=None, min_length=1, description="Values equivalent to gold's.")
    optional_default: bool = Field(
        default=False, description="Omitting the argument, or giving the schema default, is also correct."
    )
    free_text: FreeText | None = Field(default=None, description="Any text on the topic, checked by keywords.")
    number_tolerance: float | None = Field(default=None, ge=0, description="Largest accepted |value - gold|.")

    @model_validator(mode="after")
    def _one_value_rule(self) -> ArgRule:
        value_rules = [r for r in (self.any_of, self.free_text, self.number_tolerance) if r is not None]
        if len(value_rules) > 1:
            raise ValueError("give at most one of any_of, free_text, number_tolerance")
        if not value_rules and not self.optional_default:
            raise ValueError("a rule needs any_of, optional_default, free_text or number_tolerance")
        return self

    def judge(self, pred: Any, gold: Any, path: str, default: Any, q: StrictQuirks = OFFICIAL) -> ArgCheck:
        """Check one argument (``_ABSENT`` when a side leaves it out)."""
        if pred is _ABSENT:
            if self.optional_default:
                return PASS
            return ArgCheck(False, ArgErrorKind.KEYS_MISSING, f"error_match: args keys mismatch (missing: ['{path}'])")
        if self.optional_default and default is not _ABSENT and compare_values(pred, default, path, q).ok:
            return PASS
        if gold is _ABSENT:
            return ArgCheck(False, ArgErrorKind.KEYS_EXTRA,
                            f"error_match: args keys mismatch (extra: ['{path}']; only its default is accepted)")
        return self._judge_value(pred, gold, path, q)

    def _judge_value(self, pred: Any, gold: Any, path: str, q: StrictQuirks) -> ArgCheck:
        if self.free_text is not None:
            if isinstance(pred, str) and self.free_text.accepts(pred):
                return PASS
            missing = self.free_text.missing(pred) if isinstance(pred, str) else self.free_text.keywords
            return ArgCheck(False, ArgErrorKind.STRING_ROUGE,
                            f"error_match: free text at '{path}' lacks the keyword(s) {missing}")
        if self.number_tolerance is not None:
            if _is_number(pred) and _is_number(gold) and abs(pred - gold) <= self.number_tolerance:
                return PASS
            return ArgCheck(False, ArgErrorKind.VALUE_MISMATCH,
                            f"error_match: value at '{path}' is not within {self.number_tolerance} of {gold!r}")
        accepted = [gold, *(self.any_of or [])]
        if any(compare_values(pred, value, path, q).ok for value in accepted):
            return PASS
        if self.any_of is None:
            return compare_values(pred, gold, path, q)
        return ArgCheck(False, ArgErrorKind.VALUE_MISMATCH,
                        f"error_match: value at '{path}' is none of the accepted values {accepted!r}")


MatchRules = dict[str, ArgRule]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def check_call_native(
    parameters: dict[str, Any] | None,
    pred_arguments: str | dict[str, Any],
    gold_arguments: str | dict[str, Any],
    rules: Mapping[str, ArgRule],
    q: StrictQuirks = OFFICIAL,
) -> ArgCheck:
    """The strict check with the ruled arguments judged by their rules."""
    ok, pred = parse_arguments(pred_arguments)
    if not ok:
        return ArgCheck(False, ArgErrorKind.INVALID_JSON, "error: args invalid json format")
    schema_result = validate_arguments(parameters, pred, q)
    if not schema_result.ok:
        return schema_result
    ok, gold = parse_arguments(gold_arguments)
    if not ok or not isinstance(gold, dict):
        return ArgCheck(False, ArgErrorKind.INVALID_JSON, "error: args invalid json format")
    rest_pred = {k: v for k, v in pred.items() if k not in rules}
    rest_gold = {k: v for k, v in gold.items() if k not in rules}
    result = compare_values(rest_pred, rest_gold, "", q)
    if not result.ok:
        return result
    props = (parameters or {}).get("properties") or {}
    for key, rule in rules.items():
        schema = props.get(key)
        default = schema.get("default", _ABSENT) if isinstance(schema, dict) else _ABSENT
        result = rule.judge(pred.get(key, _ABSENT), gold.get(key, _ABSENT), key, default, q)
        if not result.ok:
            return result
    return PASS


def check_gold_call(
    parameters: dict[str, Any] | None,
    pred_arguments: str | dict[str, Any],
    gold_arguments: str | dict[str, Any],
    rules: Mapping[str, ArgRule] | None,
    q: StrictQuirks = OFFICIAL,
) -> ArgCheck:
    """Official check when ``rules`` is None (official grading), else the native check."""
    if rules is None:
        return check_call_strict(parameters, pred_arguments, gold_arguments, q)
    return check_call_native(parameters, pred_arguments, gold_arguments, rules, q)


GoldCall = tuple[str, str, Mapping[str, ArgRule]]
"""A gold call of a matched step: name, JSON arguments and its rules."""


def pair_native(
    calls: Sequence[tuple[str, str]], golds: Sequence[GoldCall], parameters: dict[str, dict[str, Any]],
    q: StrictQuirks = OFFICIAL,
) -> list[int] | None:
    """A pairing (gold index per call) under which every call passes, or None when there is none.

    The official checker pairs parallel calls by sorting their raw text, so writing the keys of
    one call in another order can pair it with the wrong gold call. Native grading looks for any
    pairing that works (backtracking; a step holds a handful of calls).
    """
    if len(calls) != len(golds) or len(calls) > MAX_PAIRING_CALLS:
        return None
    passes = [
        [g[0] == name and check_call_native(parameters.get(name), args, g[1], g[2], q).ok for g in golds]
        for name, args in calls
    ]
    chosen: list[int] = []

    def extend(i: int) -> bool:
        if i == len(calls):
            return True
        for j in range(len(golds)):
            if passes[i][j] and j not in chosen:
                chosen.append(j)
                if extend(i + 1):
                    return True
                chosen.pop()
        return False

    return chosen if extend(0) else None
