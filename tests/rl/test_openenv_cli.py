"""``toolenv openenv serve``: its options, and a command line that stays light without serving."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from clients.openenv_cli import openenv_app


def test_serve_help_lists_its_options():
    shown = CliRunner().invoke(openenv_app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    for flag in ("--host", "--port", "--reward", "--max-steps", "--max-sessions", "--idle-timeout", "--scenarios"):
        assert flag in shown.output


def test_importing_the_command_does_not_import_openenv():
    # Every `toolenv` command imports this module (entry point group); openenv-core takes seconds.
    probe = "import sys, clients.openenv_cli; print('openenv' in sys.modules)"
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=Path(__file__).resolve().parents[2],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "False"
