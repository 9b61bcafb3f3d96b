"""Air-quality index scales as data: the US EPA AQI, China's AQI and the European AQI.

The breakpoint tables, their sources and the units they are written in live in
``tool_specs/reference/air_quality.json``. This module reads them once and answers four
questions: a pollutant's sub-index for a concentration (``AirScaleSpec.sub_index``), the
highest concentration that stays within an index (``ceiling``), an index's category, and a
concentration in another unit (``convert``). The value engine (``air_quality``) and the
audit (``specs/air_checks``) both compute through here, so each rule is written once.

No package fits: ``python-aqi`` (BSD) was last released in 2019, before the EPA's 2024
PM2.5 breakpoints; ``aqi-hub`` (MIT, maintained) has the US and Chinese tables but no
European one, and it reports edge values through ``warnings.warn``, which a threaded server
cannot silence safely and our test settings turn into errors.
"""

from __future__ import annotations

import bisect
import functools
import json
import math
from dataclasses import dataclass
from importlib import resources
from typing import Any

POLLUTANTS = ("pm25", "pm10", "o3", "no2", "so2", "co")
UNITS = ("ugm3", "mgm3", "ppb", "ppm")
# How each unit is written in a record's ``units`` field.
UNIT_TEXT = {"ugm3": "µg/m³", "mgm3": "mg/m³", "ppb": "ppb", "ppm": "ppm"}
Band = tuple[float, float, int, int]  # concentration low, high; index low, high


@dataclass(frozen=True)
class BandTableSpec:
    """One pollutant's breakpoints on one scale, in the unit the standard writes them."""

    unit: str
    digits: int
    bands: tuple[Band, ...]
    round_up: bool

    def exact_index(self, cut: float) -> int | None:
        """The sub-index of a concentration already cut to the table's digits; None above the table."""
        i = bisect.bisect_left([band[1] for band in self.bands], cut - 1e-9)
        if i == len(self.bands):
            return None
        c_lo, c_hi, i_lo, i_hi = self.bands[i]
        if cut < c_lo - 1e-9 and i:  # between two bands (ozone's 8-hour/1-hour gap): the lower band's top
            return self.bands[i - 1][3]
        raw = i_lo + (i_hi - i_lo) * (cut - c_lo) / (c_hi - c_lo) if c_hi > c_lo else i_lo
        return math.ceil(raw - 1e-9) if self.round_up else int(raw + 0.5)

    @functools.cached_property
    def _grid(self) -> tuple[int, ...]:
        """The sub-index at every step of the table's digits, from 0 to its top concentration:
        read once, so a call looks its concentrations up instead of interpolating."""
        scale = 10 ** self.digits
        return tuple(self.exact_index(step / scale) or 0 for step in range(round(self.bands[-1][1] * scale) + 1))

    def index(self, value: float, top: int) -> int:
        """The sub-index of a concentration in this table's unit (cut to its digits first)."""
        step = int(value * 10 ** self.digits + 1e-9)
        grid = self._grid
        return min(top, grid[step]) if 0 <= step < len(grid) else top if step > 0 else 0

    def ceiling(self, index: float) -> float:
        """The highest concentration (this table's unit) whose sub-index is at most ``index``."""
        for c_lo, c_hi, i_lo, i_hi in self.bands:
            if index <= i_hi:
                if i_hi == i_lo:
                    return c_lo
                share = max(0.0, (index - i_lo) / (i_hi - i_lo))
                return c_lo + (c_hi - c_lo) * share
        return self.bands[-1][1]


@dataclass(frozen=True)
class AirScaleSpec:
    """One index scale: its tables per pollutant and its categories."""

    name: str
    tables: dict[str, BandTableSpec]
    categories: tuple[tuple[int, str], ...]  # (upper index, label), ascending
    top: int

    def sub_index(self, pollutant: str, value: float, unit: str) -> int | None:
        """``pollutant``'s sub-index for ``value`` given in ``unit``; None when the scale has no table for it."""
        table = self.tables.get(pollutant)
        if table is None:
            return None
        return table.index(convert(value, pollutant, unit, table.unit), self.top)

    def ceiling_ugm3(self, pollutant: str, index: float) -> float:
        """The highest concentration in µg/m³ that keeps ``pollutant`` at or below ``index``."""
        table = self.tables.get(pollutant)
        if table is None:
            return math.inf
        return convert(table.ceiling(index), pollutant, table.unit, "ugm3")

    def category(self, index: float) -> str:
        return next((label for top, label in self.categories if index <= top), self.categories[-1][1])

    def band_top(self, label: str) -> int | None:
        """The highest index that ``label`` covers, or None when the scale has no such label."""
        return next((top for top, own in self.categories if own.lower() == label.lower()), None)

    @functools.cached_property
    def labels(self) -> frozenset[str]:
        return frozenset(label.lower() for _, label in self.categories)


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    path = resources.files("tool_specs") / "reference" / "air_quality.json"
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def _bands(entry: dict[str, Any], index_points: list[int] | None) -> tuple[Band, ...]:
    if "bands" in entry:
        return tuple((float(a), float(b), int(c), int(d)) for a, b, c, d in entry["bands"])
    points, idx = entry["breakpoints"], index_points or []
    return tuple((float(points[i]), float(points[i + 1]), idx[i], idx[i + 1]) for i in range(len(points) - 1))


@functools.lru_cache(maxsize=1)
def scales() -> dict[str, AirScaleSpec]:
    """Every scale of the reference table, by name ("us", "cn", "eu")."""
    found: dict[str, AirScaleSpec] = {}
    for name, raw in _table()["scales"].items():
        up = raw["rounding"] == "up"
        tables = {p: BandTableSpec(e["unit"], int(e["digits"]), _bands(e, raw.get("index_breakpoints")), up)
                  for p, e in raw["pollutants"].items()}
        cats = tuple((int(top), str(label)) for top, label in raw["categories"])
        found[name] = AirScaleSpec(name, tables, cats, int(raw["top"]))
    return found


@functools.lru_cache(maxsize=1)
def _molar() -> tuple[float, dict[str, float]]:
    raw = _table()
    return float(raw["molar_volume_l"]), {k: float(v) for k, v in raw["molar_mass_g"].items()}


def convert(value: float, pollutant: str, src: str, dst: str) -> float:
    """``value`` of ``pollutant`` from unit ``src`` to unit ``dst`` (gases at 25 °C and 1 atm)."""
    if src == dst:
        return value
    ugm3 = value * 1000 if src == "mgm3" else value
    if src in ("ppb", "ppm"):
        volume, masses = _molar()
        ppb = value * 1000 if src == "ppm" else value
        ugm3 = ppb * masses.get(pollutant, volume) / volume
    if dst == "mgm3":
        return ugm3 / 1000
    if dst in ("ppb", "ppm"):
        volume, masses = _molar()
        ppb = ugm3 * volume / masses.get(pollutant, volume)
        return ppb / 1000 if dst == "ppm" else ppb
    return ugm3


def typical_pm25(country_code: str) -> tuple[float, bool]:
    """A country's typical urban PM2.5 (µg/m³), and whether its air carries desert dust."""
    raw = _table()["typical_pm25"]
    code = country_code.upper()
    return float(raw["by_country"].get(code, raw["default"])), code in raw["dusty"]
