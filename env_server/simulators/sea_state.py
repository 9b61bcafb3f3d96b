"""One sea state per place, walking smoothly hour to hour: swell, wind sea and their sum.

A sea-state record (an hour of a marine forecast: ``waveHeight``, ``swellHeight``,
``swellPeriod``, ``windSpeed``, ``waterTemperature``…) is not a bag of independent draws.
``sea_state_step(name, entity, props)`` is chosen once per object schema that holds a wave
height of the sea; on each record it writes every sea field from one ``SeaState``: the
place's typical swell (rougher towards the poles, seeded per place and session), a slow
seeded walk of swell and wind along the series index (hours), the wind sea that wind raises,
and the significant height of both (the root of the sum of squares). Periods follow the
heights (a long swell, a short wind sea, the energy-weighted mean), and the water's
temperature follows the latitude and barely moves within a day.
"""

from __future__ import annotations

import math
import re
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from env_server.simulators.draws import COMPASS
from env_server.simulators.marine_kinds import marine_kind

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_KMH, _MPH, _KNOTS = 3.6, 2.23694, 1.94384


@dataclass(frozen=True)
class SeaState:
    swell_m: float
    wind_wave_m: float
    swell_period_s: float
    wind_wave_period_s: float
    swell_bearing: float
    wind_ms: float
    water_c: float

    @property
    def wave_m(self) -> float:
        """Significant wave height of swell and wind sea together."""
        return math.hypot(self.swell_m, self.wind_wave_m)

    @property
    def wave_period_s(self) -> float:
        """Mean period, each system weighted by its energy (its height squared)."""
        s2, w2 = self.swell_m ** 2, self.wind_wave_m ** 2
        return (s2 * self.swell_period_s + w2 * self.wind_wave_period_s) / max(s2 + w2, 1e-9)


def _phase(key: str) -> float:
    """A seeded number in [0, 1) for ``key``."""
    return zlib.crc32(key.encode()) / 2 ** 32


def _wave(key: str, hour: float, period_h: float) -> float:
    """A smooth seeded swing in [-1, 1] with a period of about ``period_h`` hours."""
    period = period_h * (0.8 + 0.4 * _phase(key + "/p"))
    return math.sin(2 * math.pi * (hour / period + _phase(key)))


def sea_state_at(lat: float, lon: float, seed: int, hour: float) -> SeaState:
    """The sea at a point, ``hour`` hours into a series: smooth in ``hour``, fixed per point and seed."""
    key = f"{seed}|{round(lat, 1)}|{round(lon, 1)}"
    rough = 0.9 + 2.2 * min(1.0, abs(lat) / 60) ** 1.6  # the Southern Ocean's swell, not the tropics'
    swell = rough * (0.6 + 0.8 * _phase(key + "/swell"))
    swell *= 1 + 0.22 * _wave(key + "/s1", hour, 30) + 0.05 * _wave(key + "/s2", hour, 10)
    wind = (4.0 + 6.0 * _phase(key + "/wind") + 3.0 * min(1.0, abs(lat) / 60))
    wind *= 1 + 0.25 * _wave(key + "/w1", hour, 28) + 0.04 * _wave(key + "/w2", hour, 12)
    wind_wave = min(4.5, 0.03 * wind ** 1.5)  # a young sea: about a metre in a 10 m/s wind
    swell_period = min(18.0, 7.0 + 2.4 * swell + 0.6 * _wave(key + "/sp", hour, 26))
    bearing = (360 * _phase(key + "/dir") + 12 * _wave(key + "/d", hour, 36)) % 360
    water = 29.0 - 0.0062 * lat ** 2 + 1.5 * (_phase(key + "/sst") - 0.5) + 0.15 * _wave(key + "/t", hour, 24)
    return SeaState(swell_m=max(0.1, swell), wind_wave_m=max(0.05, wind_wave), swell_period_s=swell_period,
                    wind_wave_period_s=min(9.0, 1.8 + 0.36 * wind), swell_bearing=bearing, wind_ms=wind,
                    water_c=max(-1.8, min(31.5, water)))


# A field's role in a sea state: (snake-case pattern, role); first match wins.
_ROLES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"^(wind_wave|wind_sea)_(height|ht)(_m|_mt)?$", "wind_wave_m"),
    (r"^secondary_swell_(height|ht)(_m|_mt)?$", "secondary_swell_m"),
    (r"^swell_(height|ht)(_m|_mt)?$", "swell_m"),
    (r"^(wave|sig|sig_wave|significant_wave)_(height|ht)(_m|_mt)?$", "wave_m"),
    (r"^(wind_wave|wind_sea)_period(_s|_secs)?$", "wind_wave_period_s"),
    (r"^swell_period(_s|_secs)?$", "swell_period_s"),
    (r"^wave_period(_s|_secs)?$", "wave_period_s"),
    (r"^(swell|wave)_dir(ection)?(_deg(rees)?)?$", "swell_bearing"),
    (r"^(swell|wave)_dir_16_point$", "swell_point"),
    (r"^(water|sea|sea_surface)_temp(erature)?(_c)?$", "water_c"),
    (r"^wind_speed(_ms|_mps)?$", "wind_ms"),
    (r"^wind_(kph|kmh|speed_kmh|speed_kph)$", "wind_kmh"),
    (r"^wind_(mph|speed_mph)$", "wind_mph"),
    (r"^wind_(kt|kts|knots|speed_kt|speed_knots)$", "wind_kt"),
))


def field_role(field: str) -> str | None:
    """A field's role in a sea state (``wave_m``, ``swell_period_s``, ``wind_kmh``…), or None."""
    low = _CAMEL.sub("_", field).lower()
    return next((role for pattern, role in _ROLES if pattern.match(low)), None)


def _value(state: SeaState, role: str) -> Any:
    if role == "secondary_swell_m":
        return round(0.35 * state.swell_m, 2)
    if role == "swell_point":
        return COMPASS[int((state.swell_bearing + 11.25) // 22.5) % 16]
    if role in ("wind_kmh", "wind_mph", "wind_kt"):
        return round(state.wind_ms * {"wind_kmh": _KMH, "wind_mph": _MPH, "wind_kt": _KNOTS}[role], 1)
    value: float = getattr(state, role)
    return round(value, 1 if role in ("water_c", "wind_ms", "swell_bearing") else 2)


def _point(gen: Generation) -> tuple[float, float]:
    point = gen.call_point
    if point is not None:
        return point
    place = gen.scope.top.place
    return place.latitude, place.longitude


def sea_state_step(name: str, entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that writes a sea record's fields from one smooth sea state, or None for
    records without a wave height of the sea."""
    heights = [k for k in props if marine_kind(k, entity, name, None) == "wave_height_m"]
    roles = {k: r for k in props if (r := field_role(k)) is not None and _numeric_or_text(props[k], r)}
    if not heights or not any(roles.get(k) for k in heights):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        lat, lon = _point(gen)
        state = sea_state_at(lat, lon, gen.session_seed, float(index or 0))
        for key, role in roles.items():
            if key in record and record[key] is not None:
                record[key] = _fit(_value(state, role), props[key])

    return step


def _fit(value: Any, schema: Mapping[str, Any]) -> Any:
    """``value`` within its schema's bounds, whole when the schema wants an integer."""
    if isinstance(value, str):
        return value
    lo, hi = schema.get("minimum"), schema.get("maximum")
    value = max(lo, value) if isinstance(lo, (int, float)) else value
    value = min(hi, value) if isinstance(hi, (int, float)) else value
    return round(value) if schema.get("type") == "integer" else value


def _numeric_or_text(schema: Any, role: str) -> bool:
    typ = schema.get("type") if isinstance(schema, dict) else None
    return typ == "string" if role == "swell_point" else typ in ("number", "integer")
