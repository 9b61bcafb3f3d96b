"""Fair gold: every gold argument must be something a careful agent could know or may vary.

``toolenv scenarios check`` runs :func:`fair_gold_findings` on native scenarios. A finding names
scenario, task, node and argument path. The rules:

* **grounded** -- each gold value appears in the dialogue so far (the user's messages and ask
  answers, word-bounded, case-insensitive), in an earlier observation or assistant text of the
  session, or is a date, time, number, country or currency code the dialogue resolves to
  (relative dates against env_info's date, number words, country and currency names). Values
  from a schema ``enum`` are a choice from the menu, and 0 and 1 (one item, the first) are
  grounded. A match rule makes a value fair when one of its accepted values is grounded
  (``any_of``, ``number_tolerance``), or when leaving it out is correct (``optional_default``);
* **asked for** -- an optional argument in gold must be grounded in the dialogue or an earlier
  observation (for enums: the user names the choice), or carry ``optional_default``;
* **not authored verbatim** -- an ungrounded string of three words or more is free text the
  agent would have to write word for word: it needs a ``free_text`` rule whose keywords the
  user gave.

Rules themselves are checked too: they must name a parameter of the tool, ``optional_default``
only an optional one, and value rules an argument gold sets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.orchestrator.evidence import Evidence, dialogue_evidence, evidence_for, sub_schema
from env_server.orchestrator.models import ScenarioSource, ScenarioSpec
from env_server.scoring.rules import ArgRule

FREE_TEXT_WORDS = 3


@dataclass(frozen=True)
class FairnessFinding:
    scenario_id: str
    task: int
    node: int
    tool: str
    path: str
    message: str

    def __str__(self) -> str:
        at = f"{self.tool}.{self.path}" if self.path else self.tool
        return f"{self.scenario_id} task {self.task} node {self.node} {at}: {self.message}"


def fair_gold_findings(spec: ScenarioSpec, tools: dict[str, ToolSpec]) -> list[FairnessFinding]:
    """Findings of one native scenario (official scenarios carry no rules and are not checked)."""
    if spec.source is not ScenarioSource.NATIVE or spec.today is None:
        return []
    out: list[FairnessFinding] = []
    for t, task in enumerate(spec.tasks):
        dialogue = dialogue_evidence(spec, t, spec.today)
        for i, node in enumerate(task.nodes):
            if not node.is_tool_call:
                if node.match:
                    out.append(FairnessFinding(spec.id, t, i, node.action.name, "", "match rules on a pseudo-action"))
                continue
            tool = tools.get(node.action.name)
            if tool is None:
                continue
            evidence = evidence_for(spec, t, i, spec.today, dialogue)
            for path, message in _node_findings(node.action.arguments, node.match or {}, tool.input_schema, evidence):
                out.append(FairnessFinding(spec.id, t, i, node.action.name, path, message))
    return out


def _node_findings(
    args: dict[str, Any], rules: dict[str, ArgRule], schema: dict[str, Any], evidence: Evidence
) -> list[tuple[str, str]]:
    props = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    out = _rule_problems(args, rules, props, required, evidence)
    for key, value in args.items():
        rule = rules.get(key)
        prop = sub_schema(props, key)
        if rule is not None and (rule.optional_default or rule.free_text is not None):
            continue  # leaving it out is correct, or any text on the user's topic is (keywords checked above)
        if key not in required and not evidence.asked(value, prop):
            out.append((key, _free_text_message(value) if _is_free_text(value) else
                        f"optional argument {value!r} the user did not ask for (drop it, or add optional_default)"))
            continue
        if rule is not None and _rule_grounds(rule, value, evidence):
            continue
        out += _value_findings(key, value, prop, evidence)
    return out


def _rule_grounds(rule: ArgRule, value: Any, evidence: Evidence) -> bool:
    if rule.any_of is not None:
        return any(evidence.grounded(v) for v in [value, *rule.any_of])
    if rule.number_tolerance is not None:
        return any(abs(n - value) <= rule.number_tolerance for n in evidence.numbers) if _num(value) else False
    return False


def _value_findings(path: str, value: Any, schema: dict[str, Any], evidence: Evidence) -> list[tuple[str, str]]:
    """Ungrounded leaves of one argument value (nested objects and lists walked)."""
    if isinstance(value, dict):
        props = schema.get("properties") or {}
        return [f for k, v in value.items() for f in _value_findings(f"{path}.{k}", v, sub_schema(props, k), evidence)]
    if isinstance(value, list):
        items = sub_schema(schema, "items")
        return [f for k, v in enumerate(value) for f in _value_findings(f"{path}[{k}]", v, items, evidence)]
    if "enum" in schema and value in schema["enum"] or isinstance(value, bool) or value is None:
        return []
    if evidence.grounded(value):
        return []
    if _is_free_text(value):
        return [(path, _free_text_message(value))]
    return [(path, f"{value!r} appears neither in the dialogue nor in an earlier observation, and the "
                   "dialogue does not resolve to it")]


def _is_free_text(value: Any) -> bool:
    return isinstance(value, str) and len(value.split()) >= FREE_TEXT_WORDS


def _free_text_message(value: str) -> str:
    return f"free text the agent must author verbatim: {value!r} (add a free_text rule with keywords the user gave)"


def _rule_problems(
    args: dict[str, Any], rules: dict[str, ArgRule], props: dict[str, Any], required: set[str], evidence: Evidence
) -> list[tuple[str, str]]:
    out = []
    for key, rule in rules.items():
        if key not in props:
            out.append((key, "match rule on an argument the tool does not have"))
        elif rule.optional_default and key in required:
            out.append((key, "optional_default on a required argument"))
        if key not in args and (rule.any_of is not None or rule.free_text or rule.number_tolerance is not None):
            out.append((key, "value rule on an argument gold does not set"))
        if rule.free_text is not None:
            out += [(key, f"free_text keyword {k!r} is not in the dialogue") for k in rule.free_text.keywords
                    if not any(evidence.said(alt.strip()) for alt in k.split("|"))]
    return out


def _num(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
