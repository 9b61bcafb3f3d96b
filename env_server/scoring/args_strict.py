"""``strict`` argument check: the current official checker (doc 5.2), quirks behind named flags.

A call passes when (1) the predicted JSON validates against the tool's parameters schema with the
checker's own validator and (2) it equals the gold arguments under the strict comparison rules.
Every known quirk is a field of :class:`StrictQuirks`; the defaults reproduce the official
behaviour and each flag set to False gives the obvious "fixed" behaviour instead.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from enum import Enum
from typing import Any

from env_server.scoring.rouge import RougeError, RougeQuirks, has_cjk, segment_cjk, summary_rouge_l

ROUGE_THRESHOLD = 0.7
SHORT_STRING_LIMIT = 10
EDIT_RATIO_THRESHOLD = 0.8


@dataclass(frozen=True, kw_only=True)
class StrictQuirks:
    """Known quirks of the official checker. True (the default) mirrors the official code."""

    bool_passes_integer_check: bool = True
    """Schema check: ``true`` is a Python int, so it passes ``integer`` and ``number``."""
    untyped_schema_is_string: bool = True
    """Schema check: a property schema with no ``type`` (and no ``anyOf``) must be a string."""
    propertyless_object_rejects_keys: bool = True
    """Schema check: an object schema without ``properties`` rejects every key (even gold's)."""
    null_never_passes: bool = True
    """Schema check: ``null`` fails unless the schema type is ``null`` (False: null passes any type)."""
    nested_labels_for_top_level_values: bool = True
    """Error labels: value problems of top-level parameters read "nested …"."""
    root_ignores_additional_properties: bool = True
    """Schema check: the tool's own root ``additionalProperties`` is ignored."""
    short_string_ratio_only_fails: bool = True
    """Strings under 10 chars: a ratio >= 0.8 does not pass, it falls through to ROUGE."""
    rouge_splits_sentences_on_dots: bool = True
    """ROUGE: cut text into sentences on every dot (makes dotted values lenient)."""
    rouge_case_sensitive: bool = True
    """ROUGE: compare words case-sensitively, punctuation attached."""
    pair_by_raw_strings: bool = True
    """Parallel pairing: sort predictions by their raw text (key order and spacing matter)."""
    delete_one_step_after_arg_error: bool = True
    """Task walk: delete only the one step after the first argument error (inflates AP)."""

    @property
    def rouge(self) -> RougeQuirks:
        return RougeQuirks(
            split_sentences_on_dots=self.rouge_splits_sentences_on_dots, case_sensitive=self.rouge_case_sensitive
        )


OFFICIAL = StrictQuirks()


class ArgErrorKind(str, Enum):
    """Fine-grained cause of a failed argument check (mapped to the taxonomy in taxonomy.py)."""

    INVALID_JSON = "invalid_json"
    REQUIRED_MISSING = "required_missing"
    NOT_DEFINED = "not_defined"
    SCHEMA_TYPE = "schema_type"
    ENUM = "enum"
    MATCH_TYPE = "match_type"
    KEYS_MISSING = "keys_missing"
    KEYS_EXTRA = "keys_extra"
    ARRAY_LENGTH = "array_length"
    VALUE_MISMATCH = "value_mismatch"
    STRING_EDIT = "string_edit"
    STRING_ROUGE = "string_rouge"
    ROUGE_FAILED = "rouge_failed"


@dataclass(frozen=True, slots=True)
class ArgCheck:
    """Outcome of checking one predicted call against one gold call."""

    ok: bool
    kind: ArgErrorKind | None = None
    message: str = "correct"


PASS = ArgCheck(True)

_PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "float": (float,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _fail(kind: ArgErrorKind, message: str) -> ArgCheck:
    return ArgCheck(False, kind, message)


def _schema_error(kind: ArgErrorKind, text: str, depth: int, q: StrictQuirks) -> ArgCheck:
    """Root-level problems get plain labels; deeper ones "nested" (top-level values too, by quirk)."""
    nested = depth >= (1 if q.nested_labels_for_top_level_values else 2)
    if not nested:
        return _fail(kind, f"error_schema: {text}")
    if text.startswith("required "):  # the official wording: "required nested args missing"
        return _fail(kind, f"error_schema: required nested {text.removeprefix('required ')}")
    return _fail(kind, f"error_schema: nested {text}")


def _type_ok(value: Any, type_name: str, q: StrictQuirks) -> bool:
    expected = _PY_TYPES.get(type_name)
    if expected is None:
        return True  # unknown type names skip the check
    if isinstance(value, bool) and type_name in ("integer", "number") and not q.bool_passes_integer_check:
        return False
    return isinstance(value, expected)


def validate_value(value: Any, schema: dict[str, Any], q: StrictQuirks, depth: int) -> ArgCheck:
    """The checker's own recursive schema validation; returns the first error."""
    if "anyOf" in schema:
        return _validate_any_of(value, schema["anyOf"], q, depth)
    type_name = schema.get("type", "string" if q.untyped_schema_is_string else None)
    if value is None and type_name != "null":
        if q.null_never_passes:
            return _schema_error(ArgErrorKind.SCHEMA_TYPE, "args type inconsistent", depth, q)
        return PASS  # fixed behaviour: null means "no value" and is left to the gold comparison
    if isinstance(type_name, str) and not _type_ok(value, type_name, q):
        return _schema_error(ArgErrorKind.SCHEMA_TYPE, "args type inconsistent", depth, q)
    if "enum" in schema and value not in schema["enum"]:
        return _schema_error(ArgErrorKind.ENUM, "args value not in enum", depth, q)
    if type_name == "object" and isinstance(value, dict):
        return _validate_object(value, schema, q, depth)
    if type_name == "array" and isinstance(value, list) and isinstance(schema.get("items"), dict):
        return _validate_items(value, schema["items"], q, depth)
    return PASS


def _validate_any_of(value: Any, branches: list[dict[str, Any]], q: StrictQuirks, depth: int) -> ArgCheck:
    """Passes when a branch passes; else the first branch's error."""
    first: ArgCheck | None = None
    for branch in branches:
        result = validate_value(value, branch, q, depth)
        if result.ok:
            return PASS
        first = first or result
    return first or PASS


def _validate_items(value: list[Any], items: dict[str, Any], q: StrictQuirks, depth: int) -> ArgCheck:
    for item in value:
        result = validate_value(item, items, q, depth + 1)
        if not result.ok:
            return result
    return PASS


def _validate_object(value: dict[str, Any], schema: dict[str, Any], q: StrictQuirks, depth: int) -> ArgCheck:
    props = schema.get("properties")
    for key in schema.get("required", []) or []:
        if key not in value:
            return _schema_error(ArgErrorKind.REQUIRED_MISSING, "required args missing", depth, q)
    open_object = schema.get("additionalProperties") is True or (
        props is None and not q.propertyless_object_rejects_keys
    )
    props = props or {}
    for key, item in value.items():
        if key not in props:
            if open_object:
                continue
            return _schema_error(ArgErrorKind.NOT_DEFINED, "args not defined", depth, q)
        result = validate_value(item, props[key] if isinstance(props[key], dict) else {}, q, depth + 1)
        if not result.ok:
            return result
    return PASS


def validate_arguments(parameters: dict[str, Any] | None, pred: Any, q: StrictQuirks = OFFICIAL) -> ArgCheck:
    """Step 1 of the strict check: validate parsed predicted arguments against the tool schema."""
    parameters = parameters or {}
    root: dict[str, Any] = {
        "type": "object",
        "properties": parameters.get("properties", {}) or {},
        "required": parameters.get("required", []) or [],
    }
    if not q.root_ignores_additional_properties and "additionalProperties" in parameters:
        root["additionalProperties"] = parameters["additionalProperties"]
    if not isinstance(pred, dict):
        return _schema_error(ArgErrorKind.SCHEMA_TYPE, "args type inconsistent", 0, q)
    return validate_value(pred, root, q, 0)


def _at(path: str) -> str:
    """The official location suffix: `` at '<path>'``, or nothing at the root."""
    return f" at '{path}'" if path else ""


def _keys_detail(missing: list[str], extra: list[str]) -> str:
    """Only the non-empty sides, missing first. The official code lists a set (its order varies
    between processes for two or more keys); we keep gold order for missing, prediction order for extra."""
    parts = [f"{label}: {keys}" for label, keys in (("missing", missing), ("extra", extra)) if keys]
    return ", ".join(parts)


def compare_strings(pred: str, gold: str, path: str, q: StrictQuirks = OFFICIAL) -> ArgCheck:
    """The four string rules: exact, folded, short-string edit ratio, ROUGE-L >= 0.7."""
    if pred == gold:
        return PASS
    if "".join(pred.split()).lower() == "".join(gold.split()).lower():
        return PASS
    if len(gold) < SHORT_STRING_LIMIT:
        ratio = difflib.SequenceMatcher(None, pred, gold).ratio()
        if ratio < EDIT_RATIO_THRESHOLD:
            return _fail(ArgErrorKind.STRING_EDIT, f"error_match: string similarity too low{_at(path)} (edit score: {ratio:.2f})")
        if not q.short_string_ratio_only_fails:
            return PASS
    if has_cjk(pred) or has_cjk(gold):
        pred, gold = segment_cjk(pred), segment_cjk(gold)
    try:
        score = summary_rouge_l(pred, gold, q.rouge)
    except RougeError:
        return _fail(ArgErrorKind.ROUGE_FAILED, f"error_match: rouge calculation failed{_at(path)}")
    if score < ROUGE_THRESHOLD:
        return _fail(ArgErrorKind.STRING_ROUGE, f"error_match: string similarity too low{_at(path)} (rouge score: {score:.2f})")
    return PASS


def compare_values(pred: Any, gold: Any, path: str = "", q: StrictQuirks = OFFICIAL) -> ArgCheck:
    """Step 2 of the strict check: recursive comparison with identical Python types."""
    where = _at(path)
    if type(pred) is not type(gold):
        return _fail(ArgErrorKind.MATCH_TYPE, f"error_match: value type inconsistent{where}")
    if isinstance(gold, dict):
        missing = [k for k in gold if k not in pred]
        extra = [k for k in pred if k not in gold]
        if missing or extra:
            kind = ArgErrorKind.KEYS_EXTRA if extra else ArgErrorKind.KEYS_MISSING
            return _fail(kind, f"error_match: args keys mismatch{where} ({_keys_detail(missing, extra)})")
        for key in gold:
            result = compare_values(pred[key], gold[key], f"{path}.{key}" if path else key, q)
            if not result.ok:
                return result
        return PASS
    if isinstance(gold, list):
        if len(pred) != len(gold):
            return _fail(ArgErrorKind.ARRAY_LENGTH, f"error_match: array length mismatch{where}")
        for i, (p, g) in enumerate(zip(pred, gold, strict=True)):
            result = compare_values(p, g, f"{path}[{i}]", q)
            if not result.ok:
                return result
        return PASS
    if isinstance(gold, str):
        return compare_strings(pred, gold, path, q)
    if pred != gold:
        return _fail(ArgErrorKind.VALUE_MISMATCH, f"error_match: value mismatch{where}")
    return PASS


def parse_arguments(raw: str | dict[str, Any]) -> tuple[bool, Any]:
    if isinstance(raw, dict):
        return True, raw
    try:
        return True, json.loads(raw)
    except (TypeError, ValueError):
        return False, None


def check_call_strict(
    parameters: dict[str, Any] | None,
    pred_arguments: str | dict[str, Any],
    gold_arguments: str | dict[str, Any],
    q: StrictQuirks = OFFICIAL,
) -> ArgCheck:
    """Schema validation, then strict comparison with gold. The first error wins."""
    ok, pred = parse_arguments(pred_arguments)
    if not ok:
        return _fail(ArgErrorKind.INVALID_JSON, "error: args invalid json format")
    schema_result = validate_arguments(parameters, pred, q)
    if not schema_result.ok:
        return schema_result
    ok, gold = parse_arguments(gold_arguments)
    if not ok:
        return _fail(ArgErrorKind.INVALID_JSON, "error: args invalid json format")  # the official text for either side
    return compare_values(pred, gold, "", q)
