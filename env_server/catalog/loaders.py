"""Read tool specs from any supported format and hand back normalized ``ToolSpec``s.

Formats, detected from the path and content (see :func:`detect_format`):

* native provider files (a directory of ``*.json``, or one file with ``provider``/``functions``);
* WildToolBench tool lists: JSONL, each line a list of OpenAI function tools;
* a JSON list of OpenAI (``{"type":"function","function":{...}}`` or bare) or Anthropic
  (``input_schema``) or MCP (``inputSchema``) tool definitions;
* ToolAlpaca specs: a JSON list of APIs, each with an OpenAPI ``Documentation`` string.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from env_server.catalog.infer import (
    infer_category,
    infer_output_schema,
    infer_profile,
    infer_tool,
)
from env_server.catalog.models import (
    NormalizationRecord,
    ProfileSpec,
    ProviderSpec,
    SourceFormat,
    ToolSpec,
)
from env_server.catalog.normalize import normalize_schema
from env_server.catalog.places import described_country
from env_server.catalog.shape_hints import described_codes, shape_hints
from env_server.errors import CatalogError

MCP_NAME_RE = re.compile(r"^[A-Za-z0-9._-]{1,128}$")


@dataclass(frozen=True, kw_only=True)
class RawTool:
    """A tool as read from a file, before normalization and naming."""

    name: str
    description: str
    input_schema: Any
    output_schema: Any | None
    profile: ProfileSpec | None
    category: str | None
    provider: str
    source: SourceFormat
    origin: str
    group: str | None = None
    link: str | None = None


@dataclass
class LoadedTools:
    tools: list[RawTool] = field(default_factory=list)
    # Group id -> raw tools in order (a WildToolBench line, a ToolAlpaca API).
    groups: dict[str, list[RawTool]] = field(default_factory=dict)


def detect_format(path: Path) -> SourceFormat:
    if path.is_dir():
        return SourceFormat.NATIVE
    if path.suffix == ".jsonl":
        return SourceFormat.WILDTOOLBENCH
    data = _read_json(path)
    if isinstance(data, dict) and "functions" in data and "provider" in data:
        return SourceFormat.NATIVE
    items = data.get("tools") if isinstance(data, dict) else data
    if isinstance(items, list) and items and isinstance(items[0], dict):
        first = items[0]
        if "Documentation" in first:
            return SourceFormat.TOOLALPACA
        if "input_schema" in first:
            return SourceFormat.ANTHROPIC
        if "function" in first or "parameters" in first or "inputSchema" in first:
            return SourceFormat.OPENAI
    raise CatalogError(f"{path}: cannot tell which tool-spec format this is")


def read_tools(path: Path) -> LoadedTools:
    if not path.exists():
        raise CatalogError(f"catalog path does not exist: {path}")
    fmt = detect_format(path)
    reader = {
        SourceFormat.NATIVE: _read_native,
        SourceFormat.WILDTOOLBENCH: _read_wildtoolbench,
        SourceFormat.OPENAI: _read_function_list,
        SourceFormat.ANTHROPIC: _read_function_list,
        SourceFormat.TOOLALPACA: _read_toolalpaca,
    }[fmt]
    return reader(path)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise CatalogError(f"{path}: invalid JSON: {exc}") from exc


def _read_native(path: Path) -> LoadedTools:
    files = sorted(path.rglob("*.json")) if path.is_dir() else [path]
    out = LoadedTools()
    for f in files:
        try:
            provider = ProviderSpec.model_validate(_read_json(f))
        except ValueError as exc:
            raise CatalogError(f"{f}: {exc}") from exc
        group = f"native:{f.stem}"
        for fn in provider.functions:
            raw = RawTool(
                name=fn.name,
                description=fn.description,
                input_schema=fn.input_schema,
                output_schema=fn.output_schema,
                profile=fn.profile,
                category=provider.category,
                provider=provider.provider,
                source=SourceFormat.NATIVE,
                origin=str(f),
                group=group,
                link=provider.link,
            )
            out.tools.append(raw)
            out.groups.setdefault(group, []).append(raw)
    return out


def _read_wildtoolbench(path: Path) -> LoadedTools:
    out = LoadedTools()
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh):
            if not line.strip():
                continue
            try:
                entries = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CatalogError(f"{path}:{lineno + 1}: invalid JSON: {exc}") from exc
            group = f"wild_tool_bench_{lineno}"
            for entry in entries:
                raw = _function_entry(entry, SourceFormat.WILDTOOLBENCH, f"{path}:{lineno + 1}", group, group)
                out.tools.append(raw)
                out.groups.setdefault(group, []).append(raw)
    return out


def _read_function_list(path: Path) -> LoadedTools:
    data = _read_json(path)
    items = data.get("tools") if isinstance(data, dict) else data
    out = LoadedTools()
    for i, entry in enumerate(items or []):
        fmt = SourceFormat.ANTHROPIC if "input_schema" in entry else SourceFormat.OPENAI
        out.tools.append(_function_entry(entry, fmt, f"{path}#{i}", path.stem, None))
    return out


def _function_entry(entry: dict[str, Any], fmt: SourceFormat, origin: str, provider: str, group: str | None) -> RawTool:
    fn = entry.get("function", entry)
    if not isinstance(fn, dict) or "name" not in fn:
        raise CatalogError(f"{origin}: tool definition without a name")
    params = fn.get("parameters", fn.get("input_schema", fn.get("inputSchema")))
    return RawTool(
        name=str(fn["name"]),
        description=str(fn.get("description") or ""),
        input_schema=params if params is not None else {"type": "object", "properties": {}},
        output_schema=fn.get("outputSchema") or fn.get("output_schema"),
        profile=None,
        category=None,
        provider=provider,
        source=fmt,
        origin=origin,
        group=group,
    )


def _read_toolalpaca(path: Path) -> LoadedTools:
    out = LoadedTools()
    for api in _read_json(path):
        doc = api.get("Documentation")
        doc = json.loads(doc) if isinstance(doc, str) else doc
        if not isinstance(doc, dict):
            continue
        group = f"toolalpaca:{api.get('Name')}"
        for op_id, desc, params, output in _openapi_operations(doc):
            raw = RawTool(
                name=op_id,
                description=desc,
                input_schema=params,
                output_schema=output,
                profile=None,
                category=api.get("Category"),
                provider=str(api.get("Name") or path.stem),
                source=SourceFormat.TOOLALPACA,
                origin=f"{path}#{api.get('Name')}",
                group=group,
            )
            out.tools.append(raw)
            out.groups.setdefault(group, []).append(raw)
    return out


def _openapi_operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any], Any]]:
    components = (doc.get("components") or {}).get("schemas") or {}
    for route, methods in (doc.get("paths") or {}).items():
        if not isinstance(methods, dict):
            continue
        for method, op in methods.items():
            if not isinstance(op, dict):
                continue
            op_id = op.get("operationId") or f"{method}_{re.sub(r'[^A-Za-z0-9]+', '_', route).strip('_')}"
            desc = op.get("description") or op.get("summary") or f"{method.upper()} {route}"
            yield op_id, desc, _operation_params(op, components), _response_schema(op, components)


def _operation_params(op: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    """One object schema from an operation's non-header parameters and its JSON request body."""
    props: dict[str, Any] = {}
    required: list[str] = []
    for p in op.get("parameters") or []:
        if not isinstance(p, dict) or p.get("in") == "header" or "name" not in p:
            continue
        schema = dict(_resolve(p.get("schema") or {"type": "string"}, components))
        if p.get("description") and "description" not in schema:
            schema["description"] = p["description"]
        props[p["name"]] = schema
        if p.get("required"):
            required.append(p["name"])
    body = _request_body_schema(op, components)
    if isinstance(body, dict) and isinstance(body.get("properties"), dict):
        props.update(body["properties"])
        required += [r for r in body.get("required") or [] if r not in required]
    params: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        params["required"] = required
    return params


def _request_body_schema(op: dict[str, Any], components: dict[str, Any]) -> Any:
    body = (((op.get("requestBody") or {}).get("content") or {}).get("application/json") or {}).get("schema")
    return _resolve(body, components) if body else None


def _response_schema(op: dict[str, Any], components: dict[str, Any]) -> Any:
    responses = op.get("responses") or {}
    ok = responses.get("200") or responses.get(200) or responses.get("201") or {}
    schema = ((ok.get("content") or {}).get("application/json") or {}).get("schema")
    return _resolve(schema, components) if schema else None


def _resolve(schema: Any, components: dict[str, Any], depth: int = 0) -> Any:
    """Inline local ``#/components/schemas/X`` references (bounded, cycles become strings)."""
    if depth > 8:
        return {"type": "string"}
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            target = components.get(ref.rsplit("/", 1)[-1])
            return _resolve(target, components, depth + 1) if target else {"type": "object", "properties": {}}
        return {k: _resolve(v, components, depth + 1) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_resolve(v, components, depth + 1) for v in schema]
    return schema


def to_tool_spec(raw: RawTool, name: str) -> ToolSpec:
    """Normalize a raw tool; infer what the format did not provide."""
    records: list[NormalizationRecord] = []
    native = raw.source is SourceFormat.NATIVE
    in_recs: list[NormalizationRecord] = []
    if native:
        input_schema = raw.input_schema
    else:
        input_schema, in_recs = normalize_schema(raw.input_schema, root_path="input")
    records += in_recs
    if name != raw.name:
        records.append(NormalizationRecord(path="name", change=f"renamed '{raw.name}' -> '{name}'"))
    output = raw.output_schema
    output_schema: dict[str, Any] | None = None
    if native:
        output_schema = output
    elif isinstance(output, dict) and output.get("type") == "object" and output.get("properties"):
        output_schema, out_recs = normalize_schema(output, root_path="output")
        records += out_recs
    elif isinstance(output, dict) and output.get("type") == "array" and isinstance(output.get("items"), dict):
        wrapped, out_recs = normalize_schema({"type": "object", "properties": {"results": output}}, root_path="output")
        output_schema = wrapped
        records += out_recs
        records.append(NormalizationRecord(path="output", change="array response wrapped as {results: [...]}"))
    if raw.profile is not None:
        profile = raw.profile
    elif output_schema is None:
        # No output schema: the domain's entity template gives the record (and its hints).
        profile, output_schema, template = infer_tool(raw.name, raw.description, input_schema)
        records.append(NormalizationRecord(
            path="output", change=f"output schema inferred from the '{template.name}' entity template"))
    else:
        profile = infer_profile(raw.name, raw.description, input_schema)
        # The spec's own schema: its fields' siblings and descriptions say what they hold.
        output_schema, coded = described_codes(output_schema)
        records += [NormalizationRecord(path=p, change="enum read from the codes its description lists")
                    for p in coded]
        profile = profile.model_copy(update={"place": described_country(raw.description)})
    if not native and raw.profile is None:
        profile = profile.model_copy(update={"hints": {**shape_hints(output_schema or {}), **profile.hints}})
    if output_schema is None:
        output_schema = infer_output_schema(profile, input_schema)
    if raw.source is SourceFormat.WILDTOOLBENCH:
        # Tools of one WildToolBench list are families of one another (getCityShow ->
        # getShowDetail); one shared namespace keeps their ids resolvable across lists.
        profile = profile.model_copy(update={"family": "wildtoolbench"})
    category = raw.category or infer_category(raw.name, raw.description)
    return ToolSpec(
        name=name,
        description=raw.description,
        category=category,
        provider=raw.provider,
        source=raw.source,
        origin=raw.origin,
        input_schema=input_schema,
        output_schema=output_schema,
        profile=profile,
        normalizations=tuple(records),
        link=raw.link,
        base_name=raw.name if name != raw.name else None,
    )


def mcp_safe_name(name: str) -> str:
    """Replace characters MCP names may not hold; identical when already valid."""
    if MCP_NAME_RE.match(name):
        return name
    return (re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "tool")[:128]
