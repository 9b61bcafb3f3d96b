"""Closed lists: lists a record shows whole, not a random handful.

A year's public holidays, the named days of a date, the legs of a journey: the plan of an
array (``plans``) asks ``closed_list`` whether its items are drawn from one of these kinds,
and if so how many items the list has for the call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from env_server.simulators.calendar_kinds import CALENDAR_LISTS
from env_server.simulators.journey_kinds import JOURNEY_LISTS
from env_server.simulators.pet_kinds import PET_LISTS

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

CLOSED_LISTS: dict[str, Callable[[Generation], int]] = {**CALENDAR_LISTS, **JOURNEY_LISTS}
# Lists of scalars whose length the call gives (``count`` dog images), by the items' kind.
SCALAR_LISTS: dict[str, Callable[[Generation], int]] = {**PET_LISTS}
