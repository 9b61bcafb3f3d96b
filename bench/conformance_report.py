"""Summarize a run of the official MCP conformance suite (``bench/conformance.sh`` calls this).

Usage: ``python bench/conformance_report.py URL RESULTS_DIR``

Reads each scenario's ``checks.json`` under RESULTS_DIR and prints one Markdown table row per
scenario: pass, FAIL, or n/a with the reason. A scenario is not applicable only when it needs
something the live server at URL does not declare: a capability (resources, prompts,
completions, logging) or one of the suite's own test tools (``test_simple_text`` ...). Both
are read from the server itself (``initialize`` and ``tools/list``), so a capability or tool
added later turns its scenario applicable. Exit status: 0 when every applicable scenario
passes, 1 otherwise, 2 when there are no results.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import httpx

PROTOCOL_VERSION = "2025-11-25"
HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": PROTOCOL_VERSION}
# The suite's result folders are named server-<scenario>-<ISO timestamp with dashes>.
RESULT_DIR = re.compile(r"^server-(?P<scenario>.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$")

# Capability a scenario exercises (by exact name, then by prefix).
NEEDS_CAPABILITY = {"logging-set-level": "logging", "tools-call-with-logging": "logging",
                    "completion-complete": "completions"}
NEEDS_CAPABILITY_PREFIX = {"resources-": "resources", "prompts-": "prompts"}
# Tools the suite expects a conformance test server to implement.
NEEDS_TOOL = {
    "tools-call-simple-text": "test_simple_text",
    "tools-call-image": "test_image_content",
    "tools-call-audio": "test_audio_content",
    "tools-call-embedded-resource": "test_embedded_resource",
    "tools-call-mixed-content": "test_multiple_content_types",
    "tools-call-with-logging": "test_tool_with_logging",
    "tools-call-error": "test_error_handling",
    "tools-call-with-progress": "test_tool_with_progress",
    "tools-call-sampling": "test_sampling",
    "tools-call-elicitation": "test_elicitation",
    "elicitation-sep1034-defaults": "test_elicitation_sep1034_defaults",
    "elicitation-sep1330-enums": "test_elicitation_sep1330_enums",
    "server-sse-polling": "test_reconnection",
    "json-schema-2020-12": "json_schema_2020_12_tool",
}
MESSAGE_CHARS = 160


def server_profile(url: str) -> tuple[set[str], set[str]]:
    """The capabilities the server declares and the names of the tools it lists."""
    with httpx.Client(headers=HEADERS, timeout=60) as client:
        init = client.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": PROTOCOL_VERSION, "capabilities": {},
            "clientInfo": {"name": "toolenv-conformance-report", "version": "1"}}})
        init.raise_for_status()
        listing = client.post(url, json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        listing.raise_for_status()
    capabilities = {name for name, value in init.json()["result"]["capabilities"].items() if value is not None}
    return capabilities, {tool["name"] for tool in listing.json()["result"]["tools"]}


def not_applicable(scenario: str, capabilities: set[str], tools: set[str]) -> str | None:
    """Why ``scenario`` does not apply to this server, or None when it does."""
    needed = NEEDS_CAPABILITY.get(scenario) or next(
        (cap for prefix, cap in NEEDS_CAPABILITY_PREFIX.items() if scenario.startswith(prefix)), None)
    if needed is not None and needed not in capabilities:
        return f"n/a: no `{needed}` capability"
    tool = NEEDS_TOOL.get(scenario)
    if tool is not None and tool not in tools:
        return f"n/a: needs the suite's test tool `{tool}`"
    return None


def scenario_results(results_dir: Path) -> dict[str, list[dict[str, Any]]]:
    """Each scenario's checks in the order the suite ran them (the last run of a scenario wins)."""
    runs = []
    for folder in results_dir.iterdir():
        match = RESULT_DIR.match(folder.name)
        if match and (folder / "checks.json").is_file():
            runs.append((folder.name[match.end("scenario") + 1:], match["scenario"], folder / "checks.json"))
    return {scenario: json.loads(path.read_text()) for _, scenario, path in sorted(runs)}


def verdict(checks: list[dict[str, Any]]) -> tuple[bool, str]:
    failures = [c for c in checks if c.get("status") == "FAILURE"]
    warnings = [c for c in checks if c.get("status") == "WARNING"]
    if failures:
        return False, "FAIL: " + "; ".join(str(c.get("errorMessage") or c.get("id"))[:MESSAGE_CHARS] for c in failures)
    note = "; ".join(str((c.get("details") or {}).get("message") or c.get("errorMessage") or c.get("id"))
                     [:MESSAGE_CHARS] for c in warnings)
    return True, f"pass (warning: {note})" if warnings else "pass"


def main(url: str, results_dir: Path) -> int:
    results = scenario_results(results_dir)
    if not results:
        print(f"no scenario results under {results_dir}", file=sys.stderr)
        return 2
    capabilities, tools = server_profile(url)
    print("| scenario | result |\n|---|---|")
    failed = passed = skipped = 0
    for scenario, checks in results.items():
        reason = not_applicable(scenario, capabilities, tools)
        ok, text = verdict(checks)
        if reason is not None:
            skipped += 1
            text = reason
        elif ok:
            passed += 1
        else:
            failed += 1
        print(f"| {scenario} | {text} |")
    print(f"\n{passed} applicable scenarios passed, {failed} failed, {skipped} not applicable")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], Path(sys.argv[2])))
