"""The user channel depends on the environment and the orchestrator, not on the MCP server module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_importing_the_channel_loads_no_transport_module():
    probe = ("import sys, env_server.orchestrator.channel; "
             "print(sorted(m for m in ('env_server.server', 'env_server.app', 'env_server.runner') if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=Path(__file__).resolve().parents[2],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"

