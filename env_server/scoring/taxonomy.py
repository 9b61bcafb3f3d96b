"""Error taxonomy of failed tasks: the paper-era classifier (doc 6.4) and its 9 published columns.

Every failed task gets one fine-grained :class:`ErrorReason` and the :class:`ErrorColumn` it maps
to. Name failures are classified from the model's steps and the gold names; argument failures
from the earliest failing call. Strict-mode checker kinds are mapped as the doc proposes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from env_server.scoring.args_paper import PaperError
from env_server.scoring.args_strict import ArgErrorKind
from env_server.scoring.grading import CallCheck
from env_server.scoring.models import ASK, PREPARE, PredictedStep

CONTENT_FILTER_CALL = "filter_by_prompt"


class ErrorReason(str, Enum):
    """The old classifier's labels (one per failed task)."""

    REJECT_TOOL_CALLING = "reject tool calling"
    CALL_WITHOUT_REJECT = "call function without reject"
    NAME_HALLUCINATION = "function name hallucination"
    MISSING_INFORMATION = "missing information in tool calling"
    REDUNDANT_CALL = "redundant tool calling"
    WRONG_FUNCTION = "call the wrong function"
    EARLY_STOP = "early stop"
    MISS_REQUIRED = "miss required params"
    PARAM_HALLUCINATION = "param hallucination"
    TYPE_ERROR = "type error"
    VALUE_HALLUCINATION = "param value hallucination"
    VALUE_ERROR = "param value error"


class ErrorColumn(str, Enum):
    """The 9 columns of the paper's error table, in its order."""

    REFUSAL = "Refusal"
    WRONG_NAME_MISSING_INFO = "Wrong Name / Missing Info"
    WRONG_REFUSAL = "Wrong Refusal"
    REDUNDANT_CALL = "Redundant Call"
    CALL_ERROR = "Call Error"
    EARLY_TERMINATION = "Early Termination"
    PARAM_TYPE_ERROR = "Param Type Error"
    PARAM_HALLUCINATION = "Param Hallucination"
    PARAM_VALUE_ERROR = "Param Value Error"


COLUMN_OF: dict[ErrorReason, ErrorColumn] = {
    ErrorReason.REJECT_TOOL_CALLING: ErrorColumn.REFUSAL,
    ErrorReason.CALL_WITHOUT_REJECT: ErrorColumn.WRONG_REFUSAL,
    ErrorReason.NAME_HALLUCINATION: ErrorColumn.WRONG_NAME_MISSING_INFO,
    ErrorReason.MISSING_INFORMATION: ErrorColumn.WRONG_NAME_MISSING_INFO,
    ErrorReason.REDUNDANT_CALL: ErrorColumn.REDUNDANT_CALL,
    ErrorReason.WRONG_FUNCTION: ErrorColumn.CALL_ERROR,
    ErrorReason.EARLY_STOP: ErrorColumn.EARLY_TERMINATION,
    ErrorReason.TYPE_ERROR: ErrorColumn.PARAM_TYPE_ERROR,
    ErrorReason.PARAM_HALLUCINATION: ErrorColumn.PARAM_HALLUCINATION,
    ErrorReason.VALUE_HALLUCINATION: ErrorColumn.PARAM_HALLUCINATION,
    ErrorReason.VALUE_ERROR: ErrorColumn.PARAM_VALUE_ERROR,
    ErrorReason.MISS_REQUIRED: ErrorColumn.PARAM_VALUE_ERROR,
}

_STRICT_REASON: dict[ArgErrorKind, ErrorReason] = {
    ArgErrorKind.REQUIRED_MISSING: ErrorReason.MISS_REQUIRED,
    ArgErrorKind.NOT_DEFINED: ErrorReason.PARAM_HALLUCINATION,
    ArgErrorKind.KEYS_EXTRA: ErrorReason.PARAM_HALLUCINATION,
    ArgErrorKind.SCHEMA_TYPE: ErrorReason.TYPE_ERROR,
    ArgErrorKind.MATCH_TYPE: ErrorReason.TYPE_ERROR,
    ArgErrorKind.INVALID_JSON: ErrorReason.TYPE_ERROR,
}

_PAPER_PRIORITY: tuple[tuple[PaperError, ErrorReason], ...] = (
    (PaperError.MISS_REQUIRED, ErrorReason.MISS_REQUIRED),
    (PaperError.PARAM_HALLUCINATION, ErrorReason.PARAM_HALLUCINATION),
    (PaperError.TYPE_ERROR, ErrorReason.TYPE_ERROR),
    (PaperError.VALUE_HALLUCINATION, ErrorReason.VALUE_HALLUCINATION),
    (PaperError.VALUE_ERROR, ErrorReason.VALUE_ERROR),
)


@dataclass(frozen=True, slots=True)
class TaskError:
    """The taxonomy label of one failed task, with the reason it came from."""

    reason: ErrorReason
    column: ErrorColumn
    detail: str = ""


def _error(reason: ErrorReason, detail: str = "") -> TaskError:
    return TaskError(reason, COLUMN_OF[reason], detail)


def classify_argument_failure(check: CallCheck) -> TaskError:
    """Argument failures: the earliest failing call's errors, by the old priority order."""
    if check.paper_errors:
        for label, reason in _PAPER_PRIORITY:
            if label in check.paper_errors:
                return _error(reason, check.message)
    if check.strict_kind is not None:
        return _error(_STRICT_REASON.get(check.strict_kind, ErrorReason.VALUE_ERROR), check.message)
    return _error(ErrorReason.VALUE_ERROR, check.message)


def classify_name_failure(steps: Sequence[PredictedStep], gold_names: Sequence[str], tool_names: Iterable[str]) -> TaskError:
    """Name failures (doc 6.4, rules 1-4). Empty steps add no name; text steps add the ask name."""
    if len(steps) == 1 and not steps[0].calls:
        return _error(ErrorReason.REJECT_TOOL_CALLING)
    if list(gold_names) == [PREPARE]:
        return _error(ErrorReason.CALL_WITHOUT_REJECT)
    known = set(tool_names)
    called: list[str] = []
    for step in steps:
        for call in step.calls:
            if call.name == CONTENT_FILTER_CALL:
                return _error(ErrorReason.REJECT_TOOL_CALLING, call.name)
            if call.name not in known:
                return _error(ErrorReason.NAME_HALLUCINATION, call.name)
            called.append(call.name)
        if step.is_text:
            called.append(ASK)
    gold = Counter(gold_names)
    got = Counter(called)
    if ASK in gold and ASK not in got:
        return _error(ErrorReason.MISSING_INFORMATION)
    if len(called) > len(gold_names) - 1:
        return _error(ErrorReason.REDUNDANT_CALL)
    gold_minus = gold - got
    got_minus = got - gold
    if ASK in gold_minus:
        return _error(ErrorReason.MISSING_INFORMATION)
    if got_minus:
        if any(name not in gold for name in called):
            return _error(ErrorReason.WRONG_FUNCTION, ", ".join(sorted(got_minus)))
        return _error(ErrorReason.REDUNDANT_CALL, ", ".join(sorted(got_minus)))
    return _error(ErrorReason.EARLY_STOP)


def summarize_errors(errors: Iterable[TaskError]) -> dict[str, dict[str, float | int]]:
    """Share of each column over all failed tasks (columns in table order, all present)."""
    counts = Counter(e.column for e in errors)
    total = sum(counts.values())
    return {
        col.value: {"share": counts[col] / total if total else 0.0, "count": counts[col]} for col in ErrorColumn
    }
