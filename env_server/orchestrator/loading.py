"""Find and load scenarios from a path of either format."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from env_server.orchestrator.errors import ScenarioFormatError
from env_server.orchestrator.models import ScenarioSpec
from env_server.orchestrator.native import load_native_file
from env_server.orchestrator.official import read_official_jsonl


def default_scenarios_path() -> Path:
    """The built-in scenarios shipped with the catalog (``tool_specs/scenarios``)."""
    return Path(str(resources.files("tool_specs") / "scenarios"))


@dataclass
class ScenarioLoad:
    """What a path held: the scenarios that parsed and one error per file or line that did not."""

    scenarios: list[ScenarioSpec] = field(default_factory=list)
    errors: list[ScenarioFormatError] = field(default_factory=list)

    def get(self, scenario_id: str) -> ScenarioSpec | None:
        return next((s for s in self.scenarios if s.id == scenario_id), None)


def scenario_files(path: Path) -> list[Path]:
    """Native ``*.json`` and official ``*.jsonl`` files under ``path`` (or ``path`` itself)."""
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.suffix in (".json", ".jsonl") and p.is_file())
    return [path]


def load_scenarios(path: Path | None = None) -> ScenarioLoad:
    """Load every scenario at ``path`` (default: the built-in set). Never raises for bad files."""
    path = path or default_scenarios_path()
    result = ScenarioLoad()
    if not path.exists():
        result.errors.append(ScenarioFormatError(f"scenario path does not exist: {path}"))
        return result
    for file in scenario_files(path):
        if file.suffix == ".jsonl":
            scenarios, errors = read_official_jsonl(file)
            result.scenarios += scenarios
            result.errors += errors
            continue
        try:
            result.scenarios.append(load_native_file(file))
        except ScenarioFormatError as exc:
            result.errors.append(exc)
    return result
