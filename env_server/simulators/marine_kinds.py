"""The sea in its own units and magnitudes: waves of a metre or two, swells of ten seconds,
salt water at 35 PSU, tides within a few metres of mean sea level.

``marine_kind(field, entity, hint)`` names a field's marine quantity once per schema node
(a wave height, a swell period, a salinity, a sea level), for records of the sea; the
``MARINE_KINDS`` draw them in ranges the open ocean shows. Weather services that blend
several models give one quantity per source (Storm Glass: ``sg``, ``noaa``, ``icon``…);
``sources_step`` keeps the sources of one record within a few percent of each other, and
``tide_step`` puts a high tide above mean sea level and a low one below it.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_SEA_WORDS = frozenset({"marine", "ocean", "sea", "tide", "tides", "wave", "waves", "swell", "surf", "biology",
                        "extreme", "extremes", "buoy"})
_LOOSE_HINTS = frozenset({None, "amount", "count", "score", "percentage", "distance_km", "elevation_m"})
# snake_case field -> marine kind, first match wins.
_ROLES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), k) for p, k in (
    (r"^(wave|swell|wind_wave|secondary_swell|significant_wave)_height(_m)?$", "wave_height_m"),
    (r"^(sig|sig_wave|swell|wave|wind_wave)_ht(_mt|_m)?$", "wave_height_m"),  # WeatherAPI's sig_ht_mt
    (r"^(wave|swell|wind_wave|secondary_swell)_period(_s|_secs)?$", "wave_period_s"),
    (r"^(wave|swell|wind_wave|secondary_swell|current)_direction$", "bearing_deg"),
    (r"^current_speed(_ms)?$", "current_speed_ms"),
    (r"^salinity$", "salinity_psu"),
    (r"^(ph|sea_ph)$", "sea_ph"),
    (r"^(chlorophyll|phytoplankton)$", "chlorophyll_mg_m3"),
    (r"^(oxygen|dissolved_oxygen)$", "oxygen_mmol_m3"),
    (r"^(nitrate|phosphate|silicate)$", "nutrient_mmol_m3"),
    (r"^(sea_level|height|tide_height|water_level)(_m)?$", "sea_level_m"),
))
# Model sources a weather service blends, each giving the same quantity.
SOURCES = ("sg", "noaa", "icon", "dwd", "meteo", "meto", "fcoo", "fmi", "yr", "smhi", "ecmwf")


def sea_minded(entity: str, parent: str) -> bool:
    words = set(entity.lower().split("_")) | set(_CAMEL.sub("_", parent).lower().split("_"))
    return not words.isdisjoint(_SEA_WORDS)


def marine_kind(field: str, entity: str, parent: str, hint: str | None) -> str | None:
    """The marine quantity of a field of a record of the sea, or None."""
    if hint not in _LOOSE_HINTS or not field or not sea_minded(entity, parent):
        return None
    low = _CAMEL.sub("_", field).lower()
    if low in SOURCES and "level" in entity.lower() + parent.lower():
        return "sea_level_m"  # Storm Glass's sea level, one per model
    return next((kind for pattern, kind in _ROLES if pattern.match(low)), None)


def _between(lo: float, hi: float, ndigits: int) -> Callable[[Generation], float]:
    return lambda g: round(g.rng.uniform(lo, hi), ndigits)


def _wave_height(gen: Generation) -> float:
    """Mostly a metre or two; a rough sea now and then (the open ocean's long tail)."""
    return round(min(9.0, gen.rng.lognormvariate(0.2, 0.55)), 2)


MARINE_KINDS: dict[str, Callable[[Generation], Any]] = {
    "wave_height_m": _wave_height,
    "wave_period_s": _between(4.0, 16.0, 2),
    "bearing_deg": _between(0, 359.9, 1),
    "current_speed_ms": _between(0.02, 1.4, 2),
    "salinity_psu": _between(33.0, 37.5, 2),
    "sea_ph": _between(7.95, 8.25, 2),
    "chlorophyll_mg_m3": _between(0.05, 4.0, 2),
    "oxygen_mmol_m3": _between(190.0, 330.0, 2),
    "nutrient_mmol_m3": _between(0.1, 25.0, 2),
    "sea_level_m": _between(-1.8, 1.8, 2),
}


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def sources_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that keeps a record's per-model values of one quantity within a few percent
    of the first model's, or None for records with fewer than two model sources."""
    keys = [k for k in SOURCES if k in props]
    if len(keys) < 2:
        return None
    first, rest = keys[0], keys[1:]

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        base = _number(record.get(first))
        if base is None:
            return
        for key in rest:
            if _number(record.get(key)) is not None:
                spread = (zlib.crc32(f"{key}|{base}".encode()) % 81 - 40) / 1000  # within ±4%
                record[key] = round(base * (1 + spread), 2) if abs(base) >= 0.25 else round(base + spread / 4, 2)

    return step


def tide_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that puts a high tide above mean sea level and a low one below, or None for
    records that are no tide extreme (a ``type`` of high/low and a ``height``)."""
    kind = props.get("type")
    if not isinstance(kind, dict) or set(kind.get("enum") or ()) != {"high", "low"} or "height" not in props:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        height = _number(record.get("height"))
        if height is not None and record.get("type") in ("high", "low"):
            record["height"] = abs(height) if record["type"] == "high" else -abs(height)

    return step
