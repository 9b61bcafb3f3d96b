"""Kinds that follow from a record's place and the session clock, never drawn: UTC offsets,
DST flags and local times (``zones``), sunrise, sunset and day or night (``sun``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake
from env_server.simulators.sun import SUN_KINDS, sun_kind
from env_server.simulators.zones import ZONE_KINDS, zone_kind

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

CLOCK_KINDS: dict[str, Callable[[Generation], Any]] = {**ZONE_KINDS, **SUN_KINDS}


def clock_kind(name: str, parent: str, typ: str, schema: dict[str, Any], hint: str | None) -> str | None:
    """The clock kind of a field, once per schema node: its hint when that names one, else
    what its name says (``utcOffsetSeconds``, ``isDaylightSavingTime``, ``sunrise``); or None."""
    if hint is not None and hint in CLOCK_KINDS:
        return hint
    return sun_kind(snake(name), typ, schema.get("format")) or zone_kind(name, parent, typ, schema)
