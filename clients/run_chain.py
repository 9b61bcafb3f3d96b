"""Hash chains over a run directory's session files, and the run manifest.

Every line of ``sessions/<scenario_id>.jsonl`` carries ``prev_hash`` and ``hash``:
``hash = sha256(prev_hash + canonical JSON of the line without those two keys)`` (canonical:
sorted keys, no whitespace, UTF-8), and ``prev_hash`` of the first line is ``GENESIS``. Editing,
removing, inserting or reordering a line breaks the chain at that line; removing lines at the
end is caught by the head recorded in ``run_manifest.json``:

``{"format", "package_version", "catalog": {"sources", "digest", "tools"}, "scenarios_path",
"scenarios": {id: {"digest", "seed", "today"}}, "config": {"seed", "max_steps", "distractors",
"tool_pool"}, "chains": {id: head}, "chain_head"}``; ``chain_head`` hashes every session's head
in scenario order. ``toolenv verify`` (:mod:`clients.run_verify`) checks all of it.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from env_server.catalog import Catalog
from env_server.orchestrator import ScenarioSpec

GENESIS = "0" * 64
CHAIN_KEYS = ("prev_hash", "hash")
MANIFEST = "run_manifest.json"
MANIFEST_FORMAT = 1


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def link_hash(prev_hash: str, record: dict[str, Any]) -> str:
    """The hash of ``record`` (chain keys ignored) following ``prev_hash``."""
    body = {k: v for k, v in record.items() if k not in CHAIN_KEYS}
    return sha256_hex(prev_hash + canonical(body))


def chain_records(lines: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``lines`` with ``prev_hash`` and ``hash`` set, in order (existing chain keys are replaced)."""
    chained: list[dict[str, Any]] = []
    prev = GENESIS
    for line in lines:
        current = link_hash(prev, line)
        chained.append({**{k: v for k, v in line.items() if k not in CHAIN_KEYS}, "prev_hash": prev, "hash": current})
        prev = current
    return chained


def strip_chain(line: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k not in CHAIN_KEYS}


def head_of(lines: Sequence[dict[str, Any]]) -> str:
    """The stored hash of the last line (``GENESIS`` for an empty file)."""
    return str(lines[-1].get("hash", "")) if lines else GENESIS


def run_head(chains: dict[str, str]) -> str:
    return sha256_hex(canonical(sorted(chains.items())))


def catalog_digest(catalog: Catalog) -> str:
    """SHA-256 over every tool's normalized spec (its file location left out) and the groups."""
    h = hashlib.sha256()
    for name in sorted(catalog.tools):
        spec = catalog.tools[name].model_dump(mode="json", exclude={"origin"})
        h.update(canonical([name, spec]).encode("utf-8"))
    h.update(canonical(sorted(catalog.groups.items())).encode("utf-8"))
    return h.hexdigest()


def scenario_digest(spec: ScenarioSpec) -> str:
    return sha256_hex(canonical(spec.model_dump(mode="json")))


def package_version() -> str:
    try:
        return importlib.metadata.version("toolenv")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines() if t.strip()]


@dataclass(frozen=True, kw_only=True)
class ManifestInputs:
    """What the manifest records besides the chains."""

    catalog: Catalog
    catalog_sources: list[str] | None
    scenarios: Sequence[ScenarioSpec]
    scenarios_path: str | None
    seed: int | None
    max_steps: int | None
    distractors: int
    tool_pool: int | None
    faults: dict[str, Any] | None = None  # session fault options (FaultOptions as JSON), replayed alike


def write_manifest(run_dir: Path, sessions_dir: Path, inputs: ManifestInputs) -> dict[str, Any]:
    """Write ``run_manifest.json`` from the finished session files; returns it."""
    chains = {s.id: head_of(read_jsonl(sessions_dir / f"{s.id}.jsonl")) for s in sorted(inputs.scenarios, key=_id)}
    manifest = {
        "format": MANIFEST_FORMAT,
        "package_version": package_version(),
        "catalog": {"sources": inputs.catalog_sources, "digest": catalog_digest(inputs.catalog),
                    "tools": len(inputs.catalog)},
        "scenarios_path": inputs.scenarios_path,
        "scenarios": {
            s.id: {"digest": scenario_digest(s), "seed": s.seed if inputs.seed is None else inputs.seed,
                   "today": s.today.isoformat() if s.today else None}
            for s in sorted(inputs.scenarios, key=_id)
        },
        "config": {"seed": inputs.seed, "max_steps": inputs.max_steps, "distractors": inputs.distractors,
                   "tool_pool": inputs.tool_pool, "faults": inputs.faults},
        "chains": chains,
        "chain_head": run_head(chains),
    }
    (run_dir / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def _id(spec: ScenarioSpec) -> str:
    return spec.id


def check_chain(path: Path, lines: Sequence[dict[str, Any]], head: str | None) -> str | None:
    """The first break in one session file's chain, worded for a person; None if it holds."""
    prev = GENESIS
    for number, line in enumerate(lines, start=1):
        where = f"{path.parent.name}/{path.name} line {number} ({line.get('type', '?')} record)"
        if "hash" not in line or "prev_hash" not in line:
            return f"{where}: carries no hash chain"
        if line["prev_hash"] != prev:
            return (f"{where}: prev_hash does not match the hash of line {number - 1}: "
                    "a record before it was removed, inserted or reordered")
        computed = link_hash(prev, line)
        if computed != line["hash"]:
            return f"{where}: content changed (stored hash {line['hash'][:12]}…, content hashes to {computed[:12]}…)"
        prev = computed
    if head is not None and prev != head:
        return (f"{path.parent.name}/{path.name}: ends at line {len(lines)} with hash {prev[:12]}…, but the manifest's "
                f"head is {head[:12]}…: records were removed from or added at the end")
    return None
