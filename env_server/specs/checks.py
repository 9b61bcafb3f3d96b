"""``toolenv specs check``: per-spec problems and catalog statistics.

Errors make the command exit non-zero; warnings (mostly normalizations applied to imported
schemas) are reported but tolerated. Every spec is also run through the simulator with
sample arguments, and its outputs are validated against its output schema.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from env_server.catalog import Catalog
from env_server.catalog.loaders import MCP_NAME_RE
from env_server.catalog.models import Operation, SourceFormat, ToolSpec
from env_server.errors import ToolCallError
from env_server.simulators import SimContext, simulate
from env_server.simulators.plans import PlanCache
from env_server.simulators.records import default_facts
from env_server.simulators.rows import ValidatorCache
from env_server.simulators.values import LEGACY_HINTS, known_kind
from env_server.specs.samples import sample_arguments
from env_server.validation import ArgumentValidator

NATIVE_NAME_RE = re.compile(r"^[a-z][a-z0-9_]{2,63}$")
_FORBIDDEN_OUTPUT = ("pattern", "$ref", "oneOf", "anyOf", "allOf", "not", "if", "patternProperties")
SAMPLE_VARIANTS = 3
TEMPLATED_NAME_RE = re.compile(
    r"(^|_)(data|item|items|func|function|tool|api|endpoint|test|method|action|call|op|query|thing|stuff)_?\d+$"
)
NEAR_DUPLICATE_RATIO = 0.9


@dataclass
class SpecProblem:
    tool: str
    level: str  # "error" | "warning"
    message: str


@dataclass
class CheckReport:
    problems: list[SpecProblem] = field(default_factory=list)
    by_category: Counter[str] = field(default_factory=Counter)
    by_source: Counter[str] = field(default_factory=Counter)
    by_operation: Counter[str] = field(default_factory=Counter)
    param_types: Counter[str] = field(default_factory=Counter)
    providers: set[str] = field(default_factory=set)
    write_tools: int = 0
    normalizations: int = 0
    write_provider_set: set[str] = field(default_factory=set)

    @property
    def write_providers(self) -> int:
        return len(self.write_provider_set)

    @property
    def errors(self) -> list[SpecProblem]:
        return [p for p in self.problems if p.level == "error"]

    @property
    def warnings(self) -> list[SpecProblem]:
        return [p for p in self.problems if p.level == "warning"]


def check_catalog(catalog: Catalog, *, simulate_outputs: bool = True) -> CheckReport:
    report = CheckReport()
    for name, message in catalog.load_problems:
        report.problems.append(SpecProblem(name, "error", message))
    report.problems += description_problems(list(catalog.tools.values()))
    for spec in catalog.tools.values():
        report.by_category[spec.category] += 1
        report.by_source[spec.source.value] += 1
        report.by_operation[spec.profile.operation.value] += 1
        report.providers.add(f"{spec.source.value}:{spec.provider}")
        report.write_tools += spec.profile.operation.writes
        if spec.profile.operation.writes:
            report.write_provider_set.add(f"{spec.source.value}:{spec.provider}")
        report.normalizations += len(spec.normalizations)
        _count_types(spec.input_schema, report.param_types, top=True)
        report.problems += check_spec(spec, simulate_outputs=simulate_outputs)
    return report


def check_spec(spec: ToolSpec, *, simulate_outputs: bool = True) -> list[SpecProblem]:
    out: list[SpecProblem] = []

    def err(msg: str) -> None:
        out.append(SpecProblem(spec.name, "error", msg))

    def warn(msg: str) -> None:
        out.append(SpecProblem(spec.name, "warning", msg))

    native = spec.source is SourceFormat.NATIVE
    if not MCP_NAME_RE.match(spec.name):
        err("name is not valid for MCP (^[A-Za-z0-9._-]{1,128}$)")
    elif native and not NATIVE_NAME_RE.match(spec.name):
        err("native names must match ^[a-z][a-z0-9_]{2,63}$")
    if not spec.description.strip():
        (err if native else warn)("empty description")
    if native and TEMPLATED_NAME_RE.search(spec.name):
        err("templated name (a trailing number like getData1); name the function after what it does")
    for n in spec.normalizations:
        warn(f"normalized {n.path}: {n.change}")
    schemas_ok = True
    for label, schema in (("input", spec.input_schema), ("output", spec.output_schema)):
        problem = schema_problem(schema)
        if problem is not None:
            err(f"{label} schema does not compile: {problem}")
            schemas_ok = False
            continue
        for path, problem in _structure_problems(schema, label, output=label == "output"):
            (err if native else warn)(f"{path}: {problem}")
    if spec.input_schema.get("type") != "object":
        err("input schema must be an object")
    if native:
        out += [SpecProblem(spec.name, "error", m) for m in _profile_problems(spec)]
    if simulate_outputs and schemas_ok:
        out += _simulation_problems(spec)
    return out


def schema_problem(schema: dict[str, Any]) -> str | None:
    """Why ``schema`` is not a valid JSON Schema (2020-12), or None when it is.

    The Rust meta-validator answers the common case in microseconds; only a schema it rejects
    goes through jsonschema, whose message is the one users read.
    """
    if jsonschema_rs.meta.is_valid(schema):
        return None
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        return str(exc.message)
    try:
        jsonschema_rs.meta.validate(schema)
    except jsonschema_rs.ValidationError as exc:
        return str(exc.message)
    return None


def description_problems(specs: list[ToolSpec]) -> list[SpecProblem]:
    """Identical descriptions (errors for native specs) and near-duplicates (warnings).

    Near-duplicates are found without comparing all pairs: only descriptions sharing at
    least half of their uncommon words are compared with difflib's ratio.
    """
    return _identical_descriptions(specs) + _near_duplicate_descriptions(specs)


def _identical_descriptions(specs: list[ToolSpec]) -> list[SpecProblem]:
    found: list[SpecProblem] = []
    by_text: dict[str, str] = {}
    for spec in specs:
        key = " ".join(spec.description.lower().split())
        if key and key in by_text:
            level = "error" if spec.source is SourceFormat.NATIVE else "warning"
            found.append(SpecProblem(spec.name, level, f"same description as {by_text[key]}"))
        by_text.setdefault(key, spec.name)
    return found


def _near_duplicate_descriptions(specs: list[ToolSpec]) -> list[SpecProblem]:
    found: list[SpecProblem] = []
    tokens = [set(re.findall(r"[a-z]{3,}", s.description.lower())) for s in specs]
    df: Counter[str] = Counter(t for toks in tokens for t in toks)
    index = _rare_word_index(tokens, df)
    for i, toks in enumerate(tokens):
        rare = [t for t in toks if df[t] <= 40]
        shared: Counter[int] = Counter(j for t in rare for j in index[t] if j > i)
        for j, n in shared.items():
            if n * 2 < max(len(rare), 1):
                continue
            a, b = specs[i].description.lower(), specs[j].description.lower()
            if a != b and difflib.SequenceMatcher(None, a, b).ratio() >= NEAR_DUPLICATE_RATIO:
                found.append(SpecProblem(specs[j].name, "warning", f"description nearly the same as {specs[i].name}"))
    return found


def _rare_word_index(tokens: list[set[str]], df: Counter[str]) -> dict[str, list[int]]:
    """For each uncommon word (in at most 40 descriptions), the descriptions holding it."""
    index: dict[str, list[int]] = {}
    for i, toks in enumerate(tokens):
        for t in toks:
            if df[t] <= 40:
                index.setdefault(t, []).append(i)
    return index


def _structure_problems(schema: Any, path: str, *, output: bool) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    if not isinstance(schema, dict):
        return found
    if output:
        for key in _FORBIDDEN_OUTPUT:
            if key in schema:
                found.append((path, f"output schemas may not use '{key}' (the simulator cannot honour it)"))
    props = schema.get("properties")
    if schema.get("type") == "object":
        if not props and output:
            found.append((path, "bare object without properties"))
        elif not props and path != "input":
            found.append((path, "object without properties"))
    if isinstance(props, dict):
        for req in schema.get("required") or []:
            if req not in props:
                found.append((path, f"required parameter '{req}' is not a property"))
        for key, sub in props.items():
            found += _structure_problems(sub, f"{path}.{key}", output=output)
    if schema.get("type") == "array":
        if not isinstance(schema.get("items"), dict):
            found.append((path, "array without an item schema"))
        else:
            found += _structure_problems(schema["items"], f"{path}[]", output=output)
    return found


def _profile_problems(spec: ToolSpec) -> list[str]:
    p = spec.profile
    props = spec.input_schema.get("properties") or {}
    out_props = spec.output_schema.get("properties") or {}
    msgs: list[str] = []
    if p.id_param and p.id_param not in props:
        msgs.append(f"profile.id_param '{p.id_param}' is not an input property")
    for f in p.filter_params:
        if f not in props:
            msgs.append(f"profile.filter_params '{f}' is not an input property")
    if p.collection:
        coll = out_props.get(p.collection)
        if not isinstance(coll, dict) or coll.get("type") != "array":
            msgs.append(f"profile.collection '{p.collection}' is not an array output property")
    elif p.operation in (Operation.SEARCH, Operation.LIST):
        msgs.append("search/list profiles need 'collection' (the output array of results)")
    if p.operation in (Operation.UPDATE, Operation.DELETE) and not p.id_param:
        msgs.append(f"{p.operation.value} profiles need 'id_param'")
    vocab = default_facts().vocab
    for field_name, kind in sorted(p.hints.items()):
        if kind not in LEGACY_HINTS and not known_kind(kind, vocab):
            msgs.append(f"profile.hints['{field_name}'] names an unknown value kind '{kind}'")
    return msgs


def _simulation_problems(spec: ToolSpec) -> list[SpecProblem]:
    problems: list[SpecProblem] = []
    arg_validator = ArgumentValidator(spec.name, spec.input_schema)
    out_validator = Draft202012Validator(spec.output_schema)
    plans: PlanCache = {}  # this check's own: the spec's schemas compile once for its variants
    validators: ValidatorCache = {}
    for variant in range(SAMPLE_VARIANTS):
        args = sample_arguments(spec, variant)
        bad_args = arg_validator.problems(args)
        if bad_args:
            problems.append(SpecProblem(spec.name, "error", f"sample arguments v{variant} invalid: {bad_args[0]}"))
            continue
        try:
            result = simulate(spec, args, SimContext(plans=plans, validators=validators))
        except ToolCallError:
            continue
        error = next(iter(out_validator.iter_errors(result)), None)
        if error is not None:
            where = "/".join(map(str, error.absolute_path)) or "(root)"
            problems.append(SpecProblem(spec.name, "error", f"simulated output fails output schema at {where}: {error.message}"))
    return problems


def _count_types(schema: Any, counter: Counter[str], top: bool = False) -> None:
    if not isinstance(schema, dict):
        return
    if not top:
        if "enum" in schema:
            counter["enum"] += 1
        else:
            t = schema.get("type", "any")
            counter[t if isinstance(t, str) else "union"] += 1
            if t == "object" and schema.get("properties"):
                counter["nested"] += 1
    for sub in (schema.get("properties") or {}).values():
        _count_types(sub, counter)
    if isinstance(schema.get("items"), dict):
        _count_types(schema["items"], counter)
