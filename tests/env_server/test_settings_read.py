"""Every server setting is read by the code it configures: no setting that changes nothing."""

from __future__ import annotations

import re
from pathlib import Path

from env_server.config import ServerSettings

ROOT = Path(__file__).resolve().parents[2]


def test_every_server_setting_is_read_outside_its_definition():
    sources = [p for package in ("env_server", "state") for p in (ROOT / package).rglob("*.py")
               if p != ROOT / "env_server" / "config.py"]
    text = "\n".join(p.read_text(encoding="utf-8") for p in sources)
    unread = [name for name in ServerSettings.model_fields if not re.search(rf"\.{name}\b", text)]
    assert unread == []
